/// Throttle's part of a timed iteration: an element emitted opens an interval; what comes during it is held and
/// emitted when it ends, which opens the next one.
///
/// ```
/// base:     a b c d e . . . .   (one element per 100 ms, interval 300 ms)
/// interval: [a    )[c    )[e    )
/// emitted:  a      c      e     (at 0, 300 and 600 ms; with latest: false, a, b, d)
/// ```
///
/// What an interval emits is the reduction of the elements it received, each folded into the one before by
/// `reduce(held, element)`, starting from `nil` after every emission: `latest` keeps the newest, `!latest` the
/// first, `throttle(for:clock:reducing:)` the user's fold.
///
/// An element that comes while no interval is open is emitted at once. The timer wakes at the interval's end
/// and emits the held element without waiting for another input. An element that comes after the interval
/// ended but before the timer ran closes it itself.
///
/// Nothing is emitted while no consumer waits in `next()`: what is due then stays held — *due* — and goes to the
/// consumer the moment it asks, opening the next interval; elements that come meanwhile fold into it. So a slow
/// consumer gets the latest element (or the first, or the fold of all) since its last one, and with `reducing:`
/// no element is lost.
@usableFromInline
struct _ThrottlePolicy<Input: Sendable, Element: Sendable, Instant: InstantProtocol>: _TimedPolicy {
  @usableFromInline typealias Reduce = @Sendable (Element?, Input) -> Element

  /// Folds an element into the reduction held so far (`nil` when nothing is held).
  @usableFromInline let reduce: Reduce
  /// When the open interval ends; `nil` when none is open and the next element goes out at once.
  @usableFromInline var intervalEnd: Instant?
  /// The reduction to emit when the open interval ends.
  @usableFromInline var held: Element?
  /// `held` was due while no consumer waited: it goes to the next `next()` at once, and nothing is timed till then.
  @usableFromInline var due = false

  @inlinable init(reduce: @escaping Reduce) {
    self.reduce = reduce
  }

  @inlinable var deadline: Instant? { due ? nil : intervalEnd }
  @inlinable var isHolding: Bool { held != nil }

  @inlinable @inline(__always)
  mutating func received(_ input: Input, now: Instant, end: () -> Instant, consumerWaiting: Bool) -> Element? {
    if due || intervalEnd.map({ now < $0 }) == true {
      // The steady path of a burst: an interval is open (or its end waits for the consumer); fold the element in.
      held = reduce(held, input)
      return nil
    }
    guard consumerWaiting else {
      // Due now, but nobody to take it: keep it, and this element with it, for the consumer's next `next()`.
      held = reduce(held, input)
      due = true
      return nil
    }
    intervalEnd = end()
    if let emitted = held {
      // The interval ended before this element came, even if the timer has not run yet.
      held = reduce(nil, input)
      return emitted
    }
    return reduce(nil, input)
  }

  @inlinable
  mutating func timerFired(
    at deadline: Instant, end: () -> Instant, baseFinished: Bool, consumerWaiting: Bool
  ) -> Element? {
    // A late element may have closed that interval and opened another.
    guard !due, let intervalEnd, intervalEnd <= deadline else { return nil }
    guard let emitted = held else {
      self.intervalEnd = nil
      return nil
    }
    guard consumerWaiting else {
      due = true
      return nil
    }
    held = nil
    // After the base finished this was the last element: no interval to open, the timer can stop.
    self.intervalEnd = baseFinished ? nil : end()
    return emitted
  }

  @inlinable
  mutating func consumerArrived(end: () -> Instant, baseFinished: Bool) -> Element? {
    guard due, let emitted = held else { return nil }
    due = false
    held = nil
    intervalEnd = baseFinished ? nil : end()
    return emitted
  }

  @inlinable
  mutating func baseFinishedIdle() {
    intervalEnd = nil
  }

  @inlinable
  mutating func discard() {
    intervalEnd = nil
    held = nil
    due = false
  }
}
