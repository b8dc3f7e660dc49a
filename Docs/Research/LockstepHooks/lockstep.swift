// Prototype: a test-scoped lockstep executor built on the Swift runtime's hooks (Swift 6.3.1, Linux).
//
// Inside `lockstep(clock) { ... }`:
//  * `swift_task_enqueueGlobal_hook` captures every global-executor job that belongs to the scope (plain
//    `Task {}` without isolation, `Task.detached`, task-group children, `async let`, default-actor processing
//    jobs, hops off an actor) into one FIFO;
//  * `swift_task_getMainExecutor_hook` makes the main actor *resolve to the scope's serial executor* for tasks
//    of the scope, so their main-actor jobs are enqueued on it too (the main-executor enqueue hook is dead code
//    on 6.2+: `DispatchMainExecutor.enqueue` calls dispatch directly, see hooktrace.swift);
//  * the FIFO is drained by one pump block at a time on the real main dispatch queue, so scope jobs are
//    serialised with all other main-queue work in the process (other tests' main-actor jobs) and
//    `dispatch_assert_queue(main)`-style checks pass;
//  * `quiescent()` returns once the FIFO is empty and nothing of the scope is running.
// A job "belongs to the scope" when it is enqueued from inside the pump, or it is a task that the pump has run
// (its job pointer is the task pointer), or it is the task that opened the scope.
//
// Build: swiftc -parse-as-library -swift-version 6 -O lockstep.swift -o lockstep
// Run:   ./lockstep [runs] [mode]   mode: lockstep (default) | unhooked | inline | probes

#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif
import Dispatch
import Observation
import Synchronization

// MARK: - Runtime hooks

typealias GlobalOriginal = @convention(thin) (UnownedJob) -> Void
typealias GlobalHook = @convention(thin) (UnownedJob, GlobalOriginal) -> Void
typealias GetMainOriginal = @convention(thin) () -> UnownedSerialExecutor
typealias GetMainHook = @convention(thin) (GetMainOriginal) -> UnownedSerialExecutor

func hookVariable<T>(_ name: String, _: T.Type) -> UnsafeMutablePointer<T?> {
  guard let address = dlsym(dlopen(nil, RTLD_NOW), name) else { fatalError("\(name) is not exported") }
  return address.assumingMemoryBound(to: T?.self)
}
nonisolated(unsafe) let enqueueGlobalHook = hookVariable("swift_task_enqueueGlobal_hook", GlobalHook.self)
nonisolated(unsafe) let getMainExecutorHook = hookVariable("swift_task_getMainExecutor_hook", GetMainHook.self)

/// The generic executor (no isolation), as the global executor passes it to `swift_job_run`.
let genericExecutor = unsafeBitCast((UInt(0), UInt(0)), to: UnownedSerialExecutor.self)

func address(_ job: UnownedJob) -> UInt { unsafeBitCast(job, to: UInt.self) }
func currentTaskAddress() -> UInt? {
  withUnsafeCurrentTask { task in task.map { unsafeBitCast($0, to: UInt.self) } }
}

func say(_ s: String) { var l = s + "\n"; l.withUTF8 { _ = write(2, $0.baseAddress, $0.count) } }

// MARK: - The scope's executor

final class LockstepScope: SerialExecutor, @unchecked Sendable {
  enum Item {
    case generic(UnownedJob)
    case isolated(UnownedJob)
    case action(@Sendable () -> Void)
  }
  struct State {
    var items: [Item] = []
    var head = 0
    var pumpScheduled = false
    var pumpThread: pthread_t? = nil
    var waiters: [UnsafeContinuation<Void, Never>] = []
    var members: Set<UInt> = []
    var open = true
    var escaped = 0  // jobs run by the pump on a thread it did not expect (never, in practice)
  }
  let state = Mutex(State())

  init(opener: UInt?) {
    if let opener { state.withLock { _ = $0.members.insert(opener) } }
  }

  // Main-actor jobs of the scope arrive here (the main actor resolves to this executor for them).
  func enqueue(_ job: consuming ExecutorJob) { submit(.isolated(UnownedJob(job))) }

  func perform(_ action: @escaping @Sendable () -> Void) { submit(.action(action)) }

