/// What a timer-driven operator (``AsyncDebounceSequence``, ``AsyncThrottleSequence``) does with the elements
/// between its base and its timer: which it holds, which it emits, and when its timer must wake.
///
/// ``_TimedStateMachine`` owns everything else — the consumer, the timer task, the ready element, the base's end
/// and failure — and calls the policy under its lock. A policy never suspends and never sees a continuation.
@usableFromInline
protocol _TimedPolicy: Sendable {
  /// What the base produces.
  associatedtype Input: Sendable
  /// What the operator emits: the base's element, or for `throttle(for:clock:reducing:)` a reduction of several.
  associatedtype Element: Sendable
  associatedtype Instant: InstantProtocol

  /// When the timer must wake next; `nil` while nothing is timed.
  var deadline: Instant? { get }
  /// Whether an element waits to be emitted: while one does, the base's end waits for it.
  var isHolding: Bool { get }

  /// The base produced `input` at `now`; `end()` is `now` plus the operator's interval (computed only if asked
  /// for); `consumerWaiting` says whether a consumer waits in `next()`. Returns an element to emit at once.
  mutating func received(_ input: Input, now: Instant, end: () -> Instant, consumerWaiting: Bool) -> Element?
  /// The timer slept until `deadline`; `end()` reads the clock's now plus the interval. Returns the element to emit.
  mutating func timerFired(
    at deadline: Instant, end: () -> Instant, baseFinished: Bool, consumerWaiting: Bool
  ) -> Element?
  /// A consumer called `next()` with no element ready. Returns an element the policy kept for it because nobody
  /// waited when it was due (throttle); `nil` to let the consumer wait.
  mutating func consumerArrived(end: () -> Instant, baseFinished: Bool) -> Element?
  /// The base finished while the policy held nothing: nothing is timed any more.
  mutating func baseFinishedIdle()
  /// The iteration ended: drop what is held.
  mutating func discard()
}
