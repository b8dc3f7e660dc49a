/// What the result area shows for the current input, derived from it and the latest ``Outcome``.
///
/// A view switches over ``CalculatorModel/status``; its `description` is the event `calc` prints.
///
/// ```swift
/// switch model.status {
/// case .waiting: Text("Enter two numbers")
/// case .settling: Text("…")  // the debounce design waits for the typing to stop
/// case .computing: ProgressView()
/// case .result(let sum): Text(sum, format: .number)
/// case .error(let error): Text(error.description)
/// }
/// print(CalculatorStatus.error(.overflow))  // error result out of range
/// ```
///
/// While the status is `settling` or `computing`, ``CalculatorModel/result`` keeps the last sum visible.
public enum CalculatorStatus: Equatable, Sendable, CustomStringConvertible {
  /// A field holds no number.
  case waiting
  /// The input changed and the debounce waits for it to settle before calculating it (the debounce design only).
  case settling
  /// The current input is being calculated.
  case computing
  /// The current input's sum.
  case result(Int)
  /// The current input has no sum.
  case error(CalculatorError)

  /// `waiting`, `settling`, `computing`, `result 42`, `error result out of range`.
  public var description: String {
    switch self {
    case .waiting: "waiting"
    case .settling: "settling"
    case .computing: "computing"
    case .result(let sum): "result \(sum)"
    case .error(let error): "error \(error)"
    }
  }

  /// Whether the current input's outcome is still to come: it settles or computes.
  public var isPending: Bool { self == .settling || self == .computing }

  /// The status for `input`, given the latest outcome.
  static func of(_ input: Input, latest outcome: Outcome?) -> CalculatorStatus {
    guard input.operands != nil else { return .waiting }
    guard let outcome, outcome.input == input else { return .computing }
    switch outcome.value {
    case .success(let sum): return .result(sum)
    case .failure(let error): return .error(error)
    }
  }
}
