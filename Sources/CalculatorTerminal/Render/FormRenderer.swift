import Calculator

/// Draws the form — title, each panel's fields and result, the key help — as a ``Frame``.
///
/// It is a pure function of the view state, the models' results and the spinner's tick, so tests draw its frames
/// through a ``Screen`` into a terminal emulator and read what it shows. The focused field is marked with `›` (and
/// in colour when colour is on), and the frame's cursor stands at its text cursor.
///
/// ```swift
/// let renderer = FormRenderer(title: "calc · engine pipeline")
/// let frame = renderer.render(form, results: [PanelResult(status: .result(42))], tick: 0)
/// // lines: "calc · engine pipeline", "", "  › a [12 …]", "    b [30 …]", "    = 42", "", "Tab, Enter or ↓ move · …"
/// ```
struct FormRenderer: Sendable {
  /// The first line: the program and its engine; lines after a `\n` follow it in the hint style.
  var title: String

  /// The key help: every key the form binds (``FormAction``), in two lines of at most 80 columns. The first
  /// starts with how to quit, and stays on screen however small the window (see ``render(_:results:tick:size:)``).
  static let help = [
    "q Esc Ctrl-C quit · Tab, Enter or ↓ next field · Shift-Tab or ↑ previous",
    "type an integer · ← → Home End move · Backspace Delete erase · Ctrl-Z suspend",
  ]
  /// Columns inside a field's brackets: its longest text, and a cell for the cursor after it.
  static let fieldWidth = FieldState.maximumLength + 1
  /// Where a field's text starts: after `"  › a ["`.
  static let fieldColumn = 7

  /// How a line gives way on a small screen: lower ranks are dropped first, bottom-most first.
  private enum Rank: Int, Comparable {
    case blank, secondHelp, counts, panelHeader, title
    /// Fields, results, and the help line that says how to quit: never dropped; when they do not fit, the frame
    /// asks for a larger window.
    case essential

    static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
  }

  /// The narrowest screen the form is drawn on: a field with its marker and brackets.
  static let minimumColumns = fieldColumn + fieldWidth + 1

  /// The frame for `form`, with `results[i]` under panel `i` and the spinner at `tick`, fitted to `size` when
  /// given.
  ///
  /// With more results than panels (the designs side by side on one input), the one panel's fields come first,
  /// then each result under its label, with its counts on the next line.
  ///
  /// On a small screen, lines give way in a fixed order — blank lines, the second help line, the counts, the
  /// panel headers, the title — and a line too wide is cut at a word boundary, ending in `…`; the first help line,
  /// which starts with how to quit, stays. When the fields, results and that line do not fit (fewer rows than
  /// they need, or fewer than ``minimumColumns`` columns), the frame says `enlarge the window` instead, and how
  /// to quit.
  func render(_ form: FormState, results: [PanelResult], tick: Int, size: TerminalSize? = nil) -> Frame {
    var lines: [(line: StyledLine, rank: Rank)] = title.split(separator: "\n").enumerated().map { index, text in
      (StyledLine(String(text), style: index == 0 ? .title : .hint), .title)
    }
    lines.append((StyledLine(), .blank))
    var cursorLine: (index: Int, column: Int)?
    func addFields(of panel: FormState.Panel, index: Int) {
      for name in FormState.FieldName.allCases {
        let focused = form.focus == FormState.Focus(panel: index, field: name)
        if focused { cursorLine = (lines.count, Self.fieldColumn + panel[name].cursor) }
        lines.append((fieldLine(panel[name], focused: focused), .essential))
      }
    }
    if results.count > form.panels.count, let panel = form.panels.first {
      addFields(of: panel, index: 0)
      lines.append((StyledLine(), .blank))
      let width = results.compactMap { $0.label?.count }.max() ?? 0
      for result in results {
        lines.append((resultLine(result, tick: tick, label: result.label.map { $0.padding(to: width) }), .essential))
        let indent = "    " + String(repeating: " ", count: width + 2)
        if let counts = result.counts {
          // Every calculation started is in one of the four, so the line adds up whatever the typing speed.
          let text =
            "\(counts.started) started = \(counts.cancelled) cancelled + \(counts.superseded) superseded"
            + " + \(counts.shown) shown + \(counts.running) running"
          // Long counts give up the indent before any of their words, so that they still add up at 80 columns.
          let line = indent.count + text.count <= 80 ? indent + text : "    " + text
          lines.append((StyledLine(line, style: .hint), .counts))
        } else if let note = result.note {
          lines.append((StyledLine(indent + note, style: .hint), .counts))
        }
      }
    } else {
      for (index, panel) in form.panels.enumerated() {
        if form.panels.count > 1 {
          let header = "Panel \(index + 1) of \(form.panels.count) · one shared calculation"
          lines.append((StyledLine(header, style: .hint), .panelHeader))
        }
        addFields(of: panel, index: index)
        let result = index < results.count ? results[index] : PanelResult(status: .waiting)
        lines.append((resultLine(result, tick: tick), .essential))
        lines.append((StyledLine(), .blank))
      }
      // The last panel's blank line separates it from the help.
      lines.removeLast()
    }
    lines.append((StyledLine(), .blank))
    lines.append((StyledLine(Self.help[0], style: .hint), .essential))
    lines.append((StyledLine(Self.help[1], style: .hint), .secondHelp))
    guard let size else {
      return Frame(
        lines: lines.map(\.line), cursor: cursorLine.map { Frame.Position(row: $0.index, column: $0.column) })
    }
    return Self.fit(lines, cursorLine: cursorLine, to: size)
  }