  func submit(_ item: Item) {
    switch item { case .generic: stats.withLock { $0.generic += 1 }; case .isolated: stats.withLock { $0.isolated += 1 }; case .action: break }
    if inlineMode, case .isolated(let job) = item, state.withLock({ s in s.pumpThread.map { pthread_equal($0, pthread_self()) != 0 } ?? false }) {
      // Q4 experiment: run the job synchronously inside the enqueue, on the enqueuer's stack.
      inlineRuns.add(1, ordering: .relaxed)
      job.runSynchronously(on: asUnownedSerialExecutor())
      return
    }
    let schedule = state.withLock { s -> Bool in
      s.items.append(item)
      if s.pumpScheduled { return false }
      s.pumpScheduled = true
      return true
    }
    if schedule { DispatchQueue.main.async { self.pump() } }
  }

  /// With the hooks: whether a job enqueued now, from this thread, belongs to the scope.
  func claims(_ job: UnownedJob?, task: UInt?) -> Bool {
    state.withLock { s in
      guard s.open else { return false }
      if let thread = s.pumpThread, pthread_equal(thread, pthread_self()) != 0 { return true }
      if let job, s.members.contains(address(job)) { return true }
      if let task, s.members.contains(task) { return true }
      return false
    }
  }

  func quiescent() async {
    await withUnsafeContinuation { (c: UnsafeContinuation<Void, Never>) in
      let schedule = state.withLock { s -> Bool in
        s.waiters.append(c)
        if s.pumpScheduled { return false }
        s.pumpScheduled = true
        return true
      }
      if schedule { DispatchQueue.main.async { self.pump() } }
    }
  }

  /// Runs on the main dispatch queue: drains the FIFO, then resumes the quiescence waiters, until both are empty.
  private func pump() {
    state.withLock { $0.pumpThread = pthread_self() }
    while true {
      enum Next { case item(Item), waiters([UnsafeContinuation<Void, Never>]), done }
      let next = state.withLock { s -> Next in
        if s.head < s.items.count {
          let item = s.items[s.head]
          s.head += 1
          if s.head == s.items.count { s.items.removeAll(keepingCapacity: true); s.head = 0 }
          if case .generic(let j) = item { s.members.insert(address(j)) }
          if case .isolated(let j) = item { s.members.insert(address(j)) }
          return .item(item)
        }
        if !s.waiters.isEmpty { defer { s.waiters.removeAll() }; return .waiters(s.waiters) }
        s.pumpScheduled = false
        s.pumpThread = nil
        return .done
      }
      switch next {
      case .item(.generic(let job)): job.runSynchronously(on: genericExecutor)
      case .item(.isolated(let job)): job.runSynchronously(on: asUnownedSerialExecutor())
      case .item(.action(let action)): action()
      case .waiters(let ws): for w in ws { w.resume() }
      case .done: return
      }
    }
  }

  func close() { state.withLock { $0.open = false; $0.members.removeAll() } }
}

nonisolated(unsafe) var inlineMode = false
let inlineRuns = Atomic<Int>(0)
let stats = Mutex<(generic: Int, isolated: Int)>((0, 0))

// The one active scope, read by the hooks.
let activeScope = Mutex<LockstepScope?>(nil)

func installHooks() {
  enqueueGlobalHook.pointee = { job, original in
    if let scope = activeScope.withLock({ $0 }), scope.claims(job, task: nil) {
      scope.submit(.generic(job))
    } else {
      original(job)
    }
  }
  getMainExecutorHook.pointee = { original in
    if let scope = activeScope.withLock({ $0 }), scope.claims(nil, task: currentTaskAddress()) {
      return scope.asUnownedSerialExecutor()
    }
    return original()
  }
}

func removeHooks() {
  enqueueGlobalHook.pointee = nil
  getMainExecutorHook.pointee = nil
}

// MARK: - A minimal virtual clock

final class VirtualClock: @unchecked Sendable {
  struct Sleeper { let id: Int; let deadline: Duration; let c: UnsafeContinuation<Void, any Error> }
  struct State { var now: Duration = .zero; var sleepers: [Sleeper] = []; var nextID = 0; var scope: LockstepScope? }
  let state = Mutex(State())

  var now: Duration { state.withLock { $0.now } }

