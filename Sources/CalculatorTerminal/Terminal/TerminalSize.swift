/// The size of the terminal window, in character cells.
struct TerminalSize: Hashable, Sendable {
  var rows: Int
  var columns: Int

  /// The size a terminal has when it cannot say: the classic 24 × 80.
  static let fallback = TerminalSize(rows: 24, columns: 80)

  /// The size of the terminal on `descriptor`, or ``fallback`` when it is not a terminal or reports zero.
  static func of(descriptor: Int32) -> TerminalSize {
    guard let window = Platform.windowSize(of: descriptor), window.rows > 0, window.columns > 0 else {
      return fallback
    }
    return TerminalSize(rows: window.rows, columns: window.columns)
  }
}
