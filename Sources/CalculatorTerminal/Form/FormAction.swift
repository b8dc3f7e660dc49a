/// What a key does to the form: the form's key bindings.
///
/// `q`, Escape and Ctrl-C quit; Ctrl-Z suspends (as a shell's job control expects); Tab, Down and Enter move to the next field, Shift-Tab and Up to the previous;
/// every other printable character is typed (the field says when its text is not an integer); Backspace, Delete,
/// Left, Right, Home and End edit. Any other key does nothing, and the field says so until the next key.
///
/// ```swift
/// FormAction(.character("7"))  // .insert("7")
/// FormAction(.backTab)         // .focusPrevious
/// FormAction(.interrupt)       // .quit(.interrupt)
/// ```
enum FormAction: Hashable, Sendable {
  /// Why the user left.
  enum Quit: Hashable, Sendable {
    /// `q` or Escape.
    case request
    /// Ctrl-C.
    case interrupt
  }

  /// Types a character at the cursor.
  case insert(Character)
  /// Backspace and Delete.
  case deleteBackward, deleteForward
  /// Cursor movement within the focused field.
  case moveLeft, moveRight, moveToStart, moveToEnd
  /// Focus movement through the fields of all panels, wrapping around.
  case focusNext, focusPrevious
  /// Leave the form.
  case quit(Quit)
  /// Give the terminal back and stop, until the shell's `fg` continues the program.
  case suspend
  /// A key with no binding.
  case ignore

  /// The action `key` is bound to.
  init(_ key: Key) {
    self =
      switch key {
      case .character("q"), .escape: .quit(.request)
      case .interrupt: .quit(.interrupt)
      case .suspend: .suspend
      case .character(let character): .insert(character)
      case .backspace: .deleteBackward
      case .delete: .deleteForward
      case .left: .moveLeft
      case .right: .moveRight
      case .home: .moveToStart
      case .end: .moveToEnd
      case .tab, .down, .enter: .focusNext
      case .backTab, .up: .focusPrevious
      case .unknown: .ignore
      }
  }
}
