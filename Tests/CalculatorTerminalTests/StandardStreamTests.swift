import Testing

@testable import CalculatorTerminal

@Suite("StandardStream")
struct StandardStreamTests {
  @Test(
    "input is read line by line, as readLine would, with a last line that has no newline",
    arguments: [
      ("a 1\nb 2\n", ["a 1", "b 2"]), ("a 1\r\nb 2\r\n", ["a 1", "b 2"]), ("a 1\nlast", ["a 1", "last"]),
      ("", []), ("\n\n", ["", ""]), ("é\u{FEFF}\n", ["é\u{FEFF}"]),
    ])
  func readsLines(text: String, lines: [String]) throws {
    #expect(try Self.lines(of: text) == lines)
  }

  @Test(
    "a byte that is not UTF-8 is written escaped, the rest as it was",
    arguments: [
      ([0x61, 0x20, 0xFF], #"a \xff"#), ([0xC3, 0xA9, 0x0A], "é\n"), ([0xC3], #"\xc3"#), ([0xC3, 0x28], #"\xc3("#),
      ([0xE2, 0x82, 0xAC, 0x80], #"€\x80"#), ([0xED, 0xA0, 0x80], #"\xed\xa0\x80"#),
    ] as [([UInt8], String)])
  func invalidUTF8(bytes: [UInt8], text: String) {
    #expect(StandardStream.decode(bytes[...]) == text)
  }

  @Test("a line longer than a read's buffer, and longer than a pipe holds, arrives whole")
  func readsLongLines() throws {
    let long = String(repeating: "9", count: 200_000)
    #expect(try Self.lines(of: long + "\nx\n" + long) == [long, "x", long])
  }

  /// The lines `readLines` gives for `text` written into a pipe.
  static func lines(of text: String) throws -> [String] {
    let pipe = try #require(Platform.makePipe(nonBlockingWrite: false))
    // Written from a thread of its own: a long text fills the pipe before the reader starts.
    let bytes = Array(text.utf8)
    let writer = try #require(
      try? Platform.startThread {
        bytes.withUnsafeBytes { _ = StandardStream(descriptor: pipe.write).write($0) }
        Platform.close(pipe.write)
      }.get())
    var read: [String] = []
    let failure = StandardStream.readLines(from: pipe.read) { read.append(contentsOf: $0) }
    writer.join()
    Platform.close(pipe.read)
    #expect(failure == nil)
    return read
  }

  @Test("a read that fails is an error, not the end of input")
  func readFailure() {
    // A closed descriptor cannot be read.
    #expect(StandardStream.readLines(from: -1) { _ in Issue.record("no line expected") } != nil)
  }
}
