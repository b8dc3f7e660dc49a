/// User input as `calc` shows it inside a message: in quotes, control characters escaped, and cut short.
///
/// Whatever a person or a script typed reaches the terminal only through this, so a line holding escape
/// sequences cannot clear the screen, and a megabyte-long line gives a message of one line.
///
/// ```swift
/// QuotedText("a \u{1B}[2J")                              // 'a \e[2J'
/// QuotedText(String(repeating: "9", count: 1000)).description  // '9999…9' (80 of 1000 characters)
/// ```
struct QuotedText: CustomStringConvertible {
  /// The characters of the input shown before it is cut.
  static let limit = 80

  let text: Substring

  init(_ text: some StringProtocol) {
    self.text = Substring(text)
  }

  var description: String {
    var shown = "'"
    var count = 0
    for character in text {
      if count == Self.limit {
        return shown + "…' (\(Self.limit) of \(text.count) characters)"
      }
      count += 1
      for scalar in character.unicodeScalars {
        shown += Self.escaped(scalar)
      }
    }
    return shown + "'"
  }

  /// A scalar as it can be shown: a control character as an escape, anything else as itself.
  private static func escaped(_ scalar: Unicode.Scalar) -> String {
    switch scalar.value {
    case 0x09: return "\\t"
    case 0x0A: return "\\n"
    case 0x0D: return "\\r"
    case 0x1B: return "\\e"
    case 0x00..<0x20, 0x7F..<0xA0, 0xFEFF:
      return "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
    default: return String(scalar)
    }
  }
}
