import InternalRippleUtilities
import Ripple
import Synchronization

/// The serial executor of one lockstep scope: every job of the scope's tasks runs here, one at a time, in the
/// order it was enqueued, and it can tell when nothing is left to run.
///
/// Jobs reach it two ways, both through ``_RuntimeHooks`` and only from its pump's own jobs, so only the
/// scope's own work is captured (``enqueue(_:)`` itself may be called from any thread: the opener entering the
/// scope, a main-actor task of the scope resumed from elsewhere, a task that outlived the scope): a job enqueued on the global executor from one of its jobs (a new
/// `Task { }`, a task group's child, a default actor's job, a hop off an actor), and a main-actor job of one
/// of its tasks, because the main actor's executor *is* this executor for them (`MainActor.assertIsolated()`
/// passes). *Quiescent* means the queue is empty and no job is running: nothing of the scope can happen any
/// more until someone outside resumes a continuation — which is what `TestClock.advance` does, one deadline
/// at a time.
///
/// The queue is drained by a block on the main dispatch queue, so the scope's jobs — main-actor ones
/// included — run on the main thread, serially with every other main-queue job of the process (other tests'
/// main-actor work). The block gives the queue back after ``_LockstepExecutor/jobsPerTurn`` jobs and
/// schedules itself again, so a busy scope does not starve them.
///
/// An executor is never freed: a task the scope started may still hop to it after the scope ended (it then
/// just keeps running that task's jobs on the main queue).
final class _LockstepExecutor: SerialExecutor, @unchecked Sendable {
  // @unchecked: the mutable state is in `state`, a `_Mutex`.

  /// One entry of the queue.
  private enum Item {
    /// A job for the global concurrent executor (it runs with no isolation, or takes its actor's).
    case global(UnownedJob)
    /// A main-actor job: it runs isolated to this executor.
    case main(UnownedJob)
    /// Work of the driver itself, such as resuming a batch of sleepers, run between jobs.
    case action(@Sendable () -> Void)
  }

  private struct State {
    /// The queue, oldest first; the pump takes all of it at once.
    var items: [Item] = []
    /// Whether a pump block is queued on the main queue or running.
    var isPumpScheduled = false
    /// Tasks waiting for quiescence.
    var waiters: [UnsafeContinuation<Void, Never>] = []
  }

  /// How many items one pump block runs, at least, before it lets other main-queue work run.
  static let jobsPerTurn = 256

  /// The executor a job for the global concurrent executor runs on: the "generic" executor, two zero words.
  private static let generic = unsafeBitCast((UInt(0), UInt(0)), to: UnownedSerialExecutor.self)

  private let state = _Mutex(State())
  /// Read by the hooks on every job the pump's jobs enqueue, so an atomic rather than part of `state`.
  private let open = Atomic<Bool>(true)

  /// Creates the executor of a new scope and keeps it forever (see the type's documentation).
  static func make() -> _LockstepExecutor {
    let executor = _LockstepExecutor()
    _ = Unmanaged.passRetained(executor)
    return executor
  }

  private init() {}

  // MARK: Executor

  /// A main-actor job of one of the scope's tasks.
  func enqueue(_ job: consuming ExecutorJob) {
    submit(.main(UnownedJob(job)))
  }

  /// A job for the global concurrent executor that one of the scope's jobs enqueued.
  func enqueueGlobal(_ job: UnownedJob) {
    submit(.global(job))
  }

  /// Runs `action` in the pump, after the jobs already queued and before any enqueued later.
  func perform(_ action: @escaping @Sendable () -> Void) {
    submit(.action(action))
  }

  func checkIsolated() {
    precondition(_RuntimeHooks.pumpingExecutor() === self, "not in the lockstep scope's pump")
  }

  // MARK: Scope

  /// Whether the scope is still open: its pump captures the jobs its jobs enqueue.
  var isOpen: Bool { open.load(ordering: .acquiring) }

  /// The scope ended: from now on, jobs enqueued from its pump go where they would without it.
  func close() {
    open.store(false, ordering: .releasing)
  }

  /// Returns once the executor has been quiescent: its queue empty and no job running.
  ///
  /// Called from a task of the scope, it returns after every other job queued before or during the wait has
  /// run (the caller's own resumption is then the only job). Waiters are resumed together, each time the
  /// queue runs dry. It suspends on the caller's isolation (`isolation`).
  func quiescent(isolation: isolated (any Actor)? = #isolation) async {
    await withUnsafeContinuation(isolation: isolation) { (continuation: UnsafeContinuation<Void, Never>) in
      let schedule = state.withLock { state in
        state.waiters.append(continuation)
        return Self.schedulePump(&state)
      }
      if schedule { _Platform.runOnMainQueue { self.pump() } }
    }
  }

  // MARK: The pump

  private func submit(_ item: Item) {
    let schedule = state.withLock { state in
      state.items.append(item)
      return Self.schedulePump(&state)
    }
    if schedule { _Platform.runOnMainQueue { self.pump() } }
  }

  /// With the lock held: `true` when no pump block is queued or running, so the caller must queue one.
  private static func schedulePump(_ state: inout State) -> Bool {
    if state.isPumpScheduled { return false }
    state.isPumpScheduled = true
    return true
  }

  /// Runs on the main queue: drains the queue, then resumes the quiescence waiters, until both are empty or
  /// the turn is over.
  ///
  /// It takes the whole queue under one lock and runs it; jobs those enqueue form the next batch, so the order
  /// is FIFO and the lock is taken once per batch rather than once per job.
  private func pump() {
    enum Next {
      case batch
      case waiters([UnsafeContinuation<Void, Never>])
      case done
    }
    let mark = _RuntimeHooks.pumpStarted(self)
    defer { _RuntimeHooks.pumpStopped(restoring: mark) }
    var batch: [Item] = []
    var ran = 0
    while true {
      let next = state.withLock { state -> Next in
        if !state.items.isEmpty {
          swap(&batch, &state.items)
          return .batch
        }
        if !state.waiters.isEmpty {
          let waiters = state.waiters
          state.waiters = []
          return .waiters(waiters)
        }
        state.isPumpScheduled = false
        return .done
      }
      switch next {
      case .batch:
        for item in batch {
          switch item {
          case .global(let job): job.runSynchronously(on: Self.generic)
          case .main(let job): job.runSynchronously(on: asUnownedSerialExecutor())
          case .action(let action): action()
          }
        }
        ran += batch.count
        batch.removeAll(keepingCapacity: true)
        if ran >= Self.jobsPerTurn {
          // The pump stays scheduled: the next block goes on where this one stopped.
          _Platform.runOnMainQueue { self.pump() }
          return
        }
      case .waiters(let waiters):
        for waiter in waiters { waiter.resume() }
      case .done:
        return
      }
    }
  }
}
