import InternalRippleUtilities

/// The state of one buffered channel: the elements sent and not taken, the consumers waiting in arrival order, and
/// whether the channel ended.
///
/// Senders report `elementSent` and `terminated`; consumers `iteratorMade`, `nextReady`, `nextRequested` and
/// `cancelled`. Generic over `Waiter`, what a waiting consumer is: a continuation in the storage,
/// a plain value in the tests. A waiter is resumed with an element handed to it directly, or with `nil`: look again
/// (the channel ended, or the consumer was cancelled).
///
/// Invariants: consumers wait only while the buffer is empty, so an element goes to the consumer that has waited
/// longest; the buffer only grows while the channel is active, and drains after it ended.
@usableFromInline
struct _BufferedChannelStateMachine<Element, Failure: Error, Waiter>: ~Copyable {
  /// The channel's phase.
  @usableFromInline enum State {
    case active
    /// Finished (`nil`) or failed: consumers take what is buffered, then each iterator gets the end once.
    case ended(Failure?)
  }

  /// What a consumer's request gave.
  @usableFromInline enum ReadyAction {
    /// The oldest buffered element, for the consumer to return.
    case element(Element)
    /// Nothing is buffered and the channel is active: wait through `nextRequested(_:_:)`.
    case wait
    /// Nothing is buffered and the channel ended.
    case end(Failure?)
  }

  /// What a send does once the lock is released.
  @usableFromInline enum SendAction {
    case none
    /// Hand the element to the consumer that waited longest.
    case resume(Waiter, Element)
  }

  @usableFromInline var state = State.active
  @usableFromInline var buffer = _Queue<Element>()
  /// Consumers waiting in `next()`, oldest first, each with its iterator's id.
  @usableFromInline var waiters = _Queue<(id: UInt64, waiter: Waiter)>()
  @usableFromInline var nextID: UInt64 = 0

  @inlinable init() {}

  // MARK: - Senders

  /// An element was sent: straight to the consumer that waited longest, else into the buffer; dropped after the end.
  @inlinable
  mutating func elementSent(_ element: Element) -> SendAction {
    guard case .active = state else { return .none }
    if let waiting = waiters.popFirst() { return .resume(waiting.waiter, element) }
    buffer.append(element)
    return .none
  }

  /// The channel finished (`nil`) or failed; the first end counts. Returns the waiters to resume with `nil`.
  @inlinable
  mutating func terminated(_ failure: Failure?) -> [Waiter] {
    guard case .active = state else { return [] }
    state = .ended(failure)
    var woken: [Waiter] = []
    while let waiting = waiters.popFirst() { woken.append(waiting.waiter) }
    return woken
  }

  // MARK: - Consumers

  /// An iterator was made; returns its id.
  @inlinable
  mutating func iteratorMade() -> UInt64 {
    nextID &+= 1
    return nextID
  }

  /// A consumer calls `next()`: the oldest buffered element, or `.wait`, or the end once the buffer is empty.
  ///
  /// One element per request, even for the channel's only iterator: an element no `next()` has returned yet stays
  /// in the channel, where an iterator made later finds it (a whole-buffer batch taken by the first iterator once
  /// left a second consumer waiting beside buffered elements).
  @inlinable
  mutating func nextReady() -> ReadyAction {
    if let element = buffer.popFirst() { return .element(element) }
    switch state {
    case .active: return .wait
    case .ended(let failure): return .end(failure)
    }
  }

  /// The consumer of iterator `id` waits as `waiter`; returns it to resume at once (with `nil`: look again) when an
  /// element or the end arrived since `nextReady`, or when `cancelled` is true.
  @inlinable
  mutating func nextRequested(_ id: UInt64, _ waiter: Waiter, cancelled: Bool) -> Waiter? {
    guard !cancelled, case .active = state, buffer.isEmpty else { return waiter }
    waiters.append((id, waiter))
    return nil
  }

  /// The consuming task of iterator `id` was cancelled: its waiter, when it waits, to resume with `nil`.
  @usableFromInline
  mutating func cancelled(_ id: UInt64) -> Waiter? {
    waiters.removeFirst { $0.id == id }?.waiter
  }

}
