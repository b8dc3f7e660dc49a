import Calculator

/// Draws the form — title, each panel's fields and result, the key help — as a ``Frame``.
///
/// It is a pure function of the view state, the models' results and the spinner's tick, so tests render into
/// an in-memory ``Screen`` and read the text. The focused field is marked with `›` (and in colour when colour is
/// on), and the frame's cursor stands at its text cursor.
///
/// ```swift
/// let renderer = FormRenderer(title: "calc · engine pipeline")
/// renderer.render(form, results: [PanelResult(status: .result(42))], tick: 0).text
/// // ["calc · engine pipeline", "", "  › a [12 …]", "    b [30 …]", "    = 42", "", "Tab, Enter or ↓ move · …"]
/// ```
struct FormRenderer: Sendable {
  /// The first line: the program and its engine.
  var title: String

  /// The key help: every key the form binds (``FormAction``), in two lines of at most 80 columns.
  static let help = [
    "Tab, Enter or ↓ next field · Shift-Tab or ↑ previous · digits and - type",
    "← → Home End move · Backspace Delete erase · q, Esc or Ctrl-C quit",
  ]
  /// Columns inside a field's brackets.
  static let fieldWidth = FieldState.maximumLength
  /// Where a field's text starts: after `"  › a ["`.
  static let fieldColumn = 7

  /// The frame for `form`, with `results[i]` under panel `i` and the spinner at `tick`.
  ///
  /// With more results than panels (the designs side by side on one input), the one panel's fields come first,
  /// then each result under its label, with its counts on the next line.
  func render(_ form: FormState, results: [PanelResult], tick: Int) -> Frame {
    var lines = [StyledLine(title, style: .title), StyledLine()]
    var cursor: Frame.Position?
    if results.count > form.panels.count, let panel = form.panels.first {
      for name in FormState.FieldName.allCases {
        let focused = form.focus == FormState.Focus(panel: 0, field: name)
        if focused { cursor = Frame.Position(row: lines.count, column: Self.fieldColumn + panel[name].cursor) }
        lines.append(fieldLine(panel[name], focused: focused))
      }
      lines.append(StyledLine())
      let width = results.compactMap { $0.label?.count }.max() ?? 0
      for result in results {
        lines.append(resultLine(result, tick: tick, label: result.label.map { $0.padding(to: width) }))
        if let counts = result.counts {
          lines.append(
            StyledLine(
              "    " + String(repeating: " ", count: width + 2)
                + "\(counts.started) started · \(counts.cancelled) cancelled · \(counts.shown) shown",
              style: .hint))
        }
      }
      lines.append(StyledLine())
      lines += Self.help.map { StyledLine($0, style: .hint) }
      return Frame(lines: lines, cursor: cursor)
    }
    for (index, panel) in form.panels.enumerated() {
      if form.panels.count > 1 {
        lines.append(
          StyledLine("Panel \(index + 1) of \(form.panels.count) · one shared calculation", style: .hint))
      }
      for name in FormState.FieldName.allCases {
        let focused = form.focus == FormState.Focus(panel: index, field: name)
        if focused {
          cursor = Frame.Position(row: lines.count, column: Self.fieldColumn + panel[name].cursor)
        }
        lines.append(fieldLine(panel[name], focused: focused))
      }
      lines.append(resultLine(index < results.count ? results[index] : PanelResult(status: .waiting), tick: tick))
      lines.append(StyledLine())
    }
    lines += Self.help.map { StyledLine($0, style: .hint) }
    return Frame(lines: lines, cursor: cursor)
  }

  /// `  › a [12-3        ]  a: '12-3' is not an integer; still using 12`
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

extension String {
  /// The string with spaces after it up to `width` characters.
  fileprivate func padding(to width: Int) -> String {
    self + String(repeating: " ", count: max(width - count, 0))
  }
}
