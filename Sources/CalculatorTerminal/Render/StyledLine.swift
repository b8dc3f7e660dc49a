/// One line of the screen: runs of text, each with a ``TextStyle``.
///
/// Lines are compared whole, so the ``Screen`` rewrites a line when its text or its styles change. Widths count
/// characters: every character the form draws — digits, `-`, box lines, the spinner's braille — takes one
/// column.
///
/// ```swift
/// var line = StyledLine("  a ")
/// line.append("[12]", style: .focus)
/// line.text        // "  a [12]"
/// ```
struct StyledLine: Hashable, Sendable {
  /// A run of text in one style.
  struct Span: Hashable, Sendable {
    var text: String
    var style: TextStyle
  }

  /// The runs, left to right; never an empty one.
  private(set) var spans: [Span] = []

  /// An empty line.
  init() {}

  /// A line of `text` in `style`.
  init(_ text: String, style: TextStyle = .plain) {
    append(text, style: style)
  }

  /// Appends `text` in `style`, merging it into the last run when the style is the same.
  mutating func append(_ text: String, style: TextStyle = .plain) {
    guard !text.isEmpty else { return }
    if let last = spans.last, last.style == style {
      spans[spans.count - 1].text += text
    } else {
      spans.append(Span(text: text, style: style))
    }
  }

  /// The line's text without styles.
  var text: String { spans.map(\.text).joined() }

  /// The number of columns the line takes.
  var width: Int { spans.reduce(0) { $0 + $1.text.count } }

  /// The line cut to at most `columns` columns.
  func truncated(to columns: Int) -> StyledLine {
    var line = StyledLine()
    var room = max(columns, 0)
    for span in spans where room > 0 {
      let kept = span.text.prefix(room)
      line.append(String(kept), style: span.style)
      room -= kept.count
    }
    return line
  }
}
