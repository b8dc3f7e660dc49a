/// The state of one `combineLatest` iteration over any number of bases.
///
/// Every arity shares it: the tuple variants store their bases' elements as ``_CombineLatestValue`` cases,
/// the collection variant stores elements as they are. Events come from the consumer (`nextRequested`,
/// `cancelled`) and from one producer per base (`elementProduced`, `baseFinished`, `baseFailed`); each
/// returns the side effect to run once the lock is released.
///
/// Backpressure: a producer that hands over an element suspends until that element has been combined into
/// a value the consumer took, and only then asks its base for the next one — so each base has at most one
/// element in flight, as in swift-async-algorithms. When the consumer is already waiting, the element is
/// combined and handed over at once and the producer does not suspend at all.
@usableFromInline
struct _CombineLatestStateMachine<Value: Sendable, Output: Sendable, Failure: Error>: ~Copyable {
  @usableFromInline typealias Consumer = UnsafeContinuation<Result<Output?, Failure>, Never>
  /// Resumed with `true` to ask the base for its next element, `false` to stop.
  @usableFromInline typealias Producer = UnsafeContinuation<Bool, Never>
  @usableFromInline typealias Combine = @Sendable ([Value?]) -> Output

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

  /// What happens to the producers suspended with an element that was not yet combined.
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
  /// An element per base that arrived while the consumer was busy, with its suspended producer.
  @usableFromInline var pending: [(value: Value, producer: Producer)?]
  /// How many entries of `pending` are set.
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

  @inlinable
  init(count: Int, combine: @escaping Combine) {
    state = count == 0 ? .finished : .running(nil)
    latest = Array(repeating: nil, count: count)
    pending = Array(repeating: nil, count: count)
    active = count
    self.combine = combine
  }

  // MARK: Producer events

  /// What a producer does after handing over an element.
  @usableFromInline
  enum ElementProducedAction {
    /// Resume the waiting consumer with this output; the producer goes on (and wakes the others in `wake`).
    case resumeConsumer(Consumer, Output, Wake)
    /// The element waits for the consumer; the producer's continuation is stored.
    case suspend
    /// Iteration is over: resume the producer with `false`.
    case stop
  }

  /// Base `index` produced `value`; `producer` is its suspended producer.
  @inlinable
  mutating func elementProduced(_ value: Value, at index: Int, producer: Producer) -> ElementProducedAction {
    switch state {
    case .running(let consumer):
      if emitted, let consumer {
        latest[index] = value
        state = .running(nil)
        return .resumeConsumer(consumer, combine(latest), .none)
      }
      if !emitted, pendingCount == pending.count - 1, let consumer {
        // The last base produced its first element: the first output takes every base's first element.
        // The caller's producer goes on without being resumed, so only the others are woken.
        latest[index] = value
        state = .running(nil)
        let wake = promoteAll()
        return .resumeConsumer(consumer, combine(latest), .all(wake))
      }
      pending[index] = (value, producer)
      pendingCount += 1
      return .suspend
    case .failed, .finished:
      return .stop
    }
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
      let neverProduced = !emitted && pending[index] == nil
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

  /// What the consumer's `next()` does.
  @usableFromInline
  enum NextAction {
    /// Return this at once, after waking the producers in `wake`.
    case resume(Result<Output?, Failure>, Wake)
    /// Wait: the consumer's continuation is stored.
    case suspend
  }

  /// The consumer asks for the next output.
  @inlinable
  mutating func nextRequested(_ consumer: Consumer) -> NextAction {
    switch state {
    case .running(nil):
      if !emitted {
        guard pendingCount == pending.count else {
          state = .running(consumer)
          return .suspend
        }
        let wake = promoteAll()
        return .resume(.success(combine(latest)), .all(wake))
      }
      if pendingCount > 0 {
        let index = nextPendingIndex()
        let (value, producer) = pending[index]!
        pending[index] = nil
        pendingCount -= 1
        latest[index] = value
        return .resume(.success(combine(latest)), .one(producer))
      }
      guard active > 0 else {
        state = .finished
        return .resume(.success(nil), .none)
      }
      state = .running(consumer)
      return .suspend
    case .running(.some):
      preconditionFailure("combineLatest: an iterator was used by two tasks at once (state: running)")
    case .failed(let error):
      state = .finished
      return .resume(.failure(error), .none)
    case .finished:
      return .resume(.success(nil), .none)
    }
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
    for index in pending.indices {
      if let entry = pending[index] { producers.append(entry.producer) }
      pending[index] = nil
    }
    pendingCount = 0
    defer { task = nil }
    return .end(consumer, result, producers, cancellingBases ? task : nil)
  }

  /// Moves every pending element into `latest` for the first output; returns the producers to wake.
  @inlinable
  mutating func promoteAll() -> [Producer] {
    var producers: [Producer] = []
    producers.reserveCapacity(pending.count)
    for index in pending.indices {
      guard let (value, producer) = pending[index] else { continue }
      latest[index] = value
      producers.append(producer)
      pending[index] = nil
    }
    pendingCount = 0
    emitted = true
    return producers
  }

  /// The next base, from `cursor` on, with a pending element; advances `cursor` past it.
  @inlinable
  mutating func nextPendingIndex() -> Int {
    var index = cursor
    while pending[index] == nil {
      index = index + 1 == pending.count ? 0 : index + 1
    }
    cursor = index + 1 == pending.count ? 0 : index + 1
    return index
  }
}
