/// One number field of the form: its text, the cursor in it, and the number it gives the model.
///
/// Editing keeps ``value`` at the last text that was a valid number (or empty, which is `nil`): a text that is
/// not an integer — `-`, `12-3`, a number beyond `Int` — leaves ``value`` where it was and sets ``message``, so
/// the model keeps calculating with the last good number while the field says what is wrong.
///
/// ```swift
/// var field = FieldState(name: "a")
/// field.insert("1"); field.insert("2")   // text "12", value 12
/// field.insert("-"); field.insert("3")   // text "12-3", value still 12
/// field.message                          // "a: '12-3' is not an integer; still using 12"
/// ```
///
/// The cursor is a character offset, `0...text.count`.
struct FieldState: Hashable, Sendable {
  /// The field's name as the screen and its messages show it: `a` or `b`.
  let name: String
  /// What the field shows.
  private(set) var text: [Character] = []
  /// Where typing inserts, as a character offset into ``text``.
  private(set) var cursor = 0
  /// The number the model gets: the last valid text's number, `nil` for empty.
  private(set) var value: Int?

  /// Longest text a field takes: room for every `Int` and a few digits more, so an out-of-range number can be
  /// typed and explained.
  static let maximumLength = 24

  /// Creates an empty field.
  init(name: String) {
    self.name = name
  }

  /// Why the text gives no number, if it does not.
  enum Problem: Hashable, Sendable {
    /// The text is not an integer at all: `-`, `12-3`, `--1`.
    case notAnInteger
    /// The text is an integer beyond `Int.min...Int.max`.
    case outOfRange
  }

  /// What is wrong with the text, or `nil` when it is empty or a number.
  var problem: Problem? {
    guard !text.isEmpty, Int(String(text)) == nil else { return nil }
    let digits = text.first == "-" ? text.dropFirst() : text[...]
    return !digits.isEmpty && digits.allSatisfy(\.isASCIIDigit) ? .outOfRange : .notAnInteger
  }

  /// The field's complaint in words, naming the field and the number still in use; `nil` when all is well.
  var message: String? {
    guard let problem else { return nil }
    let what =
      switch problem {
      case .notAnInteger: "is not an integer"
      case .outOfRange: "is out of range for an integer"
      }
    let kept = value.map { "; still using \($0)" } ?? ""
    return "\(name): \(QuotedText(String(text))) \(what)\(kept)"
  }

  /// Inserts `character` at the cursor; only digits and `-` go in, up to ``maximumLength``. Returns whether the
  /// text changed.
  @discardableResult
  mutating func insert(_ character: Character) -> Bool {
    guard character.isASCIIDigit || character == "-", text.count < Self.maximumLength else { return false }
    text.insert(character, at: cursor)
    cursor += 1
    textChanged()
    return true
  }

  /// Removes the character before the cursor (Backspace). Returns whether the text changed.
  @discardableResult
  mutating func deleteBackward() -> Bool {
    guard cursor > 0 else { return false }
    cursor -= 1
    text.remove(at: cursor)
    textChanged()
    return true
  }

  /// Removes the character under the cursor (Delete). Returns whether the text changed.
  @discardableResult
  mutating func deleteForward() -> Bool {
    guard cursor < text.count else { return false }
    text.remove(at: cursor)
    textChanged()
    return true
  }

  /// Moves the cursor for a cursor-moving action (left, right, start, end), stopping at either end of the text;
  /// any other action leaves it.
  mutating func move(_ action: FormAction) {
    switch action {
    case .moveLeft: cursor = max(cursor - 1, 0)
    case .moveRight: cursor = min(cursor + 1, text.count)
    case .moveToStart: cursor = 0
    case .moveToEnd: cursor = text.count
    default: break
    }
  }

  /// Shows `number`, set elsewhere — the model's at the start, or the other panel of a shared calculation —
  /// unless the field already gives that number. Returns whether the field changed.
  @discardableResult
  mutating func show(_ number: Int?) -> Bool {
    guard number != value else { return false }
    text = number.map { Array(String($0)) } ?? []
    cursor = text.count
    value = number
    return true
  }

  private mutating func textChanged() {
    if text.isEmpty {
      value = nil
    } else if let number = Int(String(text)) {
      value = number
    }
  }
}

extension Character {
  /// `0` to `9`, and no other digit.
  fileprivate var isASCIIDigit: Bool { isASCII && isWholeNumber }
}
