import Testing

/// The README runs as written: every `$ command` in its ```sh blocks is run, with `swift run calc` standing for the
/// built `calc`, and its standard output compared with the lines the README shows under it — exactly with
/// `--clock virtual`, and by event on the real clock, whose times vary.
@Suite("The README runs as written", .timeLimit(.minutes(1)))
struct ReadmeTests {
  /// One `$ command` of the README and the output shown under it.
  struct Example: Sendable, CustomTestStringConvertible {
    var line: Int
    var command: String
    var expected: [String]

    var testDescription: String { "README.md:\(line): \(command)" }

    /// Whether the output is exact: with `--clock virtual` it is; on the real clock only the events are.
    var isExact: Bool { command.contains("--clock virtual") }
  }

  /// The repository's README, found from this file's path.
  static let readmePath: String = {
    var path = #filePath
    for _ in 0..<3 { path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) }
    return path + "/README.md"
  }()

  /// The `$ ` lines of the README's ```sh blocks, each with the lines up to the next command or the block's end.
  static func examples(in text: String) -> [Example] {
    var examples: [Example] = []
    var inShellBlock = false
    // Whether the lines that follow belong to the last example: from its `$ ` line to the end of its block.
    var collecting = false
    for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      if line.hasPrefix("```") {
        inShellBlock = !inShellBlock && line == "```sh"
        collecting = false
      } else if inShellBlock && line.hasPrefix("$ ") {
        examples.append(Example(line: index + 1, command: String(line.dropFirst(2)), expected: []))
        collecting = true
      } else if collecting {
        examples[examples.count - 1].expected.append(String(line))
      }
    }
    return examples
  }

  /// The README's text.
  static let readme = Shell.readFile(readmePath) ?? ""

  /// The lines of the first plain ``` block after the line containing `marker`: the README's picture of the
  /// form, which `InteractiveTerminalTests` compares with the real screen.
  static func block(after marker: String) -> [String] {
    let lines = readme.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    guard let markerLine = lines.firstIndex(where: { $0.contains(marker) }),
      let start = lines[markerLine...].firstIndex(of: "```"),
      let end = lines[(start + 1)...].firstIndex(of: "```")
    else { return [] }
    return Array(lines[(start + 1)..<end])
  }

  @Test("the README has its examples, each one a calc command this test can run")
  func everyCommandRuns() {
    let examples = Self.examples(in: Self.readme)
    #expect(examples.count >= 3, "no `$ ` commands found in \(Self.readmePath)")
    for example in examples {
      #expect(
        example.command.contains("swift run calc"),
        "README.md:\(example.line): `\(example.command)` is not a calc command; run it from .ci/run or drop the `$ `")
    }
  }

  @Test("each command prints what the README shows", arguments: examples(in: readme))
  func prints(_ example: Example) throws {
    let calc = try #require(Shell.calcExecutable(), "the calc executable is not built next to the tests")
    let command = example.command.replacing("swift run calc", with: Shell.quote(calc))
    let (status, output) = Shell.run("\(command) 2>/dev/null")
    #expect(status == 0)
    let lines = output.split(separator: "\n").map(String.init)
    if example.isExact {
      #expect(lines == example.expected)
    } else {
      #expect(lines.map(Self.event) == example.expected.map(Self.event))
      #expect(lines.allSatisfy { Self.time($0) != nil }, "every line starts with a time: \(lines)")
    }
  }

  /// `0.003 result 3` → `result 3`.
  static func event(_ line: String) -> String {
    String(line.drop { $0 != " " }.dropFirst())
  }

  /// `0.003 result 3` → 0.003, if the line starts with seconds and three decimals.
  static func time(_ line: String) -> Double? {
    let field = line.prefix { $0 != " " }
    guard let dot = field.firstIndex(of: "."), field[field.index(after: dot)...].count == 3 else { return nil }
    return Double(field)
  }
}
