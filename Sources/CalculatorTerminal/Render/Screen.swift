/// What the terminal shows now, kept in memory, so each new ``Frame`` is drawn by rewriting only the lines that
/// changed.
///
/// ``draw(_:)`` returns the text to write: cursor moves, changed lines, and erasures of lines that emptied. After
/// ``resize(to:)`` or ``invalidate()`` the next draw clears the screen and writes every line. Lines are cut to the
/// width and the frame to the height; styles become colours unless the screen was made without colour
/// (`NO_COLOR`).
///
/// ```swift
/// var screen = Screen(size: TerminalSize(rows: 24, columns: 80), colour: false)
/// screen.draw(Frame(lines: [StyledLine("a 1"), StyledLine("b 2")]))  // clears, writes both lines
/// screen.draw(Frame(lines: [StyledLine("a 1"), StyledLine("b 3")]))  // "\u{1b}[2;1Hb 3\u{1b}[K"
/// ```
struct Screen: Sendable {
  /// The terminal's size.
  private(set) var size: TerminalSize
  /// Whether styles are drawn in colour.
  let colour: Bool
  /// The lines on the terminal, cut to size; `nil` when unknown, so the next draw repaints everything.
  private(set) var lines: [StyledLine]?
  /// Where the cursor is shown, `nil` while hidden.
  private(set) var cursor: Frame.Position?

  /// A screen of `size` whose content is unknown until the first draw.
  init(size: TerminalSize, colour: Bool) {
    self.size = size
    self.colour = colour
  }

  /// Forgets what the terminal shows, so the next draw repaints everything.
  mutating func invalidate() {
    lines = nil
  }

  /// Takes the terminal's new size; the next draw repaints everything, as the terminal may have rewrapped.
  mutating func resize(to size: TerminalSize) {
    self.size = size
    invalidate()
  }

  /// Makes the screen show `frame` and returns the text that does it on the terminal; empty when nothing changed.
  mutating func draw(_ frame: Frame) -> String {
    let rows = max(size.rows, 0)
    let wanted = frame.lines.prefix(rows).map { $0.truncated(to: size.columns) }
    let target = frame.cursor.flatMap { position in
      (0..<rows).contains(position.row) && (0..<size.columns).contains(position.column) ? position : nil
    }
    var output = ""
    if let shown = lines {
      for row in 0..<max(shown.count, wanted.count) {
        let old = row < shown.count ? shown[row] : StyledLine()
        let new = row < wanted.count ? wanted[row] : StyledLine()
        guard old != new else { continue }
        output += ANSI.moveTo(row: row, column: 0).text
        output += new.width == 0 ? ANSI.clearLine.text : encode(new)
      }
    } else {
      output += ANSI.clearScreen.text
      for (row, line) in wanted.enumerated() where line.width > 0 {
        output += ANSI.moveTo(row: row, column: 0).text + encode(line)
      }
    }
    lines = Array(wanted)
    let linesChanged = !output.isEmpty
    guard linesChanged || target != cursor else { return "" }
    // A visible cursor is hidden while lines are written, so it does not flicker across the screen.
    if linesChanged && cursor != nil { output = ANSI.hideCursor.text + output }
    if let target {
      output += ANSI.moveTo(row: target.row, column: target.column).text
      if cursor == nil || linesChanged { output += ANSI.showCursor.text }
    } else if cursor != nil && !linesChanged {
      output += ANSI.hideCursor.text
    }
    cursor = target
    return output
  }

  /// The line's text with its styles, ending with an erasure of whatever was to its right unless it fills the
  /// row (erasing there would remove its last character on some terminals).
  private func encode(_ line: StyledLine) -> String {
    var text = ""
    for span in line.spans {
      if colour && span.style != .plain {
        text += ANSI.style(span.style).text + span.text + ANSI.resetStyle.text
      } else {
        text += span.text
      }
    }
    return line.width < size.columns ? text + ANSI.clearToEndOfLine.text : text
  }
}
