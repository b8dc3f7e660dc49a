import Calculator
import Testing

@testable import CalculatorTerminal

/// The examples in CalculatorTerminal's doc comments, as written there, with each claimed output checked.
@Suite("CalculatorTerminal's doc examples")
struct DocExampleTests {
  @Test("CalcOptions")
  func calcOptions() throws {
    let options = try CalcOptions.parse(["--engine", "task", "--delay", "250ms"])
    #expect(options.engine == .design(.task))
    #expect(options.delay(for: .task) == .milliseconds(250))
  }

  @Test("FormState")
  func formState() {
    var form = FormState(panelCount: 1)
    #expect(form.apply(.insert("4")) == .edited(panel: 0))
    #expect(form.apply(.focusNext) == .moved)
    #expect(form.focus.field == .b)  // now on b
    #expect(form.panels[0].input == Input(a: 4, b: nil))
  }

  @Test("FormAction")
  func formAction() {
    #expect(FormAction(.character("7")) == .insert("7"))
    #expect(FormAction(.backTab) == .focusPrevious)
    #expect(FormAction(.interrupt) == .quit(.interrupt))
  }

  @Test("FieldState")
  func fieldState() {
    var field = FieldState(name: "a")
    field.insert("1")
    field.insert("2")
    #expect(String(field.text) == "12" && field.value == 12)
    field.insert("-")
    field.insert("3")
    #expect(String(field.text) == "12-3" && field.value == 12)
    #expect(field.message == "not an integer; still using 12")
  }

  @Test("ScriptCommand")
  func scriptCommand() throws {
    #expect(try ScriptCommand.parse("a 12") == .set(.a, 12))
    #expect(try ScriptCommand.parse("b") == .set(.b, nil))
    #expect(try ScriptCommand.parse("wait 250ms") == .wait(.milliseconds(250)))
    #expect(try ScriptCommand.parse("# note") == nil)
    #expect(throws: ScriptCommand.Failure(message: "'twelve' is not an integer")) {
      try ScriptCommand.parse("a twelve")
    }
  }

  @Test("KeyDecoder")
  func keyDecoder() {
    var decoder = KeyDecoder()
    #expect(decoder.decode([0x31, 0x1b, 0x5b]) == [.character("1")])  // `ESC [` waits
    #expect(decoder.decode([0x43]) == [.right])
    #expect(decoder.decode([0x1b]) == [.escape])
  }

  @Test("Spinner, ANSI and StyledLine")
  func rendering() {
    #expect(Spinner.frame(0) == "⠋")
    #expect(Spinner.frame(11) == "⠙")
    #expect(ANSI.moveTo(row: 0, column: 4).text == "\u{1b}[1;5H")
    #expect(ANSI.style(.error).text == "\u{1b}[31m")
    var line = StyledLine("  a ")
    line.append("[12]", style: .focus)
    #expect(line.text == "  a [12]")
  }

  @Test("Screen")
  func screen() {
    var screen = Screen(size: TerminalSize(rows: 24, columns: 80), colour: false)
    let first = screen.draw(Frame(lines: [StyledLine("a 1"), StyledLine("b 2")]))  // clears, writes both lines
    #expect(first.contains("a 1") && first.contains("b 2"))
    #expect(screen.draw(Frame(lines: [StyledLine("a 1"), StyledLine("b 3")])) == "\u{1b}[2;1Hb 3\u{1b}[K")
  }
}
