/// Why a calculation has no result.
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
