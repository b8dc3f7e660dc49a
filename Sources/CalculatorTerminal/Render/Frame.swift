/// A whole screenful: the lines from the top, and where the cursor stands.
///
/// ``FormRenderer`` produces frames; ``Screen`` compares each with the last one drawn and writes the difference.
struct Frame: Hashable, Sendable {
  /// A cell of the screen, counted from zero at the top-left corner.
  struct Position: Hashable, Sendable {
    var row: Int
    var column: Int
  }

  /// The lines, top to bottom; rows below the last are blank.
  var lines: [StyledLine]
  /// Where the terminal's cursor is shown; `nil` hides it.
  var cursor: Position?
}
