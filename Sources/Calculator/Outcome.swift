/// What one calculation produced: the input it was for, and the sum or the reason there is none.
///
/// The engines report outcomes; ``CalculatorModel/status`` compares an outcome's input with the current input to
/// tell a fresh result from an old one.
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

  /// Runs `calculator` for a complete `input`; `nil` for an incomplete one (the model waits) or when the
  /// calculation was cancelled (a newer input superseded it).
  ///
  /// A ``CalculatorError`` becomes a failed outcome. If the calling task is cancelled, the result is `nil`
  /// whatever the calculator returned or threw, so a superseded calculation reports nothing.
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

/// What the result area shows.
///
/// ``CalculatorModel/status`` derives it from the current input and the latest outcome; a view switches over it.
///
/// ```swift
/// print(CalculatorStatus.result(42))              // result 42
/// print(CalculatorStatus.error(.overflow))        // error result out of range
/// ```
public enum CalculatorStatus: Equatable, Sendable, CustomStringConvertible {
  /// A field holds no number.
  case waiting
  /// The input changed and the debounce waits for it to settle before calculating it (the debounce engine only;
  /// the last result stays visible meanwhile).
  case settling
  /// The current input is being calculated (the last result stays visible meanwhile).
  case computing
  /// The current input's sum.
  case result(Int)
  /// The current input has no sum.
  case error(CalculatorError)

  /// `waiting`, `computing`, `result 42`, `error result out of range`: the words `calc` prints.
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
