import Testing

@testable import CalculatorTerminal

@Suite("FieldState")
struct FieldStateTests {
  /// Types `keys` into a fresh field named `a`.
  static func typed(_ keys: [Key]) -> FieldState {
    var form = FormState()
    for key in keys { form.apply(FormAction(key)) }
    return form.panels[0].a
  }

  static func text(_ text: String) -> [Key] { text.map(Key.character) }

  @Test(
    "typing keeps the last valid number and says what is wrong",
    arguments: [
      ("", nil, nil),
      ("42", 42, nil),
      ("-7", -7, nil),
      ("-", nil, "a: '-' is not an integer"),
      ("12-3", 12, "a: '12-3' is not an integer; still using 12"),
      ("--", nil, "a: '--' is not an integer"),
      ("9223372036854775807", Int.max, nil),
      ("-9223372036854775808", Int.min, nil),
      (
        "99999999999999999999", 999_999_999_999_999_999,
        "a: '99999999999999999999' is out of range for an integer; still using 999999999999999999"
      ),
      (
        "-99999999999999999999", -999_999_999_999_999_999,
        "a: '-99999999999999999999' is out of range for an integer; still using -999999999999999999"
      ),
    ] as [(String, Int?, String?)])
  func typing(text: String, value: Int?, message: String?) {
    let field = Self.typed(Self.text(text))
    #expect(String(field.text) == text)
    #expect(field.value == value)
    #expect(field.message == message)
    #expect(field.cursor == text.count)
  }

  @Test("only digits and minus go in")
  func onlyDigitsAndMinus() {
    let field = Self.typed(Self.text("1a+ 2é"))
    #expect(String(field.text) == "12")
    #expect(field.value == 12)
  }

  @Test("a field takes at most its maximum length")
  func maximumLength() {
    let field = Self.typed(Self.text(String(repeating: "1", count: FieldState.maximumLength + 5)))
    #expect(field.text.count == FieldState.maximumLength)
  }

  @Test(
    "cursor keys move within the text and editing happens at the cursor",
    arguments: [
      (text("123") + [.left, .backspace], "13", 1),
      (text("123") + [.home, .delete], "23", 0),
      (text("123") + [.home, .right, .character("9")], "1923", 2),
      (text("123") + [.left, .left, .end, .backspace], "12", 2),
      (text("12") + [.left, .left, .left, .backspace], "12", 0),
      (text("12") + [.right, .delete], "12", 2),
      (text("12") + [.home, .character("-")], "-12", 1),
    ] as [([Key], String, Int)])
  func cursorEditing(keys: [Key], text: String, cursor: Int) {
    let field = Self.typed(keys)
    #expect(String(field.text) == text)
    #expect(field.cursor == cursor)
  }

  @Test("emptying a field gives nil: the model waits")
  func emptyIsNil() {
    let field = Self.typed(Self.text("5") + [.backspace])
    #expect(field.text.isEmpty)
    #expect(field.value == nil)
    #expect(field.message == nil)
    // After emptying, the last valid state is "no number", so a bad text keeps nil.
    #expect(Self.typed(Self.text("5") + [.backspace, .character("-")]).value == nil)
  }

  @Test("showing the model's number rewrites the text only when the number differs")
  func showNumber() {
    var field = Self.typed(Self.text("12-3"))
    let unchanged = field.show(12)
    #expect(!unchanged)
    #expect(String(field.text) == "12-3")
    let changed = field.show(5)
    #expect(changed)
    #expect(String(field.text) == "5")
    #expect(field.cursor == 1)
    #expect(field.message == nil)
    let cleared = field.show(nil)
    #expect(cleared)
    #expect(field.text.isEmpty)
  }
}
