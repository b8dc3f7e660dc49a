/// The state of one `mapLatest` iteration: the base's progress, the transform in flight, and the consumer.
///
/// Three parties report events: the task that iterates the base (`elementProduced`, `baseFinished`,
/// `baseFailed`), the transform tasks (`transformStarted`, `transformFinished`) and the consumer (`nextRequested`,
/// `cancelled`). Methods return what to do once the lock is released.
@usableFromInline
struct _MapLatestStateMachine<Output: Sendable, Failure: Error>: ~Copyable {
  @usableFromInline typealias Consumer = UnsafeContinuation<Result<Output?, Failure>, Never>

  @usableFromInline struct Running {
    /// The task iterating the base.
    @usableFromInline var baseTask: Task<Void, Never>?
    /// The generation of the newest element; only its transform's outcome is ever delivered.
    @usableFromInline var latest: UInt64 = 0
    /// The newest element's transform, while it runs; its task handle once the task has been recorded.
    @usableFromInline var inFlight: (generation: UInt64, task: Task<Void, Never>?)?
    /// A result the consumer has not taken yet (the newest one; a slow consumer gets the latest).
    @usableFromInline var pending: Output?
    /// An error to deliver after `pending`; it ends iteration.
    @usableFromInline var failure: Failure?
    @usableFromInline var baseFinished = false
    /// The consumer waiting in `next()`.
    @usableFromInline var consumer: Consumer?

    @inlinable init(consumer: Consumer?) {
      self.consumer = consumer
    }
  }

  @usableFromInline enum State {
    /// Iteration has not started: no task exists yet.
    case initial
    /// The base task runs or has finished; results may still come.
    case running(Running)
    /// Iteration ended: every later `next()` returns `nil`.
    case finished
  }

  @usableFromInline var state = State.initial

  @inlinable init() {}

  /// What the consumer's `next()` does.
  @usableFromInline enum NextAction {
    /// Start the base task, then wait.
    case startAndSuspend
    /// Wait for an event to resume the consumer.
    case suspend
    /// Resume at once with this outcome, cancelling `tasks` (when iteration ends).
    case resume(Result<Output?, Failure>, cancel: [Task<Void, Never>])
  }

  @inlinable
  mutating func nextRequested(_ consumer: Consumer) -> NextAction {
    switch state {
    case .initial:
      state = .running(Running(consumer: consumer))
      return .startAndSuspend
    case .finished:
      return .resume(.success(nil), cancel: [])
    case .running(var running):
      precondition(running.consumer == nil, "mapLatest: next() called concurrently (state: waiting)")
      if let output = running.pending {
        running.pending = nil
        state = .running(running)
        return .resume(.success(output), cancel: [])
      }
      if let failure = running.failure {
        state = .finished
        return .resume(.failure(failure), cancel: Self.tasks(of: running))
      }
      if running.baseFinished && running.inFlight == nil {
        state = .finished
        return .resume(.success(nil), cancel: [])
      }
      running.consumer = consumer
      state = .running(running)
      return .suspend
    }
  }

  /// The base task was created; it is cancelled with iteration.
  @inlinable
  mutating func baseStarted(_ task: Task<Void, Never>) -> Task<Void, Never>? {
    guard case .running(var running) = state else { return task }  // ended before it was recorded
    running.baseTask = task
    state = .running(running)
    return nil
  }

  /// The base produced an element. Returns its generation and the superseded transform to cancel, or `nil` when
  /// iteration has ended or is ending with a failure, and the base task should stop.
  @inlinable
  mutating func elementProduced() -> (generation: UInt64, supersede: Task<Void, Never>?)? {
    guard case .running(var running) = state, running.failure == nil else { return nil }
    running.latest &+= 1
    let superseded = running.inFlight?.task
    running.inFlight = (running.latest, nil)
    state = .running(running)
    return (running.latest, superseded)
  }

