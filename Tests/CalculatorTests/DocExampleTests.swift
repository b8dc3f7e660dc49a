import Calculator
import Testing

/// The examples in Calculator's doc comments that claim an output, as written there, with each output checked.
/// (`SlowCalculator.live`'s example waits a real second; `CalculatorModelTests` covers it on a test clock.)
@Suite("Calculator's doc examples")
struct DocExampleTests {
  @Test("Input.operands")
  func operands() {
    var input = Input(a: 1, b: nil)
    #expect(input.operands == nil)  // the model waits
    input.b = 2
    #expect(input.operands.map { [$0.0, $0.1] } == [1, 2])
    #expect(input.description == "1 + 2")
  }

  @Test("SlowCalculator.sum and .instant")
  func sum() async throws {
    #expect(try SlowCalculator.sum(Input(a: 1, b: 2)) == 3)
    #expect(throws: CalculatorError.overflow) { try SlowCalculator.sum(Input(a: .max, b: 1)) }
    let sum = try await SlowCalculator.instant.result(for: Input(a: 1, b: 2))
    #expect(sum == 3)
  }

  @Test("CalculatorError and CalculatorStatus in words")
  func words() {
    #expect(CalculatorError.overflow.description == "result out of range")
    #expect(CalculatorStatus.error(.overflow).description == "error result out of range")
  }

  @Test("Outcome.calculate")
  func outcome() async {
    let outcome = await Outcome.calculate(Input(a: 1, b: 2), with: .instant)
    #expect(outcome?.value == .success(3))
  }

  @Test("CalculatorDesign")
  func design() {
    #expect(CalculatorDesign(rawValue: "task") == .task)
    #expect(CalculatorDesign.task.defaultDelay == .seconds(1))
    #expect(CalculatorDesign.allCases.map(\.rawValue) == ["pipeline", "debounce", "task", "shared"])
  }
}
