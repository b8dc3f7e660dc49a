/// The escape sequences `calc` writes to the terminal: the only place they are spelled.
///
/// ```swift
/// ANSI.moveTo(row: 0, column: 4).text   // "\u{1b}[1;5H"
/// ANSI.style(.error).text               // "\u{1b}[31m"
/// ```
enum ANSI: Hashable, Sendable {
  /// Moves the cursor to a cell, counted from zero (the sequence counts from one).
  case moveTo(row: Int, column: Int)
  /// Erases the whole screen.
  case clearScreen
  /// Erases from the cursor to the end of its line.
  case clearToEndOfLine
  /// Erases the cursor's line.
  case clearLine
  /// Hides the cursor.
  case hideCursor
  /// Shows the cursor.
  case showCursor
  /// Switches to the alternate screen, which the terminal discards on leaving, so the shell's screen comes back.
  case enterAlternateScreen
  /// Switches back to the normal screen.
  case leaveAlternateScreen
  /// Draws the following text in a style.
  case style(TextStyle)
  /// Draws the following text plain.
  case resetStyle

  private static let introducer = "\u{1b}["

  /// The bytes to write, as text.
  var text: String {
    switch self {
    case .moveTo(let row, let column): "\(Self.introducer)\(row + 1);\(column + 1)H"
    case .clearScreen: "\(Self.introducer)2J"
    case .clearToEndOfLine: "\(Self.introducer)K"
    case .clearLine: "\(Self.introducer)2K"
    case .hideCursor: "\(Self.introducer)?25l"
    case .showCursor: "\(Self.introducer)?25h"
    case .enterAlternateScreen: "\(Self.introducer)?1049h"
    case .leaveAlternateScreen: "\(Self.introducer)?1049l"
    case .resetStyle: "\(Self.introducer)0m"
    case .style(let style):
      switch style {
      case .plain: "\(Self.introducer)0m"
      case .title: "\(Self.introducer)1m"
      case .focus: "\(Self.introducer)1;36m"
      case .result: "\(Self.introducer)1;32m"
      case .computing: "\(Self.introducer)33m"
      case .error: "\(Self.introducer)31m"
      case .hint: "\(Self.introducer)2m"
      }
    }
  }

  /// What puts a terminal back as the shell expects it: plain text, a visible cursor, the normal screen.
  static let restore = [ANSI.resetStyle, .showCursor, .leaveAlternateScreen].map(\.text).joined()
  /// What prepares the terminal for the form: the alternate screen, cleared, with the cursor hidden.
  static let prepare = [ANSI.enterAlternateScreen, .hideCursor, .clearScreen].map(\.text).joined()
}
