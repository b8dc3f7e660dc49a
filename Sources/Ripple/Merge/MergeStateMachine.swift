/// The state of one `merge` iteration over any number of bases.
///
/// Every arity shares it. Events come from the consumer (`nextRequested`, `cancelled`) and from one
/// producer per base (`elementProduced`, `producerSuspending`, `baseFinished`, `baseFailed`); each returns
/// the side effect to run once the lock is released.
///
/// Backpressure: a producer whose element the consumer is not waiting for suspends until the consumer
/// takes it, and only then asks its base for the next one — so each base has at most one element in
/// flight, as in swift-async-algorithms. When the consumer is already waiting, the element is handed over
/// at once and the producer does not suspend at all: the steady path of a fast consumer costs one lock and
/// one resumption per element.
@usableFromInline
struct _MergeStateMachine<Element: Sendable, Failure: Error>: ~Copyable {
  @usableFromInline typealias Consumer = UnsafeContinuation<Result<Element?, Failure>, Never>
  /// Resumed with `true` to ask the base for its next element, `false` to stop.
  @usableFromInline typealias Producer = UnsafeContinuation<Bool, Never>

  /// The phase of the iteration. It is internal only so that the inlinable event methods can switch on it.
  @usableFromInline
  enum State {
    /// Bases are being consumed; the consumer waits in `next()` when a continuation is present.
    case running(Consumer?)
    /// A base threw while the consumer was not waiting; its next `next()` throws this error, once.
    case failed(Failure)
    /// Iteration is over: every `next()` returns `nil`.
    case finished
  }

  /// One base's element that waits for the consumer, and its producer.
  @usableFromInline
  struct Slot {
    /// The element, until the consumer takes it.
    @usableFromInline var pending: Element?
    /// The producer, once it suspended on `pending`.
    @usableFromInline var producer: Producer?
    /// `pending` was taken before its producer suspended: the producer goes on at once.
    @usableFromInline var released = false

    @inlinable init() {}
  }

  @usableFromInline var state: State
  @usableFromInline var slots: [Slot]
  /// How many slots hold a pending element.
  @usableFromInline var pendingCount = 0
  /// Bases that have not finished.
  @usableFromInline var active: Int
  /// Where the search for a pending element starts, rotating so that no base starves the others.
  @usableFromInline var cursor = 0
  /// The task consuming the bases, once started and until the iteration is over.
  @usableFromInline var task: Task<Void, Never>?

  @inlinable
  init(count: Int) {
    state = count == 0 ? .finished : .running(nil)
    slots = Array(repeating: Slot(), count: count)
    active = count
  }

  // MARK: Producer events

  /// What a producer does after handing over an element.
  @usableFromInline
  enum ElementProducedAction {
    /// Resume the waiting consumer with the element; the producer goes on.
    case resumeConsumer(Consumer)
    /// The element waits for the consumer: the producer suspends (see ``producerSuspending(at:_:)``).
    case suspend
    /// Iteration is over: the producer stops.
    case stop
  }

  /// Base `index` produced `element`.
  @inlinable
  mutating func elementProduced(_ element: Element, at index: Int) -> ElementProducedAction {
    switch state {
    case .running(let consumer?):
      state = .running(nil)
      return .resumeConsumer(consumer)
    case .running(nil):
      slots[index].pending = element
      pendingCount += 1
      return .suspend
    case .failed, .finished:
      return .stop
    }
  }

  /// The producer of base `index`, told to ``ElementProducedAction/suspend``, is about to suspend. Returns
  /// `nil` when it must wait for `producer` to be resumed, or at once whether it goes on.
  @inlinable
  mutating func producerSuspending(at index: Int, _ producer: Producer) -> Bool? {
    guard case .running = state else { return false }
    if slots[index].released {
      slots[index].released = false
      return true
    }
    slots[index].producer = producer
    return nil
  }

  /// What to do when a base ends.
  @usableFromInline
  enum EndAction {
    case none
    /// The iteration is over: resume the consumer (with `nil` or the error), stop the suspended producers
    /// and cancel the task when present, which cancels the remaining bases.
    case end(Consumer?, Result<Element?, Failure>, [Producer], Task<Void, Never>?)
  }

  /// Base `index` finished.
  @inlinable
  mutating func baseFinished(at index: Int) -> EndAction {
    switch state {
    case .running(let consumer):
      active -= 1
      // A producer with a pending element is suspended, so it cannot finish: when none is active, none is
      // pending either.
      guard active == 0 else { return .none }
      return end(consumer, with: .success(nil), cancellingBases: false)
    case .failed, .finished:
      return .none
    }
  }

  /// A base threw `error`.
  @inlinable
  mutating func baseFailed(_ error: Failure) -> EndAction {
    switch state {
    case .running(let consumer?):
      return end(consumer, with: .failure(error))
    case .running(nil):
      let action = end(nil, with: .success(nil))
      state = .failed(error)
      return action
    case .failed, .finished:
      return .none
    }
  }

  // MARK: Consumer events

  /// The next element if one is ready without waiting, and the producer to resume for it; `nil` otherwise.
  @inlinable
  mutating func nextReady() -> (Result<Element?, Failure>, Producer?)? {
    switch state {
    case .running(nil):
      if pendingCount > 0 {
        var index = cursor
        while slots[index].pending == nil {
          index = index + 1 == slots.count ? 0 : index + 1
        }
        cursor = index + 1 == slots.count ? 0 : index + 1
        let element = slots[index].pending.take()
        pendingCount -= 1
        let producer = slots[index].producer.take()
        if producer == nil { slots[index].released = true }
        return (.success(element), producer)
      }
      guard active == 0 else { return nil }
      state = .finished
      return (.success(nil), nil)
    case .running(.some):
      preconditionFailure("merge: an iterator was used by two tasks at once (state: running)")
    case .failed(let error):
      state = .finished
      return (.failure(error), nil)
    case .finished:
      return (.success(nil), nil)
    }
  }

  /// The consumer waits for the next element: `nil` when `consumer` was stored, or the element at once.
  @inlinable
  mutating func nextRequested(_ consumer: Consumer) -> (Result<Element?, Failure>, Producer?)? {
    if let ready = nextReady() { return ready }
    state = .running(consumer)
    return nil
  }

  /// The consuming task was cancelled or dropped its iterator: everything stops.
  @inlinable
  mutating func cancelled() -> EndAction {
    switch state {
    case .running(let consumer):
      return end(consumer, with: .success(nil))
    case .failed:
      state = .finished
      return .none
    case .finished:
      return .none
    }
  }

  /// The task consuming the bases started; returns `false` when the iteration is already over, and the
  /// caller must cancel it.
  @inlinable
  mutating func taskStarted(_ task: Task<Void, Never>) -> Bool {
    guard case .running = state else { return false }
    self.task = task
    return true
  }

  /// Ends the iteration, collecting what the caller must resume, and the task to cancel unless every base
  /// finished on its own.
  @inlinable
  mutating func end(
    _ consumer: Consumer?, with result: Result<Element?, Failure>, cancellingBases: Bool = true
  ) -> EndAction {
    state = .finished
    var producers: [Producer] = []
    for index in slots.indices {
      if let producer = slots[index].producer { producers.append(producer) }
      slots[index] = Slot()
    }
    pendingCount = 0
    defer { task = nil }
    return .end(consumer, result, producers, cancellingBases ? task : nil)
  }
}
