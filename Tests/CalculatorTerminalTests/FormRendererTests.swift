import Calculator
import Testing

@testable import CalculatorTerminal

@Suite("FormRenderer")
struct FormRendererTests {
  static let renderer = FormRenderer(title: "calc · engine task")
  static let help = "q Esc Ctrl-C quit · Tab, Enter or ↓ next field · Shift-Tab or ↑ previous"
  static let help2 = "type an integer · ← → Home End move · Backspace Delete erase · Ctrl-Z suspend"

  static func form(_ keys: [Key], panels: Int = 1) -> FormState {
    var form = FormState(panelCount: panels)
    for key in keys { form.apply(FormAction(key)) }
    return form
  }

  /// Renders into an in-memory screen 100 × 30 and returns its non-trailing text.
  static func screen(_ form: FormState, _ results: [PanelResult], tick: Int = 0) -> [String] {
    VirtualTerminal.showing(renderer.render(form, results: results, tick: tick), rows: 30)
  }

  static let empty = String(repeating: " ", count: 24)

  @Test("the key help names every key the form binds, in lines of at most 80 columns")
  func helpNamesEveryKey() {
    let help = FormRenderer.help.joined(separator: " ")
    for key in [
      "Tab", "Enter", "↓", "Shift-Tab", "↑", "type", "←", "→", "Home", "End", "Backspace", "Delete", "Ctrl-Z",
      "q", "Esc",
      "Ctrl-C",
    ] {
      #expect(help.contains(key), "the help does not name \(key)")
    }
    #expect(FormRenderer.help.allSatisfy { $0.count <= 80 })
  }

  @Test("an empty form waits for both numbers and shows the key help")
  func emptyForm() {
    #expect(
      Self.screen(Self.form([]), [PanelResult(status: .waiting)]) == [
        "calc · engine task",
        "",
        "  › a [\(Self.empty)]",
        "    b [\(Self.empty)]",
        "    waiting for both numbers",
        "",
        Self.help, Self.help2,
      ])
  }

  @Test(
    "the result line, for each status",
    arguments: [
      (PanelResult(status: .result(42)), 0, "    = 42"),
      (PanelResult(status: .computing, last: 31), 0, "    ⠋ computing… (last: 31)"),
      (PanelResult(status: .computing, last: 31), 3, "    ⠸ computing… (last: 31)"),
      (PanelResult(status: .computing), 1, "    ⠙ computing…"),
      (PanelResult(status: .settling, last: 31), 2, "    settling: waits for the typing to stop (last: 31)"),
      (PanelResult(status: .settling), 0, "    settling: waits for the typing to stop"),
      (PanelResult(status: .waiting, last: 7), 0, "    waiting for both numbers"),
      (PanelResult(status: .error(.overflow), last: 7), 0, "    error: result out of range"),
    ])
  func resultLine(result: PanelResult, tick: Int, line: String) {
    #expect(Self.screen(Self.form([]), [result], tick: tick)[4] == line)
  }

  @Test("a field that is not an integer says so next to it, with the number still used")
  func fieldMessage() {
    let form = Self.form(Array("12-3".map(Key.character)) + [.tab])
    let lines = Self.screen(form, [PanelResult(status: .waiting)])
    #expect(lines[2] == "    a [12-3                    ]  not an integer; still using 12")
  }

  @Test("the cursor stands in the focused field at the text cursor")
  func cursor() {
    let form = Self.form([.tab, .character("3"), .character("0"), .left])
    let frame = Self.renderer.render(form, results: [PanelResult(status: .waiting)], tick: 0)
    #expect(frame.cursor == Frame.Position(row: 3, column: FormRenderer.fieldColumn + 1))
    #expect(VirtualTerminal.showing(frame)[3] == "  › b [30                      ]")
  }

  @Test("a counts line adds up at 80 columns, however large its numbers")
  func countsFit() {
    var result = PanelResult(status: .result(3))
    result.label = "pipeline"
    result.counts = .init(started: 12_345, cancelled: 2345, superseded: 9000, shown: 999)
    let frame = Self.renderer.render(
      Self.form([]), results: [result, result], tick: 0, size: TerminalSize(rows: 30, columns: 80))
    let line = VirtualTerminal.showing(frame, columns: 80)[6]
    #expect(line == "    12345 started = 2345 cancelled + 9000 superseded + 999 shown + 1 running")
  }

  @Test("with two panels, each has a heading, its fields and its result")
  func twoPanels() {
    let form = Self.form([.tab, .tab, .character("5")], panels: 2)
    let lines = Self.screen(form, [PanelResult(status: .result(1)), PanelResult(status: .result(1))])
    #expect(
      lines == [
        "calc · engine task",
        "",
        "Panel 1 of 2 · one shared calculation",
        "    a [\(Self.empty)]",
        "    b [\(Self.empty)]",
        "    = 1",
        "",
        "Panel 2 of 2 · one shared calculation",
        "  › a [5                       ]",
        "    b [\(Self.empty)]",
        "    = 1",
        "",
        Self.help, Self.help2,
      ])
  }

  @Test("on a small screen lines give way in a fixed order, and a long line is cut after a whole word")
  func smallScreens() {
    let shared = Self.form([], panels: 2)
    let results = [PanelResult(status: .waiting), PanelResult(status: .waiting)]
    let full = VirtualTerminal.showing(Self.renderer.render(shared, results: results, tick: 0))
    // Title, blank, header, a, b, result, blank, header, a, b, result, blank, two help lines.
    #expect(full.count == 14)
    func rows(_ count: Int) -> [String] {
      VirtualTerminal.showing(
        Self.renderer.render(shared, results: results, tick: 0, size: TerminalSize(rows: count, columns: 80)))
    }
    #expect(rows(11) == full.filter { !$0.isEmpty })
    #expect(rows(10) == rows(11).filter { $0 != Self.help2 })
    // The help line that says how to quit stays while the form is shown.
    #expect(rows(9) == rows(10).filter { !$0.hasPrefix("Panel 2") })
    #expect(rows(8) == rows(10).filter { !$0.hasPrefix("Panel") })
    #expect(rows(7) == rows(8).filter { $0 != "calc · engine task" })
    #expect(rows(7).last == Self.help)
    #expect(rows(6) == ["q quits; enlarge the window", "(at least 32 × 7)"])

    // A field's complaint, at 60 columns: cut after a whole word.
    let typed = Self.form([.character("1"), .character("-"), .character("3")])
    let line = VirtualTerminal.showing(
      Self.renderer.render(
        typed, results: [PanelResult(status: .waiting)], tick: 0, size: TerminalSize(rows: 30, columns: 60)))[2]
    let whole = VirtualTerminal.showing(
      Self.renderer.render(typed, results: [PanelResult(status: .waiting)], tick: 0), columns: 200)[2]
    #expect(line.count <= 60 && line.hasSuffix("…"), "\(line)")
    let kept = String(line.dropLast())
    #expect(whole.hasPrefix(kept) && whole.dropFirst(kept.count).first == " ", "cut mid-word: \(line)")
  }

  @Test("the focused field, results and errors are styled; the rest is plain")
  func styles() {
    let form = Self.form([])
    let frame = Self.renderer.render(form, results: [PanelResult(status: .error(.overflow))], tick: 0)
    #expect(frame.lines[2].spans.contains { $0.style == .focus })
    #expect(!frame.lines[3].spans.contains { $0.style == .focus })
    #expect(frame.lines[4].spans.contains { $0.style == .error })
  }
}
