import Calculator
import Testing

@Suite("SlowCalculator")
struct SlowCalculatorTests {
  @Test(
    "sums without trapping",
    arguments: [
      (Input(a: 12, b: 30), 42),
      (Input(a: -5, b: 5), 0),
      (Input(a: Int.max, b: 0), Int.max),
      (Input(a: Int.min, b: 0), Int.min),
      (Input(a: Int.max, b: Int.min), -1),
    ])
  func sums(input: Input, expected: Int) async throws {
    #expect(try SlowCalculator.sum(input) == expected)
    #expect(try await SlowCalculator.instant.result(for: input) == expected)
  }

  @Test("overflow is an error, not a trap", arguments: [Input(a: Int.max, b: 1), Input(a: Int.min, b: -1)])
  func overflow(input: Input) async {
    await #expect(throws: CalculatorError.overflow) { try await SlowCalculator.instant.result(for: input) }
  }

  @Test("an incomplete input is reported as such", arguments: [Input(a: 1), Input(b: 2), Input()])
  func incomplete(input: Input) {
    #expect(input.operands == nil)
    #expect(throws: CalculatorError.incompleteInput) { try SlowCalculator.sum(input) }
  }

  @Test("the failing stand-in names the test that used it")
  func failingNamesCaller() async {
    await #expect(throws: CalculatorError.unimplemented("failingNamesCaller()")) {
      try await SlowCalculator.failing().result(for: Input(a: 1, b: 2))
    }
  }

  @Test("errors read as words")
  func descriptions() {
    #expect(CalculatorError.overflow.description == "result out of range")
    #expect(Input(a: 1, b: nil).description == "1 + _")
  }
}
