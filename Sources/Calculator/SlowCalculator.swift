/// The slow calculation service: an asynchronous `a + b`, as a value holding a closure so that previews and
/// tests can substitute it.
///
/// Use ``live(delay:)`` in the app, ``instant`` in previews, ``live(delay:clock:)`` with a `TestClock` in tests
/// of timing, and ``failing(_:)`` as the default of a test that should never calculate.
///
/// ```swift
/// let calculator = SlowCalculator.live(delay: .seconds(1))
/// try await calculator.result(for: Input(a: 12, b: 30))   // 42, a second later
/// try await calculator.result(for: Input(a: .max, b: 1))  // throws CalculatorError.overflow
/// let model = CalculatorModel(engine: .task(calculator: .instant))  // a preview's model: sums at once
/// ```
///
/// Addition is overflow-checked (``sum(_:)``). Cancelling the calling task makes the live service throw
/// `CancellationError` while it sleeps.
public struct SlowCalculator: Sendable {
  /// The calculation: the sum of the input's numbers, or an error.
  public var calculate: @Sendable (Input) async throws -> Int

  /// Creates a calculator from a closure, for a stand-in of your own: `SlowCalculator { _ in 42 }`.
  public init(calculate: @escaping @Sendable (Input) async throws -> Int) {
    self.calculate = calculate
  }

  /// The sum of `input`'s numbers; throws ``CalculatorError`` or `CancellationError`.
  public func result(for input: Input) async throws -> Int {
    try await calculate(input)
  }

  /// Adds `a` and `b`, throwing ``CalculatorError/overflow`` instead of trapping, and
  /// ``CalculatorError/incompleteInput`` when a field is empty.
  public static func sum(_ input: Input) throws(CalculatorError) -> Int {
    guard let (a, b) = input.operands else { throw .incompleteInput }
    let (sum, overflow) = a.addingReportingOverflow(b)
    if overflow { throw .overflow }
    return sum
  }

  /// The real service: sleeps `delay` on `clock` (none for `.zero`), then adds; tests pass a `TestClock`.
  public static func live<C: Clock<Duration>>(delay: Duration = .seconds(1), clock: C) -> SlowCalculator {
    SlowCalculator { input in
      if delay > .zero {
        try await clock.sleep(for: delay)
      }
      return try sum(input)
    }
  }

  /// The real service on the continuous clock: what the app uses.
  public static func live(delay: Duration = .seconds(1)) -> SlowCalculator {
    live(delay: delay, clock: ContinuousClock())
  }

  /// Adds at once: for previews and tests of everything but timing.
  public static let instant = SlowCalculator { input in try sum(input) }

  /// A stand-in that fails every calculation with ``CalculatorError/unimplemented(_:)`` naming `caller`: a test's
  /// default dependency, so a test that calculates without substituting a calculator fails and says which test
  /// it was.
  public static func failing(_ caller: String = #function) -> SlowCalculator {
    SlowCalculator { _ in throw CalculatorError.unimplemented(caller) }
  }
}
