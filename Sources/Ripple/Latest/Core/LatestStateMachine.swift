/// The state of one iteration of a latest-wins operator (`mapLatest`, `flatMapLatest`): the base's progress, the
/// *inner* of the newest element — the work that produces its outputs, in a task of its own — and the consumer.
///
/// Three parties report events: the task that iterates the base (`started`, `elementProduced`, `baseFinished`,
/// `baseFailed`), the inner tasks (`innerStarted`, `innerProduced`, `producerSuspending`, `innerFinished`,
/// `innerFailed`) and the consumer (`nextRequested`, `cancelled`). Methods return what to do once the lock is
/// released.
///
/// Invariants:
/// - Elements are numbered (generations); only the newest one's inner may hand over an output or its error, so an
///   output never follows one of a newer element.
/// - At most one output waits for the consumer (`pending`). While it is the newest inner's, that inner goes on to
///   its next output and then suspends with it until `pending` is taken (`producer`): never a backlog, and an inner
///   that ends after its output ends without waiting for the consumer. An output of a newer inner replaces it.
/// - A waiting consumer means nothing is pending and no failure is recorded.
@usableFromInline
struct _LatestStateMachine<Output: Sendable, Failure: Error>: ~Copyable {
  @usableFromInline typealias Consumer = UnsafeContinuation<Result<Output?, Failure>, Never>
  /// Resumed with `true` when the inner may produce its next output, `false` when it must stop.
  @usableFromInline typealias Producer = UnsafeContinuation<Bool, Never>

  @usableFromInline struct Running {
    /// The task iterating the base.
    @usableFromInline var baseTask: Task<Void, Never>?
    /// The generation of the newest element; only its inner's outputs are ever delivered.
    @usableFromInline var latest: UInt64 = 0
    /// The newest element's inner, while it runs; its task handle once the task has been recorded.
    @usableFromInline var inFlight: (generation: UInt64, task: Task<Void, Never>?)?
    /// An output the consumer has not taken yet, and the generation that produced it.
    @usableFromInline var pending: (generation: UInt64, output: Output)?
    /// The newest inner's producer, suspended with its next output until `pending` is taken.
    @usableFromInline var producer: Producer?
    /// The newest inner's `pending` was taken before its producer suspended: the producer goes on at once.
    @usableFromInline var released = false
    /// An error to deliver after `pending`; it ends iteration.
    @usableFromInline var failure: Failure?
    @usableFromInline var baseFinished = false
    /// The consumer waiting in `next()`.
    @usableFromInline var consumer: Consumer?

    @inlinable init(consumer: Consumer?) {
      self.consumer = consumer
    }

    /// `pending` of `generation` was taken: its producer, when suspended behind it, offers its output again.
    @inlinable
    mutating func release(_ generation: UInt64) -> Producer? {
      // An older generation's producer was stopped when it was superseded; an inner that produced its last output
      // (`mapLatest`'s) has none.
      guard inFlight?.generation == generation else { return nil }
      if let producer = producer.take() { return producer }
      released = true
      return nil
    }
  }

  @usableFromInline enum State {
    /// Iteration has not started: no task exists yet.
    case initial
    /// The base task runs or has finished; outputs may still come.
    case running(Running)
    /// Iteration ended: every later `next()` returns `nil`.
    case finished
  }

  @usableFromInline var state = State.initial

  @inlinable init() {}

  /// What an ending iteration stops: the tasks it cancels and the producer it resumes with `false`.
  @usableFromInline struct Tasks {
    @usableFromInline var base: Task<Void, Never>?
    @usableFromInline var inner: Task<Void, Never>?
    @usableFromInline var producer: Producer?

    @inlinable init(of running: borrowing Running) {
      base = running.baseTask
      inner = running.inFlight?.task
      producer = running.producer
    }

    @inlinable func cancel() {
      base?.cancel()
      inner?.cancel()
      producer?.resume(returning: false)
    }
  }

  /// The side effect of a consumer event, an inner's end or failure, run by the storage once the lock is released.
  @usableFromInline enum Action {
    case none
    /// Return the result from `next()` without suspending, and let the producer whose output it took go on.
    case returnResult(Result<Output?, Failure>, waking: Producer?)
    /// The consumer's first `next()` waits: start the task that iterates the base.
    case start
    /// Hand the result to the consumer, and let the producer whose output it took go on.
    case resumeConsumer(Consumer, Result<Output?, Failure>, waking: Producer?)
    /// A task was started after it became useless: cancel it.
    case cancelTask(Task<Void, Never>)
    /// Stop the tasks, then resume the consumer, when present, with the result.
    case end(Consumer?, Result<Output?, Failure>, Tasks)
  }

