/// The state of one `combineLatest` iteration over any number of bases.
///
/// Every arity shares it: the tuple variants store their bases' elements as ``_CombineLatestValue`` cases,
/// the collection variant stores elements as they are. Events come from the consumer (`nextRequested`,
/// `cancelled`) and from one producer per base (`elementProduced`, `producerSuspending`, `baseFinished`,
/// `baseFailed`); each returns the side effect to run once the lock is released.
///
/// Backpressure: a producer whose element cannot be combined at once suspends until that element has been
/// combined into an output the consumer took, and only then asks its base for the next one — so each base
/// has at most one element in flight. (swift-async-algorithms keeps asking every base until its first output, so
/// a burst before it is folded into that output; here the first output takes each base's first element.) When
/// the consumer is already waiting, the element is combined and handed over at once and the producer does not
/// suspend at all: the steady path of a fast consumer costs one lock and one resumption per element.
@usableFromInline
struct _CombineLatestStateMachine<Value: Sendable, Output: Sendable, Failure: Error>: ~Copyable {
  @usableFromInline typealias Consumer = UnsafeContinuation<Result<Output?, Failure>, Never>
  /// Resumed with `true` to ask the base for its next element, `false` to stop.
  @usableFromInline typealias Producer = UnsafeContinuation<Bool, Never>
  /// Builds an output from the latest elements. It gets the previous output to update in place, and the
  /// one base that changed since it (`nil`: several did) — so that an array output reuses its buffer
  /// when the consumer has let go of the previous one, instead of allocating one per element.
  @usableFromInline typealias Combine =
    @Sendable (_ previous: inout Output?, _ latest: [Value?], _ changed: Int?) -> Output

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

  /// One base's element that waits to be combined, and its producer.
  @usableFromInline
  struct Slot {
    /// The element, until it is combined.
    @usableFromInline var pending: Value?
    /// The producer, once it suspended on `pending`.
    @usableFromInline var producer: Producer?
    /// `pending` was combined before its producer suspended: the producer goes on at once.
    @usableFromInline var released = false

    @inlinable init() {}
  }

  /// The producers to resume because their elements were combined.
  @usableFromInline
  enum Wake {
    case none
    case one(Producer)
    case all([Producer])

    @inlinable func resume() {
      switch self {
      case .none: break
      case .one(let producer): producer.resume(returning: true)
      case .all(let producers): for producer in producers { producer.resume(returning: true) }
      }
    }
  }

  @usableFromInline var state: State
  /// The latest element of each base, combined into every output; all non-`nil` once `emitted`.
  @usableFromInline var latest: [Value?]
  @usableFromInline var slots: [Slot]
  /// How many slots hold a pending element.
  @usableFromInline var pendingCount = 0
  /// Bases that have not finished.
  @usableFromInline var active: Int
  /// Whether the first output, which takes one element of every base, was delivered.
  @usableFromInline var emitted = false
  /// Where the search for a pending element starts, rotating so that no base starves the others.
  @usableFromInline var cursor = 0
  /// The task consuming the bases, once started and until the iteration is over.
  @usableFromInline var task: Task<Void, Never>?
  @usableFromInline let combine: Combine
  /// The last output, for ``combine`` to update.
  @usableFromInline var output: Output?

  @inlinable
  init(count: Int, combine: @escaping Combine) {
    state = count == 0 ? .finished : .running(nil)
    latest = Array(repeating: nil, count: count)
    slots = Array(repeating: Slot(), count: count)
    active = count
    self.combine = combine
  }

  // MARK: Producer events

  /// What a producer does after handing over an element.
  @usableFromInline
  enum ElementProducedAction {
    /// Resume the waiting consumer with this output and wake `wake`; the producer goes on.
    case resumeConsumer(Consumer, Output, Wake)
    /// The element waits for the consumer: the producer suspends (see ``producerSuspending(at:_:)``).
    case suspend
    /// Iteration is over: the producer stops.
    case stop
  }

