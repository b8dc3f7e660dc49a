import InternalRippleUtilities

/// The state of one channel: the senders waiting for a consumer, the consumers waiting for a sender, and whether
/// the channel has ended.
///
/// Senders report `sendRequested`, `senderWaits`, `senderCancelled`; consumers `nextReady`, `nextRequested`,
/// `consumerCancelled`; anyone `finished` and `failed`. A waiting party first asks (`…Requested`), which either
/// completes at once or hands out an id, then registers its continuation under that id (`…Waits`), re-checking
/// everything, since the lock was released in between. Methods return what to do once the lock is released.
///
/// Invariants: while `.open`, at most one of `senders` and `receivers` is non-empty (a sender and a consumer never
/// both wait); once ended, both are empty. Each queue is in the order its parties registered, so both senders and
/// consumers are served first come, first served.
@usableFromInline
struct _ChannelStateMachine<Element: Sendable, Failure: Error>: ~Copyable {
  @usableFromInline typealias Producer = UnsafeContinuation<Void, Never>
  @usableFromInline typealias Consumer = UnsafeContinuation<Result<Element?, Failure>, Never>

  /// A suspended `send`: its element is taken by the next consumer.
  @usableFromInline struct Sender {
    @usableFromInline let id: UInt64
    @usableFromInline let element: Element
    @usableFromInline let continuation: Producer

    @inlinable init(id: UInt64, element: Element, continuation: Producer) {
      self.id = id
      self.element = element
      self.continuation = continuation
    }
  }

  /// A suspended `next()`.
  @usableFromInline struct Receiver {
    @usableFromInline let id: UInt64
    @usableFromInline let continuation: Consumer

    @inlinable init(id: UInt64, continuation: Consumer) {
      self.id = id
      self.continuation = continuation
    }
  }

  @usableFromInline enum State {
    /// Elements pass from senders to consumers.
    case open
    /// `fail(_:)` was called while no consumer waited: the next `next()` throws the error, then the channel is
    /// `.finished`. Sends return at once.
    case failed(Failure)
    /// Ended: sends return at once and every `next()` returns `nil`.
    case finished
  }

  @usableFromInline var state = State.open
  /// The senders waiting for a consumer (kept outside `State`, so that updating them never copies the queue).
  @usableFromInline var senders = _Queue<Sender>()
  /// The consumers waiting for a sender.
  @usableFromInline var receivers = _Queue<Receiver>()
  /// The last id handed out to a party that is about to wait.
  @usableFromInline var lastID: UInt64 = 0

  @inlinable init() {}

  /// The side effect of an event, run once the lock is released.
  @usableFromInline enum Action {
    case none
    /// The caller must wait, registered as `id`.
    case suspend(id: UInt64)
    case resumeProducer(Producer)
    case resumeConsumer(Consumer, Result<Element?, Failure>)
    /// A sender's element goes to a consumer; both resume.
    case handOff(Element, from: Producer, to: Consumer)
    /// The calling consumer takes `element` from a waiting sender, which resumes.
    case take(Element, from: Producer)
    /// The calling consumer returns `result` at once.
    case returnResult(Result<Element?, Failure>)
    /// The channel ended: every waiting party resumes, the consumers with `result`.
    case resumeAll(producers: [Producer], consumers: [Consumer], result: Result<Element?, Failure>)
  }

  @inlinable
  mutating func newID() -> UInt64 {
    lastID &+= 1
    return lastID
  }

  /// A `send(element)` starts: a waiting consumer takes the element at once; otherwise the sender waits.
  @inlinable
  mutating func sendRequested(_ element: Element) -> Action {
    guard case .open = state else { return .none }
    if let receiver = receivers.popFirst() {
      return .resumeConsumer(receiver.continuation, .success(element))
    }
    return .suspend(id: newID())
  }

  /// The sender `id` registers its continuation; `cancelled` says whether its task was cancelled (read under the
  /// lock, so that a cancellation handler that ran before this found nothing to resume).
  @inlinable
  mutating func senderWaits(id: UInt64, _ element: Element, _ producer: Producer, cancelled: Bool) -> Action {
    guard case .open = state, !cancelled else { return .resumeProducer(producer) }
    if let receiver = receivers.popFirst() {
      return .handOff(element, from: producer, to: receiver.continuation)
    }
    senders.append(Sender(id: id, element: element, continuation: producer))
    return .none
  }

  /// The task of sender `id` was cancelled: if it still waits, it resumes and its element is dropped.
  @usableFromInline
  mutating func senderCancelled(id: UInt64) -> Action {
    guard let sender = senders.removeFirst(where: { $0.id == id }) else { return .none }
    return .resumeProducer(sender.continuation)
  }

  /// A `next()` starts: it takes the element of the first waiting sender, ends, or waits.
  @inlinable
  mutating func nextReady() -> Action {
    switch state {
    case .open:
      if let sender = senders.popFirst() {
        return .take(sender.element, from: sender.continuation)
      }
      return .suspend(id: newID())
    case .failed(let failure):
      state = .finished
      return .returnResult(.failure(failure))
    case .finished:
      return .returnResult(.success(nil))
    }
  }

  /// The consumer `id` registers its continuation; `cancelled` as in ``senderWaits(id:_:_:cancelled:)``.
  @inlinable
  mutating func nextRequested(id: UInt64, _ consumer: Consumer, cancelled: Bool) -> Action {
    if cancelled { return .resumeConsumer(consumer, .success(nil)) }
    switch state {
    case .open:
      if let sender = senders.popFirst() {
        return .handOff(sender.element, from: sender.continuation, to: consumer)
      }
      receivers.append(Receiver(id: id, continuation: consumer))
      return .none
    case .failed(let failure):
      state = .finished
      return .resumeConsumer(consumer, .failure(failure))
    case .finished:
      return .resumeConsumer(consumer, .success(nil))
    }
  }

  /// The task of consumer `id` was cancelled: if it still waits, it resumes with `nil`, having taken nothing.
  @usableFromInline
  mutating func consumerCancelled(id: UInt64) -> Action {
    guard let receiver = receivers.removeFirst(where: { $0.id == id }) else { return .none }
    return .resumeConsumer(receiver.continuation, .success(nil))
  }

  /// `finish()`: every waiting sender returns (its element dropped) and every waiting consumer gets `nil`. Once
  /// the channel has ended, nothing happens.
  @usableFromInline
  mutating func finished() -> Action {
    guard case .open = state else { return .none }
    state = .finished
    return end(with: .success(nil))
  }

  /// `fail(error)`: every waiting sender returns; every waiting consumer throws `failure`, or, when none waits, the
  /// next `next()` does. Once the channel has ended, nothing happens.
  @usableFromInline
  mutating func failed(_ failure: Failure) -> Action {
    guard case .open = state else { return .none }
    state = receivers.isEmpty ? .failed(failure) : .finished
    return end(with: .failure(failure))
  }

  /// Empties both queues into one action that resumes them.
  @usableFromInline
  mutating func end(with result: Result<Element?, Failure>) -> Action {
    var producers: [Producer] = []
    producers.reserveCapacity(senders.count)
    while let sender = senders.popFirst() { producers.append(sender.continuation) }
    var consumers: [Consumer] = []
    consumers.reserveCapacity(receivers.count)
    while let receiver = receivers.popFirst() { consumers.append(receiver.continuation) }
    return .resumeAll(producers: producers, consumers: consumers, result: result)
  }
}
