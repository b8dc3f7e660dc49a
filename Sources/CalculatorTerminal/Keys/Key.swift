/// One key press, as the interactive form understands it.
///
/// ``KeyDecoder`` turns the bytes a terminal sends into keys; ``FormAction/init(_:)`` decides what each key does
/// to the form. Digits, `-`, `q` and any other printable text arrive as ``character(_:)``.
enum Key: Hashable, Sendable {
  /// A printable character: a digit, `-`, `q`, or any other text.
  case character(Character)
  /// Enter or Return.
  case enter
  /// Tab.
  case tab
  /// Shift-Tab (`ESC [ Z`).
  case backTab
  /// Backspace (DEL, `0x7f`, or BS, `0x08`).
  case backspace
  /// Delete, the key that removes the character under the cursor (`ESC [ 3 ~`).
  case delete
  /// The arrow keys.
  case up, down, left, right
  /// Home and End.
  case home, end
  /// Escape pressed on its own.
  case escape
  /// Ctrl-C: in raw mode it arrives as the byte `0x03`, not as `SIGINT`.
  case interrupt
  /// Ctrl-Z: in raw mode it arrives as the byte `0x1a`, not as `SIGTSTP`.
  case suspend
  /// A control byte or escape sequence the form has no use for, with its bytes.
  case unknown([UInt8])
}
