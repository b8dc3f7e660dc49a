/// One line of a `calc` script: `a 12`, `b 30`, `a` (clears the field), `wait 1.5s`; blank lines and `#`
/// comments are nothing.
///
/// ```swift
/// try ScriptCommand.parse("a 12")        // .set(.a, 12)
/// try ScriptCommand.parse("b")           // .set(.b, nil)
/// try ScriptCommand.parse("wait 250ms")  // .wait(.milliseconds(250))
/// try ScriptCommand.parse("# note")      // nil
/// try ScriptCommand.parse("a twelve")    // throws: 'twelve' is not an integer
/// ```
enum ScriptCommand: Equatable, Sendable {
  /// A field of the form.
  enum Field: String, Hashable, Sendable { case a, b }

  /// Set a field to a number, or clear it (`nil`).
  case set(Field, Int?)
  /// Let time pass.
  case wait(Duration)

  /// Why a line is not a command, in words.
  struct Failure: Error, Equatable, CustomStringConvertible {
    var message: String
    var description: String { message }
  }

  /// Parses one line; `nil` for a blank line or a comment.
  static func parse(_ line: String) throws(Failure) -> ScriptCommand? {
    // A `#` starts a comment, at the beginning of the line or after a command.
    let code = line.prefix { $0 != "#" }
    let words = code.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
    guard let command = words.first else { return nil }
    let arguments = words.dropFirst()
    switch command {
    case "a", "b":
      let field: Field = command == "a" ? .a : .b
      guard arguments.count <= 1 else {
        throw Failure(message: "too many values; write '\(command) <integer>', or '\(command)' to clear it")
      }
      guard let text = arguments.first else { return .set(field, nil) }
      return .set(field, try integer(text))
    case "wait":
      guard arguments.count == 1, let text = arguments.first else {
        throw Failure(message: "wait needs one duration (e.g. wait 1.5s, wait 250ms, wait 2m)")
      }
      do {
        return .wait(try DurationText.parse(text))
      } catch {
        throw Failure(message: error.description)
      }
    default:
      throw Failure(message: "unknown command \(QuotedText(command)); use a, b, wait or # for a comment")
    }
  }

  /// `text` as an integer, or a reason that says whether it is no number or too large a one.
  static func integer(_ text: Substring) throws(Failure) -> Int {
    if let value = Int(text) { return value }
    let digits = text.drop { $0 == "-" || $0 == "+" }
    if text.count - digits.count <= 1, !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) {
      throw Failure(message: "\(QuotedText(text)) is out of range for an integer (\(Int.min) to \(Int.max))")
    }
    throw Failure(message: "\(QuotedText(text)) is not an integer")
  }
}