  /// What the base task does with the element it just produced (``elementProduced()``).
  @usableFromInline enum ElementAction {
    /// Start the inner of the element as `generation`; cancel the inner it supersedes and stop that inner's
    /// suspended producer.
    case startInner(generation: UInt64, superseding: Task<Void, Never>?, stopping: Producer?)
    /// Iteration ended, or is ending with a failure: the base task stops.
    case stop
  }

  /// What an inner does with the output it just handed over (``innerProduced(_:generation:isLast:)``).
  @usableFromInline enum ProduceAction {
    /// Hand the output to the waiting consumer; the inner goes on.
    case resumeConsumer(Consumer, Result<Output?, Failure>)
    /// The output is held for the consumer; the inner goes on.
    case held
    /// The inner's previous output is still held: suspend with this one until that is taken
    /// (``producerSuspending(generation:_:)``), then offer it again.
    case suspend
    /// A newer element superseded the inner, or iteration ended: the inner stops.
    case stop
  }

  // MARK: Consumer events

  /// The consumer asks without waiting: `.returnResult` when an output or the end is ready, else `.none` (it must
  /// wait, or start the base).
  @inlinable
  mutating func nextReady() -> Action {
    guard case .running(var running) = state else {
      guard case .finished = state else { return .none }
      return .returnResult(.success(nil), waking: nil)
    }
    precondition(running.consumer == nil, "latest: next() called concurrently (state: waiting)")
    if let pending = running.pending.take() {
      let producer = running.release(pending.generation)
      state = .running(running)
      return .returnResult(.success(pending.output), waking: producer)
    }
    if let failure = running.failure {
      state = .finished
      return .end(nil, .failure(failure), Tasks(of: running))
    }
    if running.baseFinished && running.inFlight == nil {
      state = .finished
      return .returnResult(.success(nil), waking: nil)
    }
    return .none
  }

  /// The consumer waits in `next()`; `.none` means `consumer` was stored, else it is resumed at once.
  @inlinable
  mutating func nextRequested(_ consumer: Consumer) -> Action {
    if case .initial = state {
      // The base starts once the consumer waits, so that its first output goes straight to it.
      state = .running(Running(consumer: consumer))
      return .start
    }
    switch nextReady() {
    case .returnResult(let result, let producer):
      return .resumeConsumer(consumer, result, waking: producer)
    case .end(_, let result, let tasks):
      return .end(consumer, result, tasks)
    default:
      guard case .running(var running) = state else { preconditionFailure("latest: no state to wait in") }
      running.consumer = consumer
      state = .running(running)
      return .none
    }
  }

  /// The consumer's task was cancelled, or its iterator went away.
  @inlinable
  mutating func cancelled() -> Action {
    defer { state = .finished }
    guard case .running(let running) = state else { return .none }
    return .end(running.consumer, .success(nil), Tasks(of: running))
  }

  // MARK: Base events

  /// The base task was created; it is cancelled with iteration.
  @inlinable
  mutating func started(_ task: Task<Void, Never>) -> Action {
    guard case .running(var running) = state else { return .cancelTask(task) }  // ended before it was recorded
    running.baseTask = task
    state = .running(running)
    return .none
  }

  /// The base produced an element: its inner starts, superseding the one in flight, unless iteration has ended or
  /// is ending with a failure.
  @inlinable
  mutating func elementProduced() -> ElementAction {
    guard case .running(var running) = state, running.failure == nil else { return .stop }
    running.latest &+= 1
    let superseded = running.inFlight?.task
    let stopping = running.producer.take()
    running.released = false
    running.inFlight = (running.latest, nil)
    state = .running(running)
    return .startInner(generation: running.latest, superseding: superseded, stopping: stopping)
  }

