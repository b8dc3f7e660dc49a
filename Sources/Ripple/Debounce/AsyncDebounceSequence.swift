extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// Emits an element only once `interval` has passed on `clock` without a newer element.
  ///
  /// Use it to act on input once it settles — search as the user stops typing, save once edits pause:
  ///
  /// ```swift
  /// // Input:  a b c . . . d . . . .   (one character per 100 ms)
  /// for await query in keystrokes.debounce(for: .milliseconds(300), clock: clock) {
  ///   print(query)
  /// }
  /// // Prints "c" at 500 ms, then "d" at 900 ms.
  /// ```
  ///
  /// The base is consumed in a task of its own from the first `next()` on, whether or not anyone waits,
  /// and re-arming the timer for a new element costs no task and no allocation.
  ///
  /// - When the base finishes, the pending element is still emitted once its interval has passed, then
  ///   iteration finishes.
  /// - When the base throws, the error is delivered at once: to the consumer waiting in `next()`, or else by
  ///   the very next call to `next()`. An element not yet emitted is dropped, as the error ends the sequence
  ///   the moment it happens.
  /// - A consumer slower than the settling elements gets the latest settled one.
  /// - Cancelling the consuming task, or dropping the iterator, cancels the base's iteration and the timer;
  ///   `next()` then returns `nil`.
  ///
  /// See <doc:Debounce> for the timing diagrams, the design and a comparison with Combine and
  /// swift-async-algorithms.
  ///
  /// - Parameters:
  ///   - interval: How long an element must stay the latest before it is emitted.
  ///   - tolerance: The tolerance passed to `clock` when sleeping.
  ///   - clock: The clock that measures `interval`; inject a `TestClock` in tests.
  /// - Returns: A sequence that throws what the base throws.
  @inlinable
  public func debounce<C: Clock>(
    for interval: C.Duration, tolerance: C.Duration? = nil, clock: C
  ) -> AsyncDebounceSequence<Self, C> {
    AsyncDebounceSequence(base: self, interval: interval, tolerance: tolerance, clock: clock)
  }

  /// Emits an element only once `interval` has passed without a newer element, measured on the
  /// continuous clock.
  ///
  /// Use it to act on input once it settles:
  ///
  /// ```swift
  /// for await query in keystrokes.debounce(for: .milliseconds(300)) {
  ///   print(query)   // the text once typing pauses for 300 ms
  /// }
  /// ```
  ///
  /// It behaves as ``debounce(for:tolerance:clock:)`` with a `ContinuousClock`: the pending element is
  /// emitted before the finish, an error is delivered at once (dropping the pending element), and
  /// cancellation cancels the base.
  ///
  /// See <doc:Debounce> for the timing diagrams, the design and a comparison with Combine and
  /// swift-async-algorithms.
  ///
  /// - Parameters:
  ///   - interval: How long an element must stay the latest before it is emitted.
  ///   - tolerance: The tolerance used when sleeping.
  /// - Returns: A sequence that throws what the base throws.
  @inlinable
  public func debounce(
    for interval: Duration, tolerance: Duration? = nil
  ) -> AsyncDebounceSequence<Self, ContinuousClock> {
    debounce(for: interval, tolerance: tolerance, clock: ContinuousClock())
  }
}

/// An asynchronous sequence that emits an element of its base once a quiet interval has passed after it.
///
/// Create one with ``_Concurrency/AsyncSequence/debounce(for:tolerance:clock:)``. It finishes after
/// emitting the pending element when its base finishes, throws its base's error as soon as it happens, and
/// ends when the consuming task is cancelled. See <doc:Debounce> for its timing, edges and design.
public struct AsyncDebounceSequence<Base: AsyncSequence & Sendable, C: Clock>: AsyncSequence, Sendable
where Base.Element: Sendable {
  /// The base's elements.
  public typealias Element = Base.Element
  /// The base's error type: a base that cannot throw gives a sequence that cannot throw.
  public typealias Failure = Base.Failure

  @usableFromInline let base: Base
  @usableFromInline let interval: C.Duration
  @usableFromInline let tolerance: C.Duration?
  @usableFromInline let clock: C

  @inlinable
  init(base: Base, interval: C.Duration, tolerance: C.Duration?, clock: C) {
    self.base = base
    self.interval = interval
    self.tolerance = tolerance
    self.clock = clock
  }

  /// Creates an iterator; its tasks start on its first `next()`.
  @inlinable
  public func makeAsyncIterator() -> Iterator {
    Iterator(storage: _DebounceStorage(base: base, interval: interval, tolerance: tolerance, clock: clock))
  }

  /// The iterator of an ``AsyncDebounceSequence``.
  ///
  /// It is not `Sendable`: one task iterates it. Dropping it ends the iteration.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline let iteration: _IterationHandle<_DebounceStorage<Base, C>>
    @usableFromInline var started = false

    @inlinable
    init(storage: _DebounceStorage<Base, C>) {
      iteration = _IterationHandle(storage)
    }

    /// Returns the next settled element, or `nil` once the base has finished and its last element was
    /// emitted, or once the consuming task is cancelled; throws the base's error.
    @inlinable
    public mutating func next(
      isolation actor: isolated (any Actor)? = #isolation
    ) async throws(Failure) -> Element? {
      if !started {
        started = true
        iteration.storage.start()
      }
      return try await iteration.storage.next(isolation: actor)
    }
  }
}

@available(*, unavailable)
extension AsyncDebounceSequence.Iterator: Sendable {}
