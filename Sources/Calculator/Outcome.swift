/// What one calculation produced: the input it was for, and the sum or the reason there is none.
///
/// Engines report outcomes; ``CalculatorStatus`` compares an outcome's input with the current input to tell a
/// fresh result from an old one.
///
/// ```swift
/// let outcome = await Outcome.calculate(Input(a: 1, b: 2), with: .instant)
/// print(outcome?.value == .success(3))  // true
/// ```
public struct Outcome: Equatable, Sendable {
  /// The input that was calculated.
  public var input: Input
  /// The sum, or why there is none.
  public var value: Result<Int, CalculatorError>

  /// Creates an outcome.
  public init(input: Input, value: Result<Int, CalculatorError>) {
    self.input = input
    self.value = value
  }

  /// Runs `calculator` for a complete `input`: a ``CalculatorError`` becomes a failed outcome; `nil` for an
  /// incomplete input, or whenever the calling task was cancelled, whatever the calculator returned or threw,
  /// so that a superseded calculation reports nothing.
  public static func calculate(_ input: Input, with calculator: SlowCalculator) async -> Outcome? {
    guard input.operands != nil else { return nil }
    do {
      let sum = try await calculator.result(for: input)
      return Task.isCancelled ? nil : Outcome(input: input, value: .success(sum))
    } catch let error as CalculatorError {
      return Task.isCancelled ? nil : Outcome(input: input, value: .failure(error))
    } catch {
      return nil  // CancellationError: superseded
    }
  }
}