  /// The base finished; the inner in flight may still deliver.
  @inlinable
  mutating func baseFinished() -> Action {
    guard case .running(var running) = state else { return .none }
    running.baseFinished = true
    running.baseTask = nil
    if running.inFlight == nil, running.pending == nil, running.failure == nil, let consumer = running.consumer {
      state = .finished
      return .resumeConsumer(consumer, .success(nil), waking: nil)
    }
    state = .running(running)
    return .none
  }

  /// The base threw: iteration ends with `failure` after any output already produced.
  @inlinable
  mutating func baseFailed(_ failure: Failure) -> Action {
    guard case .running(var running) = state else { return .none }
    running.baseFinished = true
    running.baseTask = nil
    return failed(running, failure)
  }

  // MARK: Inner events

  /// The inner for `generation` was started as `task`; it is cancelled at once when a newer element or the end of
  /// iteration came first.
  @inlinable
  mutating func innerStarted(_ task: Task<Void, Never>, generation: UInt64) -> Action {
    guard case .running(var running) = state else { return .cancelTask(task) }
    guard running.inFlight?.generation == generation else {
      // Superseded already (its task is cancelled here), or it already finished (cancelling is harmless).
      return generation == running.latest ? .none : .cancelTask(task)
    }
    running.inFlight = (generation, task)
    state = .running(running)
    return .none
  }

  /// The inner of `generation` produced `output`; `isLast` when it produces nothing after it (`mapLatest`'s one
  /// result). A superseded inner's output is discarded and its producer stops.
  @inlinable
  mutating func innerProduced(_ output: Output, generation: UInt64, isLast: Bool) -> ProduceAction {
    guard case .running(var running) = state, running.inFlight?.generation == generation else {
      return .stop
    }
    if isLast { running.inFlight = nil }
    if let consumer = running.consumer.take() {
      state = .running(running)
      return .resumeConsumer(consumer, .success(output))
    }
    if running.pending?.generation == generation {
      // This inner's previous output is still held: this one waits in the producer until that one is taken.
      return .suspend
    }
    // Whatever is pending is an older generation's: this newer output replaces it.
    running.pending = (generation, output)
    running.released = false
    state = .running(running)
    return .held
  }

  /// The producer of `generation`, told to suspend, is about to: `nil` means it waits to be resumed; otherwise
  /// resume it at once, to offer its output again (`true`) or to stop (`false`).
  @inlinable
  mutating func producerSuspending(generation: UInt64, _ producer: Producer) -> Bool? {
    guard case .running(var running) = state, running.inFlight?.generation == generation else {
      return false
    }
    if running.released {
      running.released = false
      state = .running(running)
      return true
    }
    running.producer = producer
    state = .running(running)
    return nil
  }

  /// The inner of `generation` finished. When it was the last one, iteration finishes after its outputs.
  @inlinable
  mutating func innerFinished(generation: UInt64) -> Action {
    guard case .running(var running) = state, running.inFlight?.generation == generation else { return .none }
    running.inFlight = nil
    running.released = false
    if running.baseFinished, let consumer = running.consumer {
      state = .finished
      return .resumeConsumer(consumer, .success(nil), waking: nil)
    }
    state = .running(running)
    return .none
  }

  /// The inner of `generation` threw. A superseded inner's error (its `CancellationError`, typically) is discarded.
  @inlinable
  mutating func innerFailed(_ failure: Failure, generation: UInt64) -> Action {
    guard case .running(var running) = state, running.inFlight?.generation == generation else { return .none }
    // The newest element's outcome is this error: an older element's output must not come before it. Its own
    // output, produced before it, still does.
    if running.pending?.generation != generation { running.pending = nil }
    return failed(running, failure)
  }

  /// An inner or the base failed: iteration ends with the first failure, after `pending` if there is one. From
  /// here on no element starts an inner and no inner's output is delivered.
  @inlinable
  mutating func failed(_ running: consuming Running, _ failure: Failure) -> Action {
    var running = running
    let tasks = Tasks(of: running)
    running.baseTask = nil
    running.inFlight = nil
    running.producer = nil
    running.released = false
    running.baseFinished = true
    if running.failure != nil {
      // Already ending: this is the base or an inner reacting to that.
      state = .running(running)
      return .end(nil, .failure(failure), tasks)
    }
    if running.pending == nil, let consumer = running.consumer {
      state = .finished
      return .end(consumer, .failure(failure), tasks)
    }
    running.failure = failure
    state = .running(running)
    return .end(nil, .failure(failure), tasks)
  }
}
