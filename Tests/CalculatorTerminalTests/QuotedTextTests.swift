import Testing

@testable import CalculatorTerminal

@Suite("QuotedText")
struct QuotedTextTests {
  @Test(
    "input is quoted with control characters escaped",
    arguments: [
      ("12", "'12'"), ("", "''"), ("a\tb", #"'a\tb'"#), ("\u{1B}[2J", #"'\e[2J'"#), ("x\r", #"'x\r'"#),
      ("\u{7}", #"'\u{7}'"#), ("\u{7F}", #"'\u{7F}'"#), ("\u{9B}31m", #"'\u{9B}31m'"#), ("\u{FEFF}a", #"'\u{FEFF}a'"#),
      ("é🙂", "'é🙂'"),
    ])
  func escapes(text: String, shown: String) {
    #expect(QuotedText(text).description == shown)
  }

  @Test("long input is cut after the limit and says how long it was")
  func cutsLongInput() {
    let text = String(repeating: "x", count: QuotedText.limit + 1)
    let shown = QuotedText(text).description
    #expect(shown == "'" + String(repeating: "x", count: QuotedText.limit) + "…' (80 of 81 characters)")
    #expect(QuotedText(String(repeating: "x", count: QuotedText.limit)).description.count == QuotedText.limit + 2)
  }
}