  private static func fit(
    _ all: [(line: StyledLine, rank: Rank)], cursorLine: (index: Int, column: Int)?, to size: TerminalSize
  ) -> Frame {
    var kept = Array(all.indices)
    while kept.count > size.rows {
      // The lowest rank goes first; among equals, the bottom-most.
      guard let drop = kept.indices.min(by: { (all[kept[$0]].rank, -$0) < (all[kept[$1]].rank, -$1) }),
        all[kept[drop]].rank != .essential
      else { break }
      kept.remove(at: drop)
    }
    guard kept.count <= size.rows, size.columns >= minimumColumns else {
      let essential = all.filter { $0.rank == .essential }.count
      let message = ["q quits; enlarge the window", "(at least \(minimumColumns) × \(essential))"]
      return Frame(lines: message.prefix(max(size.rows, 0)).map { StyledLine($0).cutAtWord(to: size.columns) })
    }
    let cursor = cursorLine.flatMap { cursor in
      kept.firstIndex(of: cursor.index).map { Frame.Position(row: $0, column: cursor.column) }
    }
    return Frame(lines: kept.map { all[$0].line.cutAtWord(to: size.columns) }, cursor: cursor)
  }

  /// `  › a [12-3        ]  not an integer; still using 12`
  private func fieldLine(_ field: FieldState, focused: Bool) -> StyledLine {
    let padding = String(repeating: " ", count: max(Self.fieldWidth - field.text.count, 0))
    var line = StyledLine("  ")
    let style: TextStyle = focused ? .focus : .plain
    line.append("\(focused ? "›" : " ") \(field.name) [", style: style)
    line.append(String(field.text) + padding)
    line.append("]", style: style)
    if let message = field.message {
      line.append("  ")
      line.append(message, style: .error)
    }
    return line
  }

  /// `    = 42`, `    ⠋ computing… (last: 31)`, `    settling: waits for the typing to stop (last: 31)`,
  /// `    waiting for both numbers`, `    error: result out of range`.
  private func resultLine(_ result: PanelResult, tick: Int, label: String? = nil) -> StyledLine {
    var line = StyledLine("    ")
    if let label { line.append(label + "  ") }
    switch result.status {
    case .waiting:
      line.append("waiting for both numbers", style: .hint)
    case .settling:
      line.append("settling: waits for the typing to stop", style: .hint)
      if let last = result.last { line.append(" (last: \(last))", style: .hint) }
    case .computing:
      line.append("\(Spinner.frame(tick)) computing…", style: .computing)
      if let last = result.last { line.append(" (last: \(last))", style: .hint) }
    case .result(let sum):
      line.append("= ")
      line.append(String(sum), style: .result)
    case .error(let error):
      line.append("error: \(error)", style: .error)
    }
    return line
  }
}

extension StyledLine {
  /// The line cut to at most `columns` columns at a word boundary, ending in `…`; a line that fits is unchanged.
  /// A first word longer than the room is cut where the room ends.
  fileprivate func cutAtWord(to columns: Int) -> StyledLine {
    guard width > columns else { return self }
    guard columns > 1 else { return truncated(to: columns) }
    let text = Array(self.text)
    // The last space that leaves room for the ellipsis, with a word before it.
    var cut = columns - 1
    while cut > 0, text[cut] != " " { cut -= 1 }
    while cut > 0, text[cut - 1] == " " { cut -= 1 }
    var line = truncated(to: cut > 0 ? cut : columns - 1)
    line.append("…", style: .hint)
    return line
  }
}

extension String {
  /// The string with spaces after it up to `width` characters.
  fileprivate func padding(to width: Int) -> String {
    self + String(repeating: " ", count: max(width - count, 0))
  }
}
