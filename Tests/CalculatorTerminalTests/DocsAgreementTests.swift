import Testing

/// A rule that holds for every operator is stated in the same words wherever a reader meets it first: the README and
/// Ripple's documentation landing page (issue #33 item 11).
@Suite("The README and the landing page state each cross-cutting rule the same way")
struct DocsAgreementTests {
  /// The repository's root, found from this file's path.
  static let root: String = {
    var path = #filePath
    for _ in 0..<3 { path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) }
    return path
  }()

  /// A text with every run of white space made one space, so that line breaks do not count.
  static func flattened(_ text: String) -> String {
    text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
  }

  static let rules = [
    "Every operator runs its closures on the consumer's isolation, except the transforms of `mapLatest` and "
      + "`flatMapLatest`, which run in a task of their own per element — on the isolation they were written in, as a "
      + "`Task { }` body does — so that a newer element can cancel them.",
    "Every operator keeps typed throws: non-throwing bases give a non-throwing result, so "
      + "`for await x in combineLatest(a, b).map(+)` compiles in Swift 6 mode.",
  ]

  @Test("each rule reads word for word in both", arguments: ["README.md", "Sources/Ripple/Ripple.docc/Ripple.md"])
  func rulesAgree(_ file: String) throws {
    let text = Self.flattened(try #require(Shell.readFile("\(Self.root)/\(file)"), "cannot read \(file)"))
    for rule in Self.rules {
      #expect(text.contains(rule), "\(file) does not state: \(rule)")
    }
  }
}
