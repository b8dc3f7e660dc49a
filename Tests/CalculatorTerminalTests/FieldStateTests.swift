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
      ("-", nil, "not an integer"),
      ("12-3", 12, "not an integer; still using 12"),
      ("--", nil, "not an integer"),
      ("9223372036854775807", Int.max, nil),
      ("-9223372036854775808", Int.min, nil),
      (
        "99999999999999999999", 999_999_999_999_999_999,
        "out of range; still using 999999999999999999"
      ),
      (
        "-99999999999999999999", -999_999_999_999_999_999,
        "out of range; still using -999999999999999999"
      ),
    ] as [(String, Int?, String?)])
  func typing(text: String, value: Int?, message: String?) {
    let field = Self.typed(Self.text(text))
    #expect(String(field.text) == text)
    #expect(field.value == value)
    #expect(field.message == message)
    #expect(field.cursor == text.count)
  }

  @Test(
    "every printable character goes in, so a paste is never quietly another number",
    arguments: [
      ("2.5e3", 2, "not an integer; still using 2"),
      ("1,000", 1, "not an integer; still using 1"),
      ("1a+ 2é", 1, "not an integer; still using 1"),
      ("x", nil, "not an integer"),
      ("+12", 12, nil),  // as a script line reads `b +12`
      ("+99999999999999999999", 999_999_999_999_999_999, "out of range; still using 999999999999999999"),
    ] as [(String, Int?, String?)])
  func everyCharacterGoesIn(text: String, value: Int?, message: String?) {
    let field = Self.typed(Self.text(text))
    #expect(String(field.text) == text)
    #expect(field.value == value)
    #expect(field.message == message)
  }

  @Test("a full field refuses more, saying so until the next key; the message fits beside the field at 80 columns")
  func maximumLength() {
    var field = Self.typed(Self.text(String(repeating: "1", count: FieldState.maximumLength + 5)))
    #expect(field.text.count == FieldState.maximumLength)
    #expect(field.message == "full: \(FieldState.maximumLength) characters at most")
    #expect(FormRenderer.fieldColumn + FormRenderer.fieldWidth + 3 + field.message!.count <= 80)
    field.keyPressed()
    #expect(field.message == "out of range; still using 1111111111111111111")
    // The longest out-of-range message still fits beside the field at 80 columns.
    _ = field.show(Int.min)
    for _ in 0..<3 { field.insert("9") }
    #expect(field.message == "out of range; still using -9223372036854775808")
    #expect(FormRenderer.fieldColumn + FormRenderer.fieldWidth + 3 + field.message!.count <= 80)
  }

  @Test("a key with no use says so on the field's line until the next key")
  func unusedKey() {
    var form = FormState()
    form.apply(.insert("4"))
    form.apply(.ignore)
    #expect(form.panels[0].a.message == "that key does nothing here")
    #expect(form.panels[0].a.value == 4)
    form.apply(.insert("2"))
    #expect(form.panels[0].a.message == nil)
    #expect(form.panels[0].a.value == 42)
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
