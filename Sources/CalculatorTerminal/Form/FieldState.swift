/// One number field of the form: its text, the cursor in it, and the number it gives the model.
///
/// Editing keeps ``value`` at the last text that was a valid number (or empty, which is `nil`): a text that is
/// not an integer — `-`, `12-3`, `2.5e3`, `1,000`, a number beyond `Int` — leaves ``value`` where it was and sets
/// ``message``, so the model keeps calculating with the last good number while the field says what is wrong.
/// Every printable character goes into the text, so a paste is never quietly turned into another number: `2.5e3`
/// reads "not an integer", never 253. A field takes ``maximumLength`` characters; more are refused, saying so.
/// Integers are read as script lines read them: `-12` and `+12`, digits only.
///
/// ```swift
/// var field = FieldState(name: "a")
/// field.insert("1"); field.insert("2")   // text "12", value 12
/// field.insert("-"); field.insert("3")   // text "12-3", value still 12
/// field.message                          // "not an integer; still using 12"
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
  /// typed and explained; the field's box is one column wider, for the cursor after the last character.
  static let maximumLength = 23
  /// Why the last key did nothing, until the next key: the field is full, or the key has no use here.
  private(set) var notice: String?

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
    let digits = text.first == "-" || text.first == "+" ? text.dropFirst() : text[...]
    return !digits.isEmpty && digits.allSatisfy(\.isASCIIDigit) ? .outOfRange : .notAnInteger
  }

  /// The field's complaint in words, shown after it on its line: the last key's ``notice``, or what is wrong
  /// with the text and the number still in use; `nil` when all is well. The words that matter come first and
  /// the text is not repeated, so they fit beside the field at 80 columns.
  var message: String? {
    if let notice { return notice }
    guard let problem else { return nil }
    let what =
      switch problem {
      case .notAnInteger: "not an integer"
      case .outOfRange: "out of range"
      }
    let kept = value.map { "; still using \($0)" } ?? ""
    return what + kept
  }

  /// Inserts `character` at the cursor, up to ``maximumLength`` characters; a control character does not go in.
  /// Returns whether the text changed; when it did not, ``notice`` says why.
  @discardableResult
  mutating func insert(_ character: Character) -> Bool {
    guard !character.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
      notice = "that key types nothing"
      return false
    }
    guard text.count < Self.maximumLength else {
      notice = "full: \(Self.maximumLength) characters at most"
      return false
    }
    notice = nil
    text.insert(character, at: cursor)
    cursor += 1
    textChanged()
    return true
  }

  /// Notes that a key did nothing to the field, with `reason`, until the next key.
  mutating func refuse(_ reason: String) {
    notice = reason
  }

  /// Forgets the last key's notice: a new key came.
  mutating func keyPressed() {
    notice = nil
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
    notice = nil
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
