extension AsyncSequence {
  /// Iterates the base again after it fails, at most `retries` more times.
  ///
  /// See ``AsyncRetrySequence`` for an example and how it finishes, throws and cancels.
  ///
  /// - Parameter retries: How many failures are retried; the next one is thrown. Zero or more.
  @inlinable
  public func retry(_ retries: Int) -> AsyncRetrySequence<Self, ContinuousClock> {
    precondition(retries >= 0, "retry(_:): retries must be zero or more, got \(retries)")
    return AsyncRetrySequence(base: self, retries: retries, backoff: nil, tolerance: nil, clock: ContinuousClock())
  }

  /// Iterates the base again after it fails, at most `retries` more times, each time after waiting `delay` on
  /// `clock`.
  ///
  /// See ``AsyncRetrySequence``.
  ///
  /// - Parameters:
  ///   - retries: How many failures are retried; the next one is thrown. Zero or more.
  ///   - delay: The wait before each retry; zero or more.
  ///   - tolerance: The tolerance passed to `clock` when sleeping.
  ///   - clock: The clock that measures the wait; inject a `TestClock` in tests.
  @inlinable
  public func retry<C: Clock>(
    _ retries: Int, delay: C.Duration, tolerance: C.Duration? = nil, clock: C
  ) -> AsyncRetrySequence<Self, C> {
    precondition(retries >= 0, "retry(_:delay:tolerance:clock:): retries must be zero or more, got \(retries)")
    precondition(delay >= .zero, "retry(_:delay:tolerance:clock:): delay must be zero or more, got \(delay)")
    return AsyncRetrySequence(
      base: self, retries: retries, backoff: .constant(delay), tolerance: tolerance, clock: clock)
  }

  /// Iterates the base again after it fails, at most `retries` more times, each time after the wait `backoff`
  /// gives on `clock`.
  ///
  /// See ``AsyncRetrySequence``.
  ///
  /// - Parameters:
  ///   - retries: How many failures are retried; the next one is thrown. Zero or more.
  ///   - backoff: The wait before each retry: ``RetryBackoff/constant(_:)`` or
  ///     ``RetryBackoff/exponential(initial:multiplier:maximum:)``.
  ///   - tolerance: The tolerance passed to `clock` when sleeping.
  ///   - clock: The clock that measures the waits; inject a `TestClock` in tests.
  @inlinable
  public func retry<C: Clock>(
    _ retries: Int, backoff: RetryBackoff<C.Duration>, tolerance: C.Duration? = nil, clock: C
  ) -> AsyncRetrySequence<Self, C> {
    precondition(retries >= 0, "retry(_:backoff:tolerance:clock:): retries must be zero or more, got \(retries)")
    return AsyncRetrySequence(base: self, retries: retries, backoff: backoff, tolerance: tolerance, clock: clock)
  }

  /// Iterates the base again after it fails, at most `retries` more times, each time after waiting `delay` on the
  /// continuous clock.
  ///
  /// See ``AsyncRetrySequence``.
  @inlinable
  public func retry(
    _ retries: Int, delay: Duration, tolerance: Duration? = nil
  ) -> AsyncRetrySequence<Self, ContinuousClock> {
    retry(retries, delay: delay, tolerance: tolerance, clock: ContinuousClock())
  }

  /// Iterates the base again after it fails, at most `retries` more times, each time after the wait `backoff`
  /// gives on the continuous clock.
  ///
  /// See ``AsyncRetrySequence``.
  @inlinable
  public func retry(
    _ retries: Int, backoff: RetryBackoff<Duration>, tolerance: Duration? = nil
  ) -> AsyncRetrySequence<Self, ContinuousClock> {
    retry(retries, backoff: backoff, tolerance: tolerance, clock: ContinuousClock())
  }
}

