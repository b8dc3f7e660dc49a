/// Turns the bytes a terminal in raw mode sends into ``Key``s, one read at a time.
///
/// Use one decoder per input stream and feed it every read with ``decode(_:)``. A read may end in the middle of
/// an escape sequence or of a UTF-8 character: those bytes wait for the next read. A lone `ESC` at the end of a
/// read is the Escape key — terminals send a whole sequence in one write, so nothing follows a real Escape.
///
/// ```swift
/// var decoder = KeyDecoder()
/// decoder.decode([0x31, 0x1b, 0x5b])  // [.character("1")]; `ESC [` waits
/// decoder.decode([0x43])              // [.right]
/// decoder.decode([0x1b])              // [.escape]
/// ```
///
/// Bytes that stay pending because nothing more arrives can be released with ``flush()``. Nothing traps: a
/// sequence the decoder does not know becomes ``Key/unknown(_:)``.
struct KeyDecoder: Sendable {
  /// Bytes of an unfinished escape sequence or character from the previous read.
  private(set) var pending: [UInt8] = []

  /// Longest escape sequence kept; anything longer is garbage, reported as unknown.
  static let maximumSequenceLength = 32

  /// Creates a decoder with nothing pending.
  init() {}

  /// Whether the last read ended inside an escape sequence or a character.
  var hasPending: Bool { !pending.isEmpty }

  /// Decodes one read's `bytes`, after any bytes left pending by the previous read.
  mutating func decode(_ bytes: some Sequence<UInt8>) -> [Key] {
    var input = pending
    input.append(contentsOf: bytes)
    pending = []
    var keys: [Key] = []
    var index = 0
    while index < input.count {
      switch Self.match(input[index...]) {
      case .key(let key, let length):
        keys.append(key)
        index += length
      case .incomplete:
        pending = Array(input[index...])
        return keys
      }
    }
    return keys
  }

  /// Releases bytes still pending, as if the sequence had ended: a lone `ESC` is Escape, the rest is unknown.
  mutating func flush() -> [Key] {
    defer { pending = [] }
    switch pending {
    case []: return []
    case [Self.escape]: return [.escape]
    default: return [.unknown(pending)]
    }
  }

  private enum Match {
    case key(Key, length: Int)
    case incomplete
  }

  private static let escape: UInt8 = 0x1b

  /// The key at the start of `bytes`, which is not empty.
  private static func match(_ bytes: ArraySlice<UInt8>) -> Match {
    let first = bytes[bytes.startIndex]
    switch first {
    case 0x03: return .key(.interrupt, length: 1)
    case 0x1a: return .key(.suspend, length: 1)
    case 0x08, 0x7f: return .key(.backspace, length: 1)
    case 0x09: return .key(.tab, length: 1)
    case 0x0a, 0x0d: return .key(.enter, length: 1)
    case escape: return matchEscape(bytes)
    case 0x20..<0x7f: return .key(.character(Character(Unicode.Scalar(first))), length: 1)
    case 0x00..<0x20: return .key(.unknown([first]), length: 1)
    default: return matchUTF8(bytes)
    }
  }