  func sleep(for d: Duration) async throws {
    let id = state.withLock { s -> Int in s.nextID += 1; return s.nextID }
    try await withTaskCancellationHandler {
      try await withUnsafeThrowingContinuation { (c: UnsafeContinuation<Void, any Error>) in
        let cancelled = state.withLock { s -> Bool in
          if Task.isCancelled { return true }
          s.sleepers.append(Sleeper(id: id, deadline: s.now + d, c: c))
          return false
        }
        if cancelled { c.resume(throwing: CancellationError()) }
      }
    } onCancel: {
      let c = state.withLock { s -> UnsafeContinuation<Void, any Error>? in
        guard let i = s.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
        return s.sleepers.remove(at: i).c
      }
      c?.resume(throwing: CancellationError())
    }
  }

  /// Moves to each due deadline in order; in a scope, waits for quiescence before each step and at the end.
  func advance(by d: Duration) async {
    let target = now + d
    while true {
      let scope = state.withLock { $0.scope }
      if let scope { await scope.quiescent() }
      let due = state.withLock { s -> [Sleeper] in
        guard let next = s.sleepers.filter({ $0.deadline <= target }).map(\.deadline).min() else {
          s.now = max(s.now, target); return []
        }
        s.now = next
        let due = s.sleepers.filter { $0.deadline == next }
        s.sleepers.removeAll { $0.deadline == next }
        return due
      }
      if due.isEmpty { return }
      if let scope { scope.perform { for s in due { s.c.resume() } } } else { for s in due { s.c.resume() } }
    }
  }
}

/// Runs `body` with the caller's isolation, every job of the scope on the lockstep executor.
func lockstep<T>(
  _ clock: VirtualClock, isolation: isolated (any Actor)? = #isolation, _ body: () async -> T
) async -> T {
  let scope = LockstepScope(opener: currentTaskAddress())
  // Immortal: tasks of the scope remember it as their main-actor executor (unowned) and may resume on it
  // after the scope ends (then it just keeps running their jobs on the main queue).
  _ = Unmanaged.passRetained(scope)
  activeScope.withLock { $0 = scope }
  clock.state.withLock { $0.scope = scope }
  installHooks()
  // Hop through the scope so the body starts on it (a main-actor caller resumes on the scope's executor).
  await scope.quiescent()
  let value = await body()
  await scope.quiescent()
  removeHooks()
  clock.state.withLock { $0.scope = nil }
  activeScope.withLock { $0 = nil }
  scope.close()
  return value
}

// MARK: - The code under test, written as for production

actor Normalizer {
  var calls = 0
  func normalize(_ s: String) -> String { calls += 1; return s }
}

@MainActor @Observable final class SearchModel {
  var query = ""
  private(set) var results: [String] = []
  private(set) var log: [String] = []

  init(clock: VirtualClock) {
    let normalizer = Normalizer()
    var last = query
    // A plain `Task {}`: inherits the main actor; nothing in it knows about tests.
    Task { [weak self] in
      var pending: Task<Void, Never>?
      while let model = self {
        let current = model.query
        if current != last {
          last = current
          pending?.cancel()
          // A nested plain Task, a default actor, a detached task and a task group on the way to the write.
          pending = Task { [weak self] in
            do { try await clock.sleep(for: .milliseconds(300)) } catch { return }
            let normal = await normalizer.normalize(current)
            let count = await Task.detached { normal.count }.value
            let parts = await withTaskGroup(of: String.self) { group in
              group.addTask { normal }
              var out: [String] = []
              for await p in group { out.append(p) }
              return out
            }
            self?.results = parts
            self?.log.append("\(normal):\(count)@\(clock.now)")
          }
        }
        await model.nextChange()
      }
    }
  }

  private func nextChange() async {
    await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
      withObservationTracking { _ = self.query } onChange: { c.resume() }
    }
  }
}

// MARK: - The "test"

@MainActor func debouncesTyping(hooked: Bool) async -> String? {
  let clock = VirtualClock()
  let body: @MainActor () async -> String? = {
    let model = SearchModel(clock: clock)
    model.query = "a"
    await clock.advance(by: .milliseconds(100))
    model.query = "ab"
    await clock.advance(by: .milliseconds(299))
    if model.results != [] { return "at 399 ms: \(model.results)" }
    await clock.advance(by: .milliseconds(1))
    if model.results != ["ab"] { return "at 400 ms: \(model.results)" }
    if model.log != ["ab:2@0.4 seconds"] { return "log \(model.log)" }
    if hooked {
      MainActor.assertIsolated()
      dispatchPrecondition(condition: .onQueue(.main))  // the body resumed on the pump, on the main queue
    }
    return nil
  }
  return hooked ? await lockstep(clock, body) : await body()
}

