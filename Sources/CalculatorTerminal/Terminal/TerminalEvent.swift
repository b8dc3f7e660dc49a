/// Something the terminal did: a key was pressed, the window was resized, or input ended.
enum TerminalEvent: Hashable, Sendable {
  /// A key, decoded by ``KeyDecoder``.
  case key(Key)
  /// The window now has this size (`SIGWINCH`).
  case resized(TerminalSize)
  /// Standard input closed or failed: the terminal is gone.
  case inputEnded
}
