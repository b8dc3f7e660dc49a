/// The state of one `merge` iteration over any number of bases.
///
/// Every arity shares it. Events come from the consumer (`nextRequested`, `cancelled`) and from one
/// producer per base (`elementProduced`, `baseFinished`, `baseFailed`); each returns the side effect to run
/// once the lock is released.
///
/// Backpressure: a producer whose element the consumer is not waiting for suspends until the consumer
/// takes it, and only then asks its base for the next one — so each base has at most one element in
/// flight, as in swift-async-algorithms. When the consumer is already waiting, the element is handed over
/// at once and the producer does not suspend at all.
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

  @usableFromInline var state: State
  /// An element per base that arrived while the consumer was busy, with its suspended producer.
  @usableFromInline var pending: [(element: Element, producer: Producer)?]
  /// How many entries of `pending` are set.
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
    pending = Array(repeating: nil, count: count)
    active = count
  }

  // MARK: Producer events

  /// What a producer does after handing over an element.
  @usableFromInline
  enum ElementProducedAction {
    /// Resume the waiting consumer with the element; the producer goes on.
    case resumeConsumer(Consumer)
    /// The element waits for the consumer; the producer's continuation is stored.
    case suspend
    /// Iteration is over: resume the producer with `false`.
    case stop
  }

  /// Base `index` produced `element`; `producer` is its suspended producer.
  @inlinable
  mutating func elementProduced(_ element: Element, at index: Int, producer: Producer) -> ElementProducedAction {
    switch state {
    case .running(let consumer?):
      state = .running(nil)
      return .resumeConsumer(consumer)
    case .running(nil):
      pending[index] = (element, producer)
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

  /// What the consumer's `next()` does.
  @usableFromInline
  enum NextAction {
    /// Return this at once, after resuming `producer` (the one whose element it is) when present.
    case resume(Result<Element?, Failure>, Producer?)
    /// Wait: the consumer's continuation is stored.
    case suspend
  }

  /// The consumer asks for the next element.
  @inlinable
  mutating func nextRequested(_ consumer: Consumer) -> NextAction {
    switch state {
    case .running(nil):
      if pendingCount > 0 {
        var index = cursor
        while pending[index] == nil {
          index = index + 1 == pending.count ? 0 : index + 1
        }
        cursor = index + 1 == pending.count ? 0 : index + 1
        let (element, producer) = pending[index]!
        pending[index] = nil
        pendingCount -= 1
        return .resume(.success(element), producer)
      }
      guard active > 0 else {
        state = .finished
        return .resume(.success(nil), nil)
      }
      state = .running(consumer)
      return .suspend
    case .running(.some):
      preconditionFailure("merge: an iterator was used by two tasks at once (state: running)")
    case .failed(let error):
      state = .finished
      return .resume(.failure(error), nil)
    case .finished:
      return .resume(.success(nil), nil)
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

  /// Ends the iteration, collecting what the caller must resume, and the task to cancel unless every base
  /// finished on its own.
  @inlinable
  mutating func end(
    _ consumer: Consumer?, with result: Result<Element?, Failure>, cancellingBases: Bool = true
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
}
