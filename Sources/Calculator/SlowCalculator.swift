/// The slow calculation service: an asynchronous `a + b`, as a value holding a closure so that previews and
/// tests can substitute it.
///
/// Use ``live(delay:clock:)`` in the app, ``instant`` in previews, and ``failing(_:)`` as the default of a test
/// that should never calculate.
///
/// ```swift
/// let calculator = SlowCalculator.live(delay: .seconds(1))
/// try await calculator.result(for: Input(a: 12, b: 30))   // 42, a second later
/// try await calculator.result(for: Input(a: .max, b: 1))  // throws CalculatorError.overflow
/// ```
///
/// Cancelling the calling task makes ``live(delay:clock:)`` throw `CancellationError` while it sleeps.
public struct SlowCalculator: Sendable {
  /// The calculation: the sum of the input's numbers, or an error.
  public var calculate: @Sendable (Input) async throws -> Int

  /// Creates a calculator from a closure, for a stand-in of your own.
  ///
  /// ```swift
  /// let slowFortyTwo = SlowCalculator { _ in
  ///   try await Task.sleep(for: .seconds(2))
  ///   return 42
  /// }
  /// ```
  public init(calculate: @escaping @Sendable (Input) async throws -> Int) {
    self.calculate = calculate
  }

  /// The sum of `input`'s numbers; throws ``CalculatorError`` or `CancellationError`.
  ///
  /// ```swift
  /// let sum = try await SlowCalculator.instant.result(for: Input(a: 1, b: 2))  // 3
  /// ```
  public func result(for input: Input) async throws -> Int {
    try await calculate(input)
  }

  /// Adds `a` and `b`, reporting overflow as ``CalculatorError/overflow`` instead of trapping.
  ///
  /// Throws ``CalculatorError/incompleteInput`` when a field is empty.
  ///
  /// ```swift
  /// try SlowCalculator.sum(Input(a: 1, b: 2))     // 3
  /// try SlowCalculator.sum(Input(a: .max, b: 1))  // throws CalculatorError.overflow
  /// ```
  public static func sum(_ input: Input) throws(CalculatorError) -> Int {
    guard let (a, b) = input.operands else { throw .incompleteInput }
    let (sum, overflow) = a.addingReportingOverflow(b)
    if overflow { throw .overflow }
    return sum
  }

  /// The real service: sleeps `delay` on `clock`, then adds.
  ///
  /// Cancelling the calling task during the sleep throws `CancellationError`.
  ///
  /// ```swift
  /// let clock = TestClock()
  /// let calculator = SlowCalculator.live(delay: .seconds(1), clock: clock)  // answers when the test advances
  /// ```
  ///
  /// - Parameters:
  ///   - delay: How slow the service is; `.zero` answers without sleeping.
  ///   - clock: The clock to sleep on; tests pass a `TestClock`.
  public static func live<C: Clock<Duration>>(delay: Duration = .seconds(1), clock: C) -> SlowCalculator {
    SlowCalculator { input in
      if delay > .zero {
        try await clock.sleep(for: delay)
      }
      return try sum(input)
    }
  }

  /// The real service on the continuous clock: what the app uses.
  ///
  /// ```swift
  /// let model = CalculatorModel(engine: .task(calculator: .live()))  // one second per calculation
  /// ```
  public static func live(delay: Duration = .seconds(1)) -> SlowCalculator {
    live(delay: delay, clock: ContinuousClock())
  }

  /// Adds at once: for previews and tests of everything but timing.
  ///
  /// ```swift
  /// let previewModel = CalculatorModel(engine: .task(calculator: .instant))  // sums appear as soon as typed
  /// ```
  public static let instant = SlowCalculator { input in try sum(input) }

  /// A stand-in that fails every calculation with an error naming `caller`: a test's default dependency, so a
  /// test that calculates without substituting a calculator fails and says which test it was.
  ///
  /// ```swift
  /// let model = CalculatorModel(engine: .task(calculator: .failing()))
  /// model.a = 1
  /// model.b = 2
  /// // model.status becomes .error(.unimplemented("…")), naming the calling function
  /// ```
  public static func failing(_ caller: String = #function) -> SlowCalculator {
    SlowCalculator { _ in throw CalculatorError.unimplemented(caller) }
  }
}