  /// Base `index` produced `value`.
  @inlinable
  mutating func elementProduced(_ value: Value, at index: Int) -> ElementProducedAction {
    switch state {
    case .running(let consumer):
      if let consumer {
        if emitted {
          latest[index] = value
          state = .running(nil)
          return .resumeConsumer(consumer, combine(&output, latest, index), .none)
        }
        if pendingCount == slots.count - 1 {
          // The last base produced its first element: the first output takes every base's first element.
          latest[index] = value
          state = .running(nil)
          let wake = promoteAll()
          return .resumeConsumer(consumer, combine(&output, latest, nil), .all(wake))
        }
      }
      slots[index].pending = value
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
    case end(Consumer?, Result<Output?, Failure>, [Producer], Task<Void, Never>?)
  }

  /// Base `index` finished.
  @inlinable
  mutating func baseFinished(at index: Int) -> EndAction {
    switch state {
    case .running(let consumer):
      active -= 1
      let neverProduced = !emitted && slots[index].pending == nil
      // A producer with a pending element is suspended, so it cannot finish: when none is active, none is
      // pending either.
      guard neverProduced || active == 0 else { return .none }
      return end(consumer, with: .success(nil), cancellingBases: neverProduced)
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

  /// The next output if one is ready without waiting, and the producers to wake for it; `nil` otherwise.
  @inlinable
  mutating func nextReady() -> (Result<Output?, Failure>, Wake)? {
    switch state {
    case .running(nil):
      if !emitted {
        guard pendingCount == slots.count else { return nil }
        let wake = promoteAll()
        return (.success(combine(&output, latest, nil)), .all(wake))
      }
      if pendingCount > 0 {
        let index = nextPendingIndex()
        latest[index] = slots[index].pending.take()
        pendingCount -= 1
        return (.success(combine(&output, latest, index)), release(index))
      }
      guard active == 0 else { return nil }
      state = .finished
      return (.success(nil), .none)
    case .running(.some):
      preconditionFailure("combineLatest: an iterator was used by two tasks at once (state: running)")
    case .failed(let error):
      state = .finished
      return (.failure(error), .none)
    case .finished:
      return (.success(nil), .none)
    }
  }

  /// The consumer waits for the next output: `nil` when `consumer` was stored, or the output at once.
  @inlinable
  mutating func nextRequested(_ consumer: Consumer) -> (Result<Output?, Failure>, Wake)? {
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

  // MARK: Helpers

  /// Ends the iteration, collecting what the caller must resume, and the task to cancel unless every base
  /// finished on its own.
  @inlinable
  mutating func end(
    _ consumer: Consumer?, with result: Result<Output?, Failure>, cancellingBases: Bool = true
  ) -> EndAction {
    state = .finished
    var producers: [Producer] = []
    for index in slots.indices {
      if let producer = slots[index].producer { producers.append(producer) }
      slots[index] = Slot()
    }
    pendingCount = 0
    output = nil
    defer { task = nil }
    return .end(consumer, result, producers, cancellingBases ? task : nil)
  }

  /// Lets the producer of base `index`, whose element was just combined, go on.
  @inlinable
  mutating func release(_ index: Int) -> Wake {
    guard let producer = slots[index].producer.take() else {
      slots[index].released = true
      return .none
    }
    return .one(producer)
  }

  /// Moves every pending element into `latest` for the first output; returns the producers to wake.
  @inlinable
  mutating func promoteAll() -> [Producer] {
    var producers: [Producer] = []
    producers.reserveCapacity(slots.count)
    for index in slots.indices {
      guard let value = slots[index].pending.take() else { continue }
      latest[index] = value
      if case .one(let producer) = release(index) { producers.append(producer) }
    }
    pendingCount = 0
    emitted = true
    return producers
  }

  /// The next base, from `cursor` on, with a pending element; advances `cursor` past it.
  @inlinable
  mutating func nextPendingIndex() -> Int {
    var index = cursor
    while slots[index].pending == nil {
      index = index + 1 == slots.count ? 0 : index + 1
    }
    cursor = index + 1 == slots.count ? 0 : index + 1
    return index
  }
}
