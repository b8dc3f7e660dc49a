extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// Finishes when `interval` passes on `clock` without an element: from the first `next()`, and from each element.
  ///
  /// See ``AsyncTimeoutSequence`` for an example and how it finishes, throws and cancels.
  ///
  /// - Parameters:
  ///   - interval: The longest wait for the base's first element, and between two elements; zero or more.
  ///   - tolerance: The tolerance passed to `clock` when sleeping.
  ///   - clock: The clock that measures `interval`; inject a `TestClock` in tests.
  @inlinable
  public func timeout<C: Clock>(
    _ interval: C.Duration, tolerance: C.Duration? = nil, clock: C
  ) -> AsyncTimeoutSequence<Self, C, Failure> {
    precondition(
      interval >= .zero, "timeout(_:tolerance:clock:): interval must be zero or more, got \(interval)")
    return AsyncTimeoutSequence(
      base: self, interval: interval, tolerance: tolerance, clock: clock, customError: nil, convert: { $0 })
  }

  /// Throws `customError()` when `interval` passes on `clock` without an element: from the first `next()`, and from
  /// each element.
  ///
  /// See ``AsyncTimeoutSequence``.
  ///
  /// - Parameters:
  ///   - interval: The longest wait for the base's first element, and between two elements; zero or more.
  ///   - tolerance: The tolerance passed to `clock` when sleeping.
  ///   - clock: The clock that measures `interval`; inject a `TestClock` in tests.
  ///   - customError: Makes the error thrown at a timeout, of the base's error type.
  @inlinable
  public func timeout<C: Clock>(
    _ interval: C.Duration, tolerance: C.Duration? = nil, clock: C,
    customError: @escaping @Sendable () -> Failure
  ) -> AsyncTimeoutSequence<Self, C, Failure> {
    precondition(
      interval >= .zero, "timeout(_:tolerance:clock:customError:): interval must be zero or more, got \(interval)")
    return AsyncTimeoutSequence(
      base: self, interval: interval, tolerance: tolerance, clock: clock, customError: customError, convert: { $0 })
  }
}

extension AsyncSequence where Self: Sendable, Element: Sendable, Failure == Never {
  /// Throws `customError()` when `interval` passes on `clock` without an element: from the first `next()`, and from
  /// each element. The base cannot fail, so the sequence throws the custom error's type.
  ///
  /// See ``AsyncTimeoutSequence``.
  ///
  /// - Parameters:
  ///   - interval: The longest wait for the base's first element, and between two elements; zero or more.
  ///   - tolerance: The tolerance passed to `clock` when sleeping.
  ///   - clock: The clock that measures `interval`; inject a `TestClock` in tests.
  ///   - customError: Makes the error thrown at a timeout.
  @inlinable
  public func timeout<C: Clock, TimeoutError: Error>(
    _ interval: C.Duration, tolerance: C.Duration? = nil, clock: C,
    customError: @escaping @Sendable () -> TimeoutError
  ) -> AsyncTimeoutSequence<Self, C, TimeoutError> {
    precondition(
      interval >= .zero, "timeout(_:tolerance:clock:customError:): interval must be zero or more, got \(interval)")
    return AsyncTimeoutSequence(
      base: self, interval: interval, tolerance: tolerance, clock: clock, customError: customError,
      convert: _neverThrown)
  }
}

/// An asynchronous sequence that ends when its base stays silent for longer than an interval: it finishes, or
/// throws a custom error.
///
/// Use it to give up on a source that stopped delivering — a stalled download, a device that went quiet:
///
/// ```swift
/// // Input:  a . b . . . . c   (one character per second)
/// for try await reading in sensor.timeout(.seconds(3), clock: clock) {
///   print(reading)
/// }
/// // Prints "a" at 0 s and "b" at 2 s, then finishes at 5 s.
/// ```
///
/// The interval runs from the first `next()` and from each element, while the base is being asked. The base is
/// iterated in a task of its own, up to 16 elements ahead of a busy consumer; while 16 wait, the base is not asked
/// and nothing is timed, and the interval runs again from when the consumer takes one. Re-arming the timer for each
/// element costs no task and no allocation.
///
/// - When the base finishes or throws, so does the sequence, after the elements already taken from the base.
/// - At a timeout, the base's iteration is cancelled; after the elements already taken from it,
///   `timeout(_:tolerance:clock:)` finishes and `timeout(_:tolerance:clock:customError:)` throws `customError()`.
/// - Cancelling the consuming task, or dropping the iterator, cancels the base's iteration and the timer; `next()`
///   then returns `nil`.
///
/// See <doc:Timeout> for the timing diagrams, the design and a comparison with Combine.
public struct AsyncTimeoutSequence<Base: AsyncSequence & Sendable, C: Clock, Failure: Error>: AsyncSequence, Sendable
where Base.Element: Sendable {
  /// The base's elements.
  public typealias Element = Base.Element

  @usableFromInline let timed: _TimedBase<Base, C>
  @usableFromInline let customError: (@Sendable () -> Failure)?
  @usableFromInline let convert: @Sendable (Base.Failure) -> Failure

  @inlinable
  init(
    base: Base, interval: C.Duration, tolerance: C.Duration?, clock: C, customError: (@Sendable () -> Failure)?,
    convert: @escaping @Sendable (Base.Failure) -> Failure
  ) {
    timed = _TimedBase(base: base, interval: interval, tolerance: tolerance, clock: clock)
    self.customError = customError
    self.convert = convert
  }

  /// Creates an iterator; its tasks start on its first `next()`.
  @inlinable
  public func makeAsyncIterator() -> Iterator {
    Iterator(
      _TimeoutStorage(timed), customError: customError, convert: convert)
  }

  /// The iterator of an ``AsyncTimeoutSequence``; one task iterates it, and dropping it ends the iteration.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline let iteration: _IterationHandle<_TimeoutStorage<Base, C>>
    @usableFromInline let customError: (@Sendable () -> Failure)?
    @usableFromInline let convert: @Sendable (Base.Failure) -> Failure

    @inlinable
    init(
      _ storage: _TimeoutStorage<Base, C>, customError: (@Sendable () -> Failure)?,
      convert: @escaping @Sendable (Base.Failure) -> Failure
    ) {
      iteration = _IterationHandle(storage)
      self.customError = customError
      self.convert = convert
    }

    /// Returns the base's next element; `nil` once the base finished, at a timeout without a custom error, or once
    /// the consuming task is cancelled. Throws the base's error, or the custom error at a timeout.
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws(Failure) -> Element? {
      switch await iteration.storage.next(isolation: actor) {
      case .element(let element):
        return element
      case .finished, nil:
        return nil
      case .failed(let failure):
        throw convert(failure)
      case .timedOut:
        guard let customError else { return nil }
        throw customError()
      }
    }
  }
}

@available(*, unavailable)
extension AsyncTimeoutSequence.Iterator: Sendable {}

/// Converts the error of a base that cannot fail: never called.
@inlinable @Sendable
func _neverThrown<E: Error>(_ never: Never) -> E {}
