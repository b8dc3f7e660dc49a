/// A type-erased `Clock<Duration>`, so a model can take any clock — `ContinuousClock` in the app, a `TestClock`
/// in tests — without becoming generic.
///
/// Use it to store a clock of a type chosen by the caller. Its instants count from the moment the clock was
/// wrapped, so two `AnyClock`s wrapping one clock at different times do not share instants.
///
/// ```swift
/// let clock = AnyClock(ContinuousClock())
/// let start = clock.now                       // offset zero
/// try await clock.sleep(for: .milliseconds(10))
/// print(start.duration(to: clock.now) >= .milliseconds(10))  // true
/// ```
///
/// Sleeping throws `CancellationError` when the sleeping task is cancelled, as the wrapped clock does.
public struct AnyClock: Clock {
  /// An instant of the erased clock: the time since the clock was wrapped.
  public struct Instant: InstantProtocol {
    /// Time since the wrapped clock's instant at wrapping.
    public var offset: Duration

    /// Moves the instant by `duration`.
    public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
    /// The time from this instant to `other`.
    public func duration(to other: Instant) -> Duration { other.offset - offset }
    /// Orders instants by time.
    public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
  }

  private let box: any _ClockBox

  /// Wraps `clock`; the new clock's zero is `clock.now`.
  public init<C: Clock<Duration>>(_ clock: C) {
    box = _ConcreteClockBox(clock)
  }

  /// The current instant: how long since the clock was wrapped, on the wrapped clock.
  public var now: Instant { Instant(offset: box.elapsed) }
  /// The wrapped clock's resolution.
  public var minimumResolution: Duration { box.minimumResolution }

  /// Sleeps on the wrapped clock until `deadline`.
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try await box.sleep(until: deadline.offset, tolerance: tolerance)
  }
}

private protocol _ClockBox: Sendable {
  var elapsed: Duration { get }
  var minimumResolution: Duration { get }
  func sleep(until offset: Duration, tolerance: Duration?) async throws
}

private struct _ConcreteClockBox<C: Clock<Duration>>: _ClockBox {
  let clock: C
  let origin: C.Instant

  init(_ clock: C) {
    self.clock = clock
    origin = clock.now
  }

  var elapsed: Duration { origin.duration(to: clock.now) }
  var minimumResolution: Duration { clock.minimumResolution }

  func sleep(until offset: Duration, tolerance: Duration?) async throws {
    try await clock.sleep(until: origin.advanced(by: offset), tolerance: tolerance)
  }
}
