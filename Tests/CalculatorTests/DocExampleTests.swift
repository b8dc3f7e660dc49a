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
  }

  @Test("SlowCalculator.sum and .instant")
  func sum() async throws {
    #expect(try SlowCalculator.sum(Input(a: 1, b: 2)) == 3)
    #expect(throws: CalculatorError.overflow) { try SlowCalculator.sum(Input(a: .max, b: 1)) }
    let sum = try await SlowCalculator.instant.result(for: Input(a: 1, b: 2))
    #expect(sum == 3)
  }
}
