import InternalRippleUtilities

/// The state of one iteration of a fan-in operator over any number of bases; its ``_FanInPolicy`` decides when an
/// output is ready and what it holds.
///
/// Events come from the consumer (`nextReady`, `nextRequested`, `cancelled`), from the task the first `next()`
/// starts (`started`), and from one producer per base (`elementsProduced`, `producerSuspending`, `baseFinished`,
/// `baseFailed`). Consumer events and ends return the ``Action`` the storage runs once the lock is released; a
/// producer's hand-over returns the ``ProduceAction`` it acts on itself.
///
/// Backpressure: a producer whose element the policy cannot use at once suspends until it is used, and only then
/// asks its base for the next one — so each base has at most one element in flight, or, from a base whose iterator
/// already held several, the batch it handed over. When the consumer already
/// waits and the policy makes an output of the element, the producer does not suspend at all: the steady path of
/// a fast consumer costs one lock and one resumption per element.
///
/// Ends: an error from any base cancels the others and is thrown once, to the waiting consumer or by the next
/// `next()`; the iteration also ends when every base has finished, or when the policy says a base's end ends it.
@usableFromInline
struct _FanInStateMachine<Policy: _FanInPolicy, Failure: Error>: ~Copyable {
  @usableFromInline typealias Value = Policy.Value
  @usableFromInline typealias Output = Policy.Output
  @usableFromInline typealias Consumer = UnsafeContinuation<Result<Output?, Failure>, Never>

  /// The phase of the iteration. Internal only so that the inlinable event methods, which specialize in client
  /// modules, can switch on it.
  @usableFromInline
  enum State {
    /// `next()` was never called: no task runs. The first `next()` registers its consumer, then starts the task.
    case initial
    /// Bases are being consumed; the consumer waits in `next()` when a continuation is present.
    case running(Consumer?)
    /// A base threw while the consumer was not waiting; its next `next()` throws this error, once.
    case failed(Failure)
    /// Iteration is over: every `next()` returns `nil`.
    case finished
  }

  /// The side effect of a consumer event or an end, run by the storage once the lock is released.
  ///
  /// No case holds a reference but the results, so that for trivial outputs an action is trivial to copy.
  @usableFromInline
  enum Action {
    case none
    /// Return the result from `next()` without suspending, and wake the producers.
    case returnResult(Result<Output?, Failure>, _FanInWake)
    /// Hand the result to the waiting consumer, and wake the producers.
    case resumeConsumer(Consumer, Result<Output?, Failure>, _FanInWake)
    /// The consumer's first `next()` waits: start the task consuming the bases (``takeRun()``, ``started(_:)``).
    case start
    /// The task consuming the bases started after the iteration ended: cancel it (``takeTask()``).
    case cancelTask
    /// Iteration ends: cancel the task when told to (which cancels the remaining bases), stop the suspended
    /// producers, and resume the consumer when present with the result.
    case end(Consumer?, Result<Output?, Failure>, stopping: _FanInWake, cancelTask: Bool)
  }

  /// What a producer does after handing elements over (``elementsProduced(_:then:at:)``): the producer acts on it
  /// itself, so that the consumer's ``Action`` holds no producer-only case.
  @usableFromInline
  enum ProduceAction {
    /// The policy used or kept everything: ask the base for the next element.
    case produceMore
    /// Hand the result to the waiting consumer and wake the producers, then ask the base for the next element.
    case resumeConsumer(Consumer, Result<Output?, Failure>, _FanInWake)
    /// Suspend until what was handed over is used (``producerSuspending(at:_:)``).
    case suspend
    /// Hand the result to the waiting consumer and wake the producers, then suspend until the rest of the batch is
    /// used.
    case resumeConsumerThenSuspend(Consumer, Result<Output?, Failure>, _FanInWake)
    /// Iteration is over: stop.
    case stop
  }

  @usableFromInline var state: State
  @usableFromInline var slots: _FanInSlots<Value>
  @usableFromInline var policy: Policy
  /// Bases that have not finished.
  @usableFromInline var active: Int
  /// Consumes the bases, until the first `next()` takes it to start the task; `nil` without bases.
  @usableFromInline var run: _FanInStorage<Policy, Failure>.Run?
  /// The task consuming the bases, once started and until an ending action takes it.
  @usableFromInline var task: Task<Void, Never>?
  /// The operator's name, for precondition messages.
  @usableFromInline let name: StaticString

  @inlinable
  init(count: Int, policy: Policy, name: StaticString, run: @escaping _FanInStorage<Policy, Failure>.Run) {
    state = count == 0 ? .finished : .initial
    self.run = count == 0 ? nil : run
    slots = _FanInSlots(count: count)
    self.policy = policy
    active = count
    self.name = name
  }

  // MARK: Producer events

