/// The state of an ``AsyncRetrySequence`` iteration: how many retries are spent, and what a failure leads to.
///
/// A plain value without tasks or locks — the iterator runs in the consumer's task and asks it at each event:
/// the base failed (`baseFailed`), the wait before a retry ended (`waitEnded`), the base finished
/// (`baseFinished`). Combine's count: `retries` failures are retried, the next one is thrown, whether or not
/// elements came in between.
@usableFromInline
struct _RetryStateMachine<Duration: DurationProtocol> {
  /// Where the iteration is.
  @usableFromInline
  enum State: Equatable {
    /// An iteration of the base runs; `retried` retries have been spent.
    case iterating(retried: Int)
    /// The base failed; the wait before retry number `retry` runs.
    case waiting(retry: Int)
    /// The base finished, a failure was thrown, or the consumer was cancelled: `next()` returns `nil`.
    case finished
  }

  /// What the iterator does after the base failed.
  @usableFromInline
  enum Action: Equatable {
    /// Throw the failure: no retry is left, or the consuming task is cancelled.
    case fail
    /// Iterate the base again at once.
    case retry
    /// Wait this long, then report ``waitEnded(cancelled:)``.
    case wait(Duration)
  }

  @usableFromInline var state = State.iterating(retried: 0)
  @usableFromInline let retries: Int
  @usableFromInline let backoff: RetryBackoff<Duration>?

  @inlinable
  init(retries: Int, backoff: RetryBackoff<Duration>?) {
    self.retries = retries
    self.backoff = backoff
  }

  /// The base threw. A failure seen while the consuming task is cancelled is thrown, not retried: the base may
  /// have failed because of the cancellation.
  @inlinable
  mutating func baseFailed(isCancelled: Bool) -> Action {
    guard case .iterating(let retried) = state else {
      preconditionFailure("retry: the base failed outside an iteration (state: \(state))")
    }
    guard retried < retries, !isCancelled else {
      state = .finished
      return .fail
    }
    guard let backoff else {
      state = .iterating(retried: retried + 1)
      return .retry
    }
    state = .waiting(retry: retried + 1)
    return .wait(backoff.delay(beforeRetry: retried + 1))
  }

  /// The wait before a retry ended: slept its time (`true` — iterate the base again) or was cancelled (`false` —
  /// the iteration is over).
  @inlinable
  mutating func waitEnded(cancelled: Bool) -> Bool {
    guard case .waiting(let retry) = state else {
      preconditionFailure("retry: a wait ended while none ran (state: \(state))")
    }
    state = cancelled ? .finished : .iterating(retried: retry)
    return !cancelled
  }

  /// The base finished: so does the iteration.
  @inlinable
  mutating func baseFinished() {
    guard case .iterating = state else {
      preconditionFailure("retry: the base finished outside an iteration (state: \(state))")
    }
    state = .finished
  }
}
