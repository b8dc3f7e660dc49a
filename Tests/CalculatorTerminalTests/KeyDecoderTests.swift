import Testing

@testable import CalculatorTerminal

@Suite("KeyDecoder")
struct KeyDecoderTests {
  static let esc: UInt8 = 0x1b

  /// Bytes of one read, and the keys they are.
  static let table: [(bytes: [UInt8], keys: [Key], name: String)] = [
    (Array("0123456789".utf8), "0123456789".map(Key.character), "digits"),
    ([UInt8(ascii: "-")], [.character("-")], "minus"),
    ([0x7f], [.backspace], "Backspace as DEL"),
    ([0x08], [.backspace], "Backspace as BS"),
    ([0x09], [.tab], "Tab"),
    ([esc, 0x5b, 0x5a], [.backTab], "Shift-Tab"),
    ([esc, 0x5b, 0x41, esc, 0x5b, 0x42, esc, 0x5b, 0x43, esc, 0x5b, 0x44], [.up, .down, .right, .left], "CSI arrows"),
    ([esc, 0x4f, 0x41, esc, 0x4f, 0x42, esc, 0x4f, 0x43, esc, 0x4f, 0x44], [.up, .down, .right, .left], "SS3 arrows"),
    (Array("\u{1b}[1;5C".utf8), [.right], "an arrow with a modifier"),
    (Array("\u{1b}[H\u{1b}[F".utf8), [.home, .end], "Home and End, CSI"),
    (Array("\u{1b}OH\u{1b}OF".utf8), [.home, .end], "Home and End, SS3"),
    (Array("\u{1b}[1~\u{1b}[4~\u{1b}[7~\u{1b}[8~".utf8), [.home, .end, .home, .end], "Home and End, VT"),
    (Array("\u{1b}[3~".utf8), [.delete], "Delete"),
    ([0x0d], [.enter], "Enter as CR"),
    ([0x0a], [.enter], "Enter as LF"),
    ([esc], [.escape], "Escape alone"),
    ([esc, esc], [.escape, .escape], "Escape twice"),
    ([esc, UInt8(ascii: "q")], [.unknown([esc, UInt8(ascii: "q")])], "Alt-q: a chord, not Escape"),
    ([esc, UInt8(ascii: "1")], [.unknown([esc, UInt8(ascii: "1")])], "Alt-1"),
    ([esc, 0x7f], [.unknown([esc, 0x7f])], "Alt-Backspace"),
    ([esc, 0xc3, 0xa9], [.unknown([esc, 0xc3, 0xa9])], "Alt-é"),
    ([esc, 0x09], [.escape, .tab], "Escape then Tab in one read"),
    ([0x03], [.interrupt], "Ctrl-C"),
    ([0x1a], [.suspend], "Ctrl-Z"),
    ([UInt8(ascii: "q")], [.character("q")], "q"),
    (Array("a+ ".utf8), [.character("a"), .character("+"), .character(" ")], "other printable text"),
    (Array("é€😀".utf8), [.character("é"), .character("€"), .character("😀")], "UTF-8 text"),
    ([0x01], [.unknown([0x01])], "another control byte"),
    (Array("\u{1b}[15~".utf8), [.unknown(Array("\u{1b}[15~".utf8))], "F5, unknown"),
    (
      Array("\u{1b}[200~1".utf8), [.unknown(Array("\u{1b}[200~".utf8)), .character("1")],
      "an unknown sequence, then a key"
    ),
    (Array("\u{1b}OP".utf8), [.unknown(Array("\u{1b}OP".utf8))], "F1, unknown"),
    ([esc, 0x5b, 0x31, 0x03], [.unknown([esc, 0x5b, 0x31]), .interrupt], "a sequence broken by a control byte"),
    ([0xff, 0x31], [.unknown([0xff]), .character("1")], "an invalid UTF-8 byte"),
    ([0xc3, 0x31], [.unknown([0xc3]), .character("1")], "a UTF-8 character cut short"),
    ([0xed, 0xa0, 0x80], [.unknown([0xed, 0xa0, 0x80])], "a UTF-8 surrogate"),
  ]

  @Test("decodes a read", arguments: table)
  func decodes(bytes: [UInt8], keys: [Key], name: String) {
    var decoder = KeyDecoder()
    #expect(decoder.decode(bytes) == keys, "\(name)")
    #expect(!decoder.hasPending, "\(name)")
  }

  @Test("decodes the same bytes split at every point, when each part is a separate read", arguments: table)
  func decodesSplit(bytes: [UInt8], keys: [Key], name: String) {
    // A lone ESC at the end of a read is Escape, so splits right after an ESC change the meaning; skip those.
    for split in 1..<max(bytes.count, 1) where bytes[split - 1] != Self.esc {
      var decoder = KeyDecoder()
      let decoded = decoder.decode(bytes[..<split]) + decoder.decode(bytes[split...])
      #expect(decoded == keys, "\(name), split at \(split)")
    }
  }

  @Test(
    "a partial sequence at the end of a read waits for the next read",
    arguments: [
      ([esc, 0x5b], [0x43], Key.right),
      ([esc, 0x4f], [0x41], .up),
      ([esc, 0x5b, 0x33], [0x7e], .delete),
      ([0xe2, 0x82], [0xac], .character("€")),
    ] as [([UInt8], [UInt8], Key)])
  func partialWaits(first: [UInt8], rest: [UInt8], key: Key) {
    var decoder = KeyDecoder()
    #expect(decoder.decode(first) == [])
    #expect(decoder.hasPending)
    #expect(decoder.decode(rest) == [key])
    #expect(!decoder.hasPending)
  }

  @Test("flush releases what waits: a lone ESC as Escape, anything else as unknown")
  func flush() {
    var decoder = KeyDecoder()
    #expect(decoder.flush() == [])
    #expect(decoder.decode([Self.esc, 0x5b]) == [])
    #expect(decoder.flush() == [.unknown([Self.esc, 0x5b])])
    #expect(!decoder.hasPending)
  }

  @Test("an endless sequence is cut off as unknown instead of growing")
  func endlessSequence() {
    var decoder = KeyDecoder()
    let garbage = [Self.esc, 0x5b] + Array(repeating: UInt8(ascii: "1"), count: 100)
    let keys = decoder.decode(garbage)
    #expect(keys.first == .unknown(Array(garbage.prefix(KeyDecoder.maximumSequenceLength))))
    #expect(decoder.pending.count < KeyDecoder.maximumSequenceLength)
  }
}