  /// Base `index` produced `value`, and then `rest`: what its iterator already held (a channel's),
  /// emptied by the call. Each element is taken as if it came alone, in order.
  @inlinable
  mutating func elementsProduced(_ value: Value, then rest: inout _Queue<Value>, at index: Int) -> ProduceAction {
    guard case .running(let consumer) = state else { return .stop }
    var value = value
    while policy.absorbs(value, at: index, slots: slots) {
      guard let next = rest.popFirst() else { return .produceMore }
      value = next
    }
    if let consumer, let (output, wake) = policy.output(for: value, at: index, slots: &slots) {
      state = .running(nil)
      guard let next = rest.popFirst() else { return .resumeConsumer(consumer, .success(output), wake) }
      slots.hold(next, then: &rest, at: index)
      return .resumeConsumerThenSuspend(consumer, .success(output), wake)
    }
    slots.hold(value, then: &rest, at: index)
    return .suspend
  }

  /// The producer of base `index`, told to suspend, is about to: `nil` means it waits to be resumed; otherwise
  /// resume it at once, to go on (`true`) or to stop (`false`).
  @inlinable
  mutating func producerSuspending(at index: Int, _ producer: _FanInProducer) -> Bool? {
    guard case .running = state else { return false }
    return slots.producerSuspending(at: index, producer)
  }

  /// Base `index` finished.
  @inlinable
  mutating func baseFinished(at index: Int) -> Action {
    guard case .running(let consumer) = state else { return .none }
    active -= 1
    if policy.endsIteration(whenBaseFinishes: index, slots: slots) {
      return end(consumer, with: .success(nil), cancellingBases: true)
    }
    // A producer with a pending element is suspended, so it cannot finish: when none is active, none is pending.
    guard active == 0 else { return .none }
    return end(consumer, with: .success(nil), cancellingBases: false)
  }

  /// A base threw `error`.
  @inlinable
  mutating func baseFailed(_ error: Failure) -> Action {
    switch state {
    case .running(let consumer?):
      return end(consumer, with: .failure(error))
    case .running(nil):
      let action = end(nil, with: .success(nil))
      state = .failed(error)
      return action
    case .failed, .finished:
      return .none
    case .initial:
      preconditionFailure("\(name): a base failed before the iteration started (state: initial)")
    }
  }

  // MARK: Consumer events

  /// The consumer asks without waiting: `.returnResult` when an output (or the end) is ready, else `.none`.
  @inlinable
  mutating func nextReady() -> Action {
    switch state {
    case .initial:
      return .none
    case .running(nil):
      if let (output, wake) = policy.output(from: &slots) {
        return .returnResult(.success(output), wake)
      }
      guard active == 0 else { return .none }
      state = .finished
      return .returnResult(.success(nil), .none)
    case .running(.some):
      preconditionFailure("\(name): an iterator was used by two tasks at once (state: running)")
    case .failed(let error):
      state = .finished
      return .returnResult(.failure(error), .none)
    case .finished:
      return .returnResult(.success(nil), .none)
    }
  }

  /// The consumer waits for the next output: `.none` when `consumer` was stored, `.start` when it was stored by
  /// the first `next()` (so that the bases' first elements find it waiting), else it is resumed at once.
  @inlinable
  mutating func nextRequested(_ consumer: Consumer) -> Action {
    if case .initial = state {
      state = .running(consumer)
      return .start
    }
    guard case .returnResult(let result, let wake) = nextReady() else {
      state = .running(consumer)
      return .none
    }
    return .resumeConsumer(consumer, result, wake)
  }

  /// The consuming task was cancelled or dropped its iterator: everything stops.
  @inlinable
  mutating func cancelled() -> Action {
    switch state {
    case .initial:
      state = .finished
      return .none
    case .running(let consumer):
      return end(consumer, with: .success(nil))
    case .failed:
      state = .finished
      return .none
    case .finished:
      return .none
    }
  }

  /// The task consuming the bases started.
  @inlinable
  mutating func started(_ task: Task<Void, Never>) -> Action {
    self.task = task
    guard case .running = state else { return .cancelTask }
    return .none
  }

  /// Ends the iteration, collecting what the caller must resume, and the task to cancel unless every base
  /// finished on its own.
  @inlinable
  mutating func end(
    _ consumer: Consumer?, with result: Result<Output?, Failure>, cancellingBases: Bool = true
  ) -> Action {
    state = .finished
    let producers = slots.removeAll()
    policy.reset()
    if !cancellingBases { task = nil }
    return .end(consumer, result, stopping: producers, cancelTask: cancellingBases)
  }

  /// What consumes the bases, for the task the first `next()` starts; taken once.
  @inlinable
  mutating func takeRun() -> _FanInStorage<Policy, Failure>.Run? {
    run.take()
  }

  /// The task, for an ending action to cancel; taken once.
  @inlinable
  mutating func takeTask() -> Task<Void, Never>? {
    task.take()
  }
}
