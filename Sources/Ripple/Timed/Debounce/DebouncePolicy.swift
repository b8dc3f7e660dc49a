/// Debounce's part of a timed iteration: the latest element waits until its interval passes without a newer one.
///
/// ```
/// base:     a b c . . . d . . . .   (one element per 100 ms, interval 300 ms)
/// emitted:          c           d   (at 500 ms and 900 ms)
/// ```
///
/// A newer element replaces the pending one and moves the deadline; the timer, woken at an older deadline,
/// finds it moved and sleeps again. An element whose deadline passed before the next one came is emitted when
/// that one comes, even if the timer has not run yet.
@usableFromInline
struct _DebouncePolicy<Element: Sendable, Instant: InstantProtocol>: _TimedPolicy {
  /// The element waiting for its interval to pass, and when it will have.
  @usableFromInline var pending: (element: Element, deadline: Instant)?

  @inlinable init() {}

  @inlinable var deadline: Instant? { pending?.deadline }
  @inlinable var isHolding: Bool { pending != nil }

  @inlinable
  mutating func received(_ element: Element, now: Instant, end: () -> Instant, consumerWaiting: Bool) -> Element? {
    defer { pending = (element, end()) }
    guard let previous = pending, previous.deadline <= now else { return nil }
    return previous.element
  }

  @inlinable
  mutating func timerFired(
    at deadline: Instant, end: () -> Instant, baseFinished: Bool, consumerWaiting: Bool
  ) -> Element? {
    guard let settled = pending, settled.deadline <= deadline else { return nil }
    pending = nil
    return settled.element
  }

  /// A settled element that nobody waited for is in the iteration's ready slot, where a newer one replaces it: a
  /// slow consumer gets the latest. Debounce keeps nothing back for it.
  @inlinable
  mutating func consumerArrived(end: () -> Instant, baseFinished: Bool) -> Element? { nil }

  @inlinable
  mutating func baseFinishedIdle() {}

  @inlinable
  mutating func discard() {
    pending = nil
  }
}
