/// How long ``AsyncRetrySequence`` waits before each retry: the same delay every time, or a delay that grows
/// exponentially up to a cap.
///
/// Use it with ``_Concurrency/AsyncSequence/retry(_:backoff:tolerance:clock:)`` when a failing service should be
/// given more and more time to recover:
///
/// ```swift
/// let backoff = RetryBackoff<Duration>.exponential(initial: .seconds(1), maximum: .seconds(5))
/// print((1...4).map { backoff.delay(beforeRetry: $0) })
/// // Prints [1.0 seconds, 2.0 seconds, 4.0 seconds, 5.0 seconds].
/// ```
///
/// The multiplier is a whole number because a clock's `Duration` can only be multiplied by one.
public struct RetryBackoff<Duration: DurationProtocol>: Sendable {
  @usableFromInline
  enum Kind: Sendable {
    case constant(Duration)
    case exponential(initial: Duration, multiplier: Int, maximum: Duration)
  }

  @usableFromInline let kind: Kind

  @inlinable
  init(_ kind: Kind) {
    self.kind = kind
  }

  /// Waits `delay` before every retry.
  ///
  /// - Parameter delay: The wait before each retry; zero or more.
  @inlinable
  public static func constant(_ delay: Duration) -> Self {
    precondition(delay >= .zero, "RetryBackoff.constant(_:): delay must be zero or more, got \(delay)")
    return Self(.constant(delay))
  }

  /// Waits `initial` before the first retry, then `multiplier` times longer before each next one, never longer
  /// than `maximum`.
  ///
  /// - Parameters:
  ///   - initial: The wait before the first retry; zero or more.
  ///   - multiplier: How many times longer each next wait is; 1 or more. Two by default.
  ///   - maximum: The longest wait; at least `initial`.
  @inlinable
  public static func exponential(initial: Duration, multiplier: Int = 2, maximum: Duration) -> Self {
    precondition(initial >= .zero, "RetryBackoff.exponential: initial must be zero or more, got \(initial)")
    precondition(multiplier >= 1, "RetryBackoff.exponential: multiplier must be 1 or more, got \(multiplier)")
    precondition(
      maximum >= initial, "RetryBackoff.exponential: maximum (\(maximum)) must be at least initial (\(initial))")
    return Self(.exponential(initial: initial, multiplier: multiplier, maximum: maximum))
  }

  /// The wait before retry number `retry`, counting from 1.
  @inlinable
  public func delay(beforeRetry retry: Int) -> Duration {
    precondition(retry >= 1, "RetryBackoff.delay(beforeRetry:): retry counts from 1, got \(retry)")
    switch kind {
    case .constant(let delay):
      return delay
    case .exponential(let initial, let multiplier, let maximum):
      guard initial > .zero, multiplier > 1 else { return initial }
      var delay = initial
      // At most about 127 doublings before the cap for `Duration`: the loop ends long before `retry` is large.
      for _ in 1..<retry {
        // Compared before multiplying, so that a long series never overflows.
        guard delay <= maximum / multiplier else { return maximum }
        delay = delay * multiplier
      }
      return min(delay, maximum)
    }
  }
}
