/// What one calculation produced: the input it was for, and the sum or the reason there is none.
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
public enum CalculatorStatus: Equatable, Sendable, CustomStringConvertible {
  /// A field holds no number.
  case waiting
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
    case .computing: "computing"
    case .result(let sum): "result \(sum)"
    case .error(let error): "error \(error)"
    }
  }

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