  /// The transform for `generation` was started as `task`. Returns the task when it must be cancelled at once
  /// (a newer element or the end of iteration came first).
  @inlinable
  mutating func transformStarted(_ task: Task<Void, Never>, generation: UInt64) -> Task<Void, Never>? {
    guard case .running(var running) = state else { return task }
    guard running.inFlight?.generation == generation else {
      // Superseded already (its task is cancelled here), or it already finished (cancelling is harmless).
      return generation == running.latest ? nil : task
    }
    running.inFlight = (generation, task)
    state = .running(running)
    return nil
  }

  /// What to do after an event from a task: whom to resume with what, and which tasks to cancel.
  @usableFromInline struct Effects {
    @usableFromInline var resume: (consumer: Consumer, outcome: Result<Output?, Failure>)?
    @usableFromInline var cancel: [Task<Void, Never>] = []

    @inlinable static var none: Effects { Effects() }

    @inlinable
    init(resume: (consumer: Consumer, outcome: Result<Output?, Failure>)? = nil, cancel: [Task<Void, Never>] = []) {
      self.resume = resume
      self.cancel = cancel
    }
  }

  /// The transform for `generation` returned or threw. Outcomes of superseded generations are discarded.
  @inlinable
  mutating func transformFinished(generation: UInt64, _ outcome: Result<Output, Failure>) -> Effects {
    guard case .running(var running) = state, generation == running.latest,
      running.inFlight?.generation == generation
    else { return .none }
    running.inFlight = nil
    switch outcome {
    case .success(let output):
      if let consumer = running.consumer {
        running.consumer = nil
        state = .running(running)
        return Effects(resume: (consumer, .success(output)))
      }
      running.pending = output
      state = .running(running)
      return .none
    case .failure(let failure):
      // The newest element's outcome is this error: an older element's result must not come before it.
      running.pending = nil
      return failed(running, failure)
    }
  }

  /// The base finished; the transform in flight may still deliver.
  @inlinable
  mutating func baseFinished() -> Effects {
    guard case .running(var running) = state else { return .none }
    running.baseFinished = true
    running.baseTask = nil
    if running.inFlight == nil, running.pending == nil, running.failure == nil, let consumer = running.consumer {
      state = .finished
      return Effects(resume: (consumer, .success(nil)))
    }
    state = .running(running)
    return .none
  }

  /// The base threw: iteration ends with `failure` after any result already computed.
  @inlinable
  mutating func baseFailed(_ failure: Failure) -> Effects {
    guard case .running(var running) = state else { return .none }
    running.baseFinished = true
    running.baseTask = nil
    return failed(running, failure)
  }

  /// The consumer's task was cancelled, or its iterator went away. Returns the consumer to resume with `nil`
  /// and the tasks to cancel.
  @inlinable
  mutating func cancelled() -> (consumer: Consumer?, cancel: [Task<Void, Never>]) {
    guard case .running(let running) = state else {
      state = .finished
      return (nil, [])
    }
    state = .finished
    return (running.consumer, Self.tasks(of: running))
  }

  /// A transform or the base failed: iteration ends with the first failure, after `pending` if there is one. From
  /// here on no element starts a transform and no transform's outcome is delivered.
  @inlinable
  mutating func failed(_ running: consuming Running, _ failure: Failure) -> Effects {
    var running = running
    let cancel = Self.tasks(of: running)
    running.baseTask = nil
    running.inFlight = nil
    running.baseFinished = true
    if running.failure != nil {
      // Already ending: this is the base or a transform reacting to that.
      state = .running(running)
      return Effects(cancel: cancel)
    }
    if running.pending == nil, let consumer = running.consumer {
      state = .finished
      return Effects(resume: (consumer, .failure(failure)), cancel: cancel)
    }
    running.failure = failure
    state = .running(running)
    return Effects(cancel: cancel)
  }

  @inlinable
  static func tasks(of running: borrowing Running) -> [Task<Void, Never>] {
    [running.baseTask, running.inFlight?.task].compactMap { $0 }
  }
}
