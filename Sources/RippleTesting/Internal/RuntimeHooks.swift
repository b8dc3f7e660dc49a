import Synchronization

/// The two hooks of the Swift concurrency runtime that put a lockstep scope's jobs on its executor.
///
/// - `swift_task_enqueueGlobal_hook` sees every job sent to the global concurrent executor: new nonisolated
///   tasks, `Task.detached`, task-group children, default actors' jobs, hops off an actor.
/// - `swift_task_getMainExecutor_hook` answers every lookup of the main actor's executor.
///
/// Both are installed once, at the first lockstep scope, and stay: each forwards to the runtime's own
/// function unless the job or lookup comes from a scope's pump (see ``_LockstepExecutor``), which is a
/// thread comparison and two atomic loads. Docs/Decisions/LockstepRuntimeHooks.md has the research and the
/// alternatives.
enum _RuntimeHooks {
  // The runtime calls hooks with the Swift calling convention; a thin function has that convention and no
  // context, as the C declarations in the runtime's `ConcurrencyHooks.def` expect.
  typealias EnqueueGlobalOriginal = @convention(thin) (UnownedJob) -> Void
  typealias EnqueueGlobalHook = @convention(thin) (UnownedJob, EnqueueGlobalOriginal) -> Void
  typealias GetMainExecutorOriginal = @convention(thin) () -> UnownedSerialExecutor
  typealias GetMainExecutorHook = @convention(thin) (GetMainExecutorOriginal) -> UnownedSerialExecutor

  /// Why the hooks cannot be used, or `nil` when they are in place: installed at the first call, and checked
  /// again at every later one, so that a library that replaces them later (`withMainSerialExecutor`, say) stops
  /// the next scope instead of leaving it without lockstep.
  static var unavailableReason: String? {
    switch installation {
    case .failure(let reason): return reason.message
    case .success(let installed):
      guard installed.globalHook.pointee.map(address) == installed.global,
        installed.mainHook.pointee.map(address) == installed.main
      else { return "another library has replaced the concurrency runtime's enqueue hooks" }
      return nil
    }
  }

  /// The hook variables and the functions installed in them.
  private struct Installed: @unchecked Sendable {  // written once, at installation; then only read
    let globalHook: UnsafeMutablePointer<EnqueueGlobalHook?>
    let mainHook: UnsafeMutablePointer<GetMainExecutorHook?>
    let global: UnsafeRawPointer
    let main: UnsafeRawPointer
  }

  private struct Unavailable: Error {
    var message: String
  }

  private static let installation: Result<Installed, Unavailable> = install()

  private static func address<F>(_ function: F) -> UnsafeRawPointer {
    unsafeBitCast(function, to: UnsafeRawPointer.self)
  }

  /// The executor of the scope whose pump runs on the calling thread right now, if any.
  static func pumpingExecutor() -> _LockstepExecutor? {
    let thread = pumpThread.load(ordering: .acquiring)
    guard thread != 0, thread == _Platform.currentThreadID() else { return nil }
    // Only the pump's own thread gets here, and only the pump writes `pumping`: no other thread can race.
    let address = pumping.load(ordering: .relaxed)
    guard let pointer = UnsafeRawPointer(bitPattern: address) else { return nil }
    // Executors are never freed (see `_LockstepExecutor.make()`), so the address stays valid.
    return Unmanaged<_LockstepExecutor>.fromOpaque(pointer).takeUnretainedValue()
  }

  /// What ``pumpStarted(_:)`` replaced, for ``pumpStopped(restoring:)``.
  struct PumpMark {
    fileprivate let thread: UInt
    fileprivate let executor: UInt
  }

  /// The pump of `executor` starts running jobs on the calling thread (the main thread). Returns what was
  /// there before: a pump block can run inside another's job when that job spins the main run loop (XCTest's
  /// `wait(for:)` on Darwin), and the outer one must find its own values again afterwards.
  static func pumpStarted(_ executor: _LockstepExecutor) -> PumpMark {
    let mark = PumpMark(thread: pumpThread.load(ordering: .relaxed), executor: pumping.load(ordering: .relaxed))
    pumping.store(UInt(bitPattern: Unmanaged.passUnretained(executor).toOpaque()), ordering: .relaxed)
    pumpThread.store(_Platform.currentThreadID(), ordering: .releasing)
    return mark
  }

  /// The pump that runs on the calling thread stopped running jobs: back to what `mark` recorded.
  static func pumpStopped(restoring mark: PumpMark) {
    pumpThread.store(0, ordering: .releasing)
    pumping.store(mark.executor, ordering: .relaxed)
    pumpThread.store(mark.thread, ordering: .releasing)
  }

  /// The thread a pump runs on, 0 when none runs: only that thread ever sees its own number here, so the
  /// hooks of every other thread return at the first comparison.
  private static let pumpThread = Atomic<UInt>(0)
  /// The address of the executor whose pump runs, 0 when none runs.
  private static let pumping = Atomic<UInt>(0)

  private static func install() -> Result<Installed, Unavailable> {
    let globalName = "swift_task_enqueueGlobal_hook"
    let mainName = "swift_task_getMainExecutor_hook"
    // A statically linked runtime (`-static-stdlib`, the static Linux SDK) exports no dynamic symbols: lockstep
    // cannot work there.
    guard let global = _Platform.globalVariable(named: globalName) else {
      return .failure(Unavailable(message: "the Swift runtime does not export \(globalName) (a static build?)"))
    }
    guard let main = _Platform.globalVariable(named: mainName) else {
      return .failure(Unavailable(message: "the Swift runtime does not export \(mainName) (a static build?)"))
    }
    let globalHook = global.assumingMemoryBound(to: EnqueueGlobalHook?.self)
    let mainHook = main.assumingMemoryBound(to: GetMainExecutorHook?.self)
    guard globalHook.pointee == nil, mainHook.pointee == nil else {
      return .failure(Unavailable(message: "another library has installed the concurrency runtime's enqueue hooks"))
    }
    _install(globalHook, mainHook)
    guard let installedGlobal = globalHook.pointee, let installedMain = mainHook.pointee else {
      return .failure(Unavailable(message: "the concurrency runtime's enqueue hooks could not be set"))
    }
    return .success(
      Installed(
        globalHook: globalHook, mainHook: mainHook, global: address(installedGlobal), main: address(installedMain)))
  }
}

// A closure literal in a free function: a thin function cannot capture, not even the metatype that a closure
// in a static method refers to.
private func _install(
  _ globalHook: UnsafeMutablePointer<_RuntimeHooks.EnqueueGlobalHook?>,
  _ mainHook: UnsafeMutablePointer<_RuntimeHooks.GetMainExecutorHook?>
) {
  // A job enqueued on the global executor from an open scope's pump goes to the scope's queue.
  globalHook.pointee = { job, original in
    if let executor = _RuntimeHooks.pumpingExecutor(), executor.isOpen {
      executor.enqueueGlobal(job)
    } else {
      original(job)
    }
  }
  // In an open scope's pump, the main actor's executor is the scope's.
  mainHook.pointee = { original in
    if let executor = _RuntimeHooks.pumpingExecutor(), executor.isOpen {
      return executor.asUnownedSerialExecutor()
    }
    return original()
  }
}