/// An asynchronous sequence that iterates its base again when it fails, a limited number of times, optionally
/// after a wait.
///
/// Use it for a source that fails now and then and can simply be started again — a connection, a poll of a
/// service. Each retry makes a fresh iterator of the base, so the base's elements come again from its start,
/// as with Combine's `retry(_:)`:
///
/// ```swift
/// // The first iteration of `readings` gives 1, 2, then fails; the second gives 1, 2, 3.
/// for try await reading in readings.retry(2) {
///   print(reading)
/// }
/// // Prints 1, 2, 1, 2, 3.
/// ```
///
/// `retries` counts failures over the whole iteration (Combine's count): with `retry(2)`, the third failure is
/// thrown, however many elements came in between. The plain form retries at once; the forms with `delay:` or
/// `backoff:` wait on the clock first (the failed iteration's iterator is released before the wait).
///
/// - When the base finishes, the sequence finishes.
/// - When the base fails with no retry left, the sequence throws that failure, of the base's type.
/// - Cancelling the consuming task during a wait ends the wait at once, and `next()` returns `nil`. A failure
///   that arrives while the consuming task is cancelled is thrown, not retried. Otherwise cancellation reaches
///   the base through the consumer's task, which iterates it.
///
/// It starts no task and takes no lock: the base is iterated in the consumer's task. See <doc:Retry> for the
/// timing diagrams and a comparison with Combine.
public struct AsyncRetrySequence<Base: AsyncSequence, C: Clock>: AsyncSequence {
  /// The base's elements.
  public typealias Element = Base.Element
  /// The base's error type: thrown once no retry is left.
  public typealias Failure = Base.Failure

  @usableFromInline let base: Base
  @usableFromInline let retries: Int
  @usableFromInline let backoff: RetryBackoff<C.Duration>?
  @usableFromInline let tolerance: C.Duration?
  @usableFromInline let clock: C

  @inlinable
  init(base: Base, retries: Int, backoff: RetryBackoff<C.Duration>?, tolerance: C.Duration?, clock: C) {
    self.base = base
    self.retries = retries
    self.backoff = backoff
    self.tolerance = tolerance
    self.clock = clock
  }

  /// Creates an iterator over the base's first iteration.
  @inlinable
  public func makeAsyncIterator() -> Iterator {
    Iterator(self)
  }

  /// The iterator of an ``AsyncRetrySequence``.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline let sequence: AsyncRetrySequence
    /// The base's current iteration; `nil` during a wait and once the iteration is over.
    @usableFromInline var iterator: Base.AsyncIterator?
    @usableFromInline var machine: _RetryStateMachine<C.Duration>

    @inlinable
    init(_ sequence: AsyncRetrySequence) {
      self.sequence = sequence
      iterator = sequence.base.makeAsyncIterator()
      machine = _RetryStateMachine(retries: sequence.retries, backoff: sequence.backoff)
    }

    /// Returns the base's next element, iterating the base again after a failure while retries are left; `nil`
    /// once the base finished or the consuming task was cancelled during a wait. Throws the failure no retry is
    /// left for.
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws(Failure) -> Element? {
      while iterator != nil {
        do throws(Failure) {
          guard let element = try await iterator!.next(isolation: actor) else {
            machine.baseFinished()
            iterator = nil
            return nil
          }
          return element
        } catch {
          iterator = nil
          switch machine.baseFailed(isCancelled: Task.isCancelled) {
          case .fail:
            throw error
          case .retry:
            break
          case .wait(let delay):
            let clock = sequence.clock
            let slept: Bool
            do {
              try await clock.sleep(until: clock.now.advanced(by: delay), tolerance: sequence.tolerance)
              slept = true
            } catch {
              slept = false
            }
            guard machine.waitEnded(cancelled: !slept) else { return nil }
          }
          iterator = sequence.base.makeAsyncIterator()
        }
      }
      return nil
    }
  }
}

extension AsyncRetrySequence: Sendable where Base: Sendable {}

@available(*, unavailable)
extension AsyncRetrySequence.Iterator: Sendable {}
