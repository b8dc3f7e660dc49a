/// Why a calculation has no result.
///
/// ``SlowCalculator`` throws it, and ``CalculatorStatus/error(_:)`` shows it; its `description` is the text `calc`
/// prints.
///
/// ```swift
/// do {
///   _ = try SlowCalculator.sum(Input(a: .max, b: 1))
/// } catch {
///   print(error)  // result out of range
/// }
/// ```
public enum CalculatorError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The sum does not fit in an `Int`.
  case overflow
  /// The input is missing a number; models never ask for such a sum, they wait.
  case incompleteInput
  /// A test used ``SlowCalculator/failing(_:)`` without substituting a calculator; names the test.
  case unimplemented(String)

  /// The error in words, as `calc` shows it.
  public var description: String {
    switch self {
    case .overflow: "result out of range"
    case .incompleteInput: "a field holds no number"
    case .unimplemented(let caller): "no calculator was substituted in \(caller)"
    }
  }
}
