import Testing

@testable import CalculatorTerminal

@Suite("Screen")
struct ScreenTests {
  static let size = TerminalSize(rows: 6, columns: 20)

  static func frame(_ lines: [String], cursor: Frame.Position? = nil) -> Frame {
    Frame(lines: lines.map { StyledLine($0) }, cursor: cursor)
  }

  /// Draws each frame on a fresh screen and a virtual terminal; returns the outputs.
  static func draw(_ frames: [Frame], colour: Bool = false) -> (outputs: [String], terminal: VirtualTerminal) {
    var screen = Screen(size: size, colour: colour)
    var terminal = VirtualTerminal(rows: size.rows, columns: size.columns)
    var outputs: [String] = []
    for frame in frames {
      let output = screen.draw(frame)
      terminal.apply(output)
      outputs.append(output)
    }
    #expect(terminal.unknown.isEmpty)
    return (outputs, terminal)
  }

  @Test("the first draw clears the screen and writes every line")
  func firstDraw() {
    let (outputs, terminal) = Self.draw([Self.frame(["a 1", "", "b 2"])])
    #expect(outputs[0].hasPrefix(ANSI.clearScreen.text))
    #expect(terminal.text == ["a 1", "", "b 2", "", "", ""])
  }

  @Test("later draws rewrite only the lines that changed")
  func onlyChangedLines() {
    let (outputs, terminal) = Self.draw([
      Self.frame(["title", "a 1", "b 2", "= 3"]),
      Self.frame(["title", "a 1", "b 5", "= 6"]),
    ])
    #expect(outputs[1] == "\u{1b}[3;1Hb 5\u{1b}[K\u{1b}[4;1H= 6\u{1b}[K")
    #expect(terminal.text.prefix(4) == ["title", "a 1", "b 5", "= 6"])
  }

  @Test("nothing changed, nothing written")
  func unchanged() {
    let frame = Self.frame(["a 1"], cursor: .init(row: 0, column: 2))
    #expect(Self.draw([frame, frame]).outputs[1] == "")
  }

  @Test("a shorter line erases the rest of the old one; vanished lines are erased")
  func erasures() {
    let (_, terminal) = Self.draw([
      Self.frame(["computing… (last: 31)", "x", "y"]),
      Self.frame(["= 4"]),
    ])
    #expect(terminal.text == ["= 4", "", "", "", "", ""])
  }

  @Test("lines are cut to the width and the frame to the height")
  func clipping() {
    let long = String(repeating: "0123456789", count: 3)
    let (_, terminal) = Self.draw([Self.frame((0..<10).map { "\($0) \(long)" })])
    #expect(terminal.text.count == Self.size.rows)
    #expect(terminal.text[0] == String("0 \(long)".prefix(Self.size.columns)))
    #expect(terminal.text[5].hasPrefix("5 "))
  }

  @Test("the cursor is shown at the frame's position, hidden while lines are written, and hidden without one")
  func cursor() {
    let (outputs, terminal) = Self.draw([
      Self.frame(["a 1"], cursor: .init(row: 0, column: 3)),
      Self.frame(["a 12"], cursor: .init(row: 0, column: 4)),
      Self.frame(["a 12"], cursor: nil),
    ])
    #expect(outputs[0].hasSuffix(ANSI.moveTo(row: 0, column: 3).text + ANSI.showCursor.text))
    #expect(outputs[1].hasPrefix(ANSI.hideCursor.text))
    #expect(outputs[1].hasSuffix(ANSI.moveTo(row: 0, column: 4).text + ANSI.showCursor.text))
    #expect(outputs[2] == ANSI.hideCursor.text)
    #expect(!terminal.cursorVisible)
  }

  @Test("after a resize the next draw repaints everything")
  func resize() {
    var screen = Screen(size: Self.size, colour: false)
    let frame = Self.frame(["a 1", "b 2"])
    _ = screen.draw(frame)
    screen.resize(to: TerminalSize(rows: 3, columns: 2))
    let output = screen.draw(frame)
    #expect(output.hasPrefix(ANSI.clearScreen.text))
    var terminal = VirtualTerminal(rows: 3, columns: 2)
    terminal.apply(output)
    #expect(terminal.text == ["a", "b", ""])
  }

  @Test("styles become colours, unless colour is off (NO_COLOR)")
  func colour() {
    var line = StyledLine("= ")
    line.append("42", style: .result)
    let frame = Frame(lines: [line])
    let coloured = Self.draw([frame], colour: true)
    #expect(coloured.outputs[0].contains(ANSI.style(.result).text + "42" + ANSI.resetStyle.text))
    #expect(coloured.terminal.text[0] == "= 42")
    let plain = Self.draw([frame], colour: false)
    #expect(!plain.outputs[0].contains("m"))
    #expect(plain.terminal.text[0] == "= 42")
  }

  @Test("a style change alone rewrites the line")
  func styleChange() {
    var focused = StyledLine()
    focused.append("a", style: .focus)
    let (outputs, _) = Self.draw([Frame(lines: [StyledLine("a")]), Frame(lines: [focused])], colour: true)
    #expect(outputs[1].contains(ANSI.style(.focus).text))
  }
}