// MARK: - Probes: what escapes the scope

final class PThreadExecutor: TaskExecutor, SerialExecutor, @unchecked Sendable {
  func enqueue(_ job: consuming ExecutorJob) {
    let j = UnownedJob(job)
    let box = Unmanaged.passRetained(Closure { j.runSynchronously(isolatedTo: self.asUnownedSerialExecutor(), taskExecutor: self.asUnownedTaskExecutor()) })
    var t = pthread_t()
    pthread_create(&t, nil, { p in Unmanaged<Closure>.fromOpaque(p!).takeRetainedValue().f(); return nil }, box.toOpaque())
    pthread_detach(t)
  }
}
final class Closure { let f: () -> Void; init(_ f: @escaping () -> Void) { self.f = f } }
actor CustomExecutorActor {
  let executor = PThreadExecutor()
  nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
  func work() {}
}

@MainActor final class Flag { var set = false }
@MainActor final class OrderBox { var items: [String] = [] }

@MainActor func probe(_ name: String, _ start: @escaping @MainActor (Flag) -> Void) async -> Bool {
  let clock = VirtualClock()
  return await lockstep(clock) {
    let flag = Flag()
    start(flag)
    await clock.advance(by: .zero)  // quiescent: has everything the probe started finished?
    return flag.set
  }
}

@MainActor func runProbes() async {
  let cases: [(String, @MainActor (Flag) -> Void)] = [
    ("plain Task {} (main actor)", { f in Task { f.set = true } }),
    ("Task.detached + hop back to main", { f in Task.detached { await MainActor.run { f.set = true } } }),
    ("default actor", { f in Task { _ = await Normalizer().normalize(""); f.set = true } }),
    ("task group", { f in Task { await withTaskGroup(of: Void.self) { g in g.addTask {}; g.addTask {} }; f.set = true } }),
    ("Task.sleep(ContinuousClock, 1 ms)", { f in Task { try? await Task.sleep(for: .milliseconds(1)); f.set = true } }),
    ("task executor preference", { f in Task { await Task(executorPreference: PThreadExecutor()) { usleep(1000) }.value; f.set = true } }),
    ("actor with a custom executor", { f in Task { await CustomExecutorActor().work(); f.set = true } }),
    ("DispatchQueue.global().async + continuation", { f in
      Task { await withCheckedContinuation { c in DispatchQueue.global().async { usleep(1000); c.resume() } }; f.set = true } }),
  ]
  for (name, start) in cases {
    var passes = 0
    for _ in 0..<50 where await probe(name, start) { passes += 1 }
    say("  \(name): effect visible at quiescence \(passes)/50")
  }
}

@main struct Main {
  static func main() async {
    let args = CommandLine.arguments
    let runs = args.count > 1 ? Int(args[1]) ?? 200 : 200
    let mode = args.count > 2 ? args[2] : "lockstep"
    inlineMode = mode == "inline"
    if mode == "probes" { await runProbes(); return }
    if mode == "order" || mode == "inline-order" {
      // Q4: a main-actor job must not run on its enqueuer's stack: `Task {}` may not start before its creator suspends.
      inlineMode = mode == "inline-order"
      let clock = VirtualClock()
      let order = await lockstep(clock) { @MainActor () async -> [String] in
        var order: [String] = []
        let box = OrderBox()
        Task { box.items.append("task body") }
        box.items.append("creator, after Task {}")
        await clock.advance(by: .zero)
        order = box.items
        return order
      }
      say("\(mode): \(order)  inline runs: \(inlineRuns.load(ordering: .relaxed))")
      return
    }
    var failures: [String] = []
    for _ in 0..<runs {
      if let failure = await debouncesTyping(hooked: mode != "unhooked") { failures.append(failure) }
    }
    say("\(mode): \(runs - failures.count)/\(runs) passed; jobs captured per run: \(stats.withLock { $0 }.generic / runs) global, \(stats.withLock { $0 }.isolated / runs) main-actor")
    if inlineMode { say("  jobs run inline inside their enqueue: \(inlineRuns.load(ordering: .relaxed))") }
    for f in Set(failures).prefix(5) { say("  failure: \(f)") }
  }
}