  /// `ESC` alone, `ESC [ …` (CSI), `ESC O x` (SS3), `ESC` and a key (an Alt chord, unknown), or `ESC` then a
  /// control key (Escape, then that).
  private static func matchEscape(_ bytes: ArraySlice<UInt8>) -> Match {
    let start = bytes.startIndex
    guard bytes.count > 1 else { return .key(.escape, length: 1) }
    switch bytes[start + 1] {
    case UInt8(ascii: "["): return matchControlSequence(bytes)
    case UInt8(ascii: "O"):
      guard bytes.count > 2 else { return .incomplete }
      let final = bytes[start + 2]
      let key: Key =
        switch final {
        case UInt8(ascii: "A"): .up
        case UInt8(ascii: "B"): .down
        case UInt8(ascii: "C"): .right
        case UInt8(ascii: "D"): .left
        case UInt8(ascii: "H"): .home
        case UInt8(ascii: "F"): .end
        default: .unknown(Array(bytes.prefix(3)))
        }
      return .key(key, length: 3)
    case 0x20...0x7f:
      // Alt with a key (terminals send Alt-x as Escape and x in one write): a chord the form has no use for. It
      // must not read as Escape, which quits.
      return .key(.unknown(Array(bytes.prefix(2))), length: 2)
    case 0x80...:
      // Alt with a non-ASCII character.
      switch matchUTF8(bytes.dropFirst()) {
      case .key(_, let length): return .key(.unknown(Array(bytes.prefix(1 + length))), length: 1 + length)
      case .incomplete: return .incomplete
      }
    default:
      // Escape followed by another control key in the same read: Escape, then decode the rest.
      return .key(.escape, length: 1)
    }
  }

  /// `ESC [`, parameter bytes `0x30…0x3f`, intermediate bytes `0x20…0x2f`, one final byte `0x40…0x7e`.
  private static func matchControlSequence(_ bytes: ArraySlice<UInt8>) -> Match {
    var index = bytes.startIndex + 2
    while index < bytes.endIndex {
      let byte = bytes[index]
      let length = index - bytes.startIndex + 1
      switch byte {
      case 0x20...0x3f:
        guard length < maximumSequenceLength else { return .key(.unknown(Array(bytes.prefix(length))), length: length) }
        index += 1
      case 0x40...0x7e:
        let sequence = bytes.prefix(length)
        return .key(controlSequenceKey(sequence), length: length)
      default:
        // Not part of a sequence: report what came before, and decode this byte afresh.
        let length = index - bytes.startIndex
        return .key(.unknown(Array(bytes.prefix(length))), length: length)
      }
    }
    return .incomplete
  }

  /// The key a complete CSI sequence names; modifiers (`ESC [ 1 ; 5 C`) are ignored.
  private static func controlSequenceKey(_ sequence: ArraySlice<UInt8>) -> Key {
    let final = sequence[sequence.endIndex - 1]
    let parameters = sequence.dropFirst(2).dropLast()
    let first = parameters.prefix { $0 != UInt8(ascii: ";") }
    switch final {
    case UInt8(ascii: "A"): return .up
    case UInt8(ascii: "B"): return .down
    case UInt8(ascii: "C"): return .right
    case UInt8(ascii: "D"): return .left
    case UInt8(ascii: "H"): return .home
    case UInt8(ascii: "F"): return .end
    case UInt8(ascii: "Z"): return .backTab
    case UInt8(ascii: "~"):
      switch Array(first) {
      case Array("1".utf8), Array("7".utf8): return .home
      case Array("4".utf8), Array("8".utf8): return .end
      case Array("3".utf8): return .delete
      default: return .unknown(Array(sequence))
      }
    default: return .unknown(Array(sequence))
    }
  }

  /// A multi-byte UTF-8 character; an invalid byte is unknown on its own.
  private static func matchUTF8(_ bytes: ArraySlice<UInt8>) -> Match {
    let first = bytes[bytes.startIndex]
    let length =
      switch first {
      case 0xc2...0xdf: 2
      case 0xe0...0xef: 3
      case 0xf0...0xf4: 4
      default: 0
      }
    guard length > 0 else { return .key(.unknown([first]), length: 1) }
    let available = bytes.prefix(length)
    // Stop at the first byte that cannot continue the character.
    for (offset, byte) in available.enumerated().dropFirst() where byte & 0xc0 != 0x80 {
      return .key(.unknown(Array(available.prefix(offset))), length: offset)
    }
    guard available.count == length else { return .incomplete }
    guard let text = String(validating: available, as: UTF8.self), let character = text.first else {
      return .key(.unknown(Array(available)), length: length)
    }
    return .key(.character(character), length: length)
  }
}
