import Calculator
import RippleTesting
import Testing

@testable import CalculatorTerminal

/// Script mode in process, on the virtual clock: the exact output of each design.
@Suite("ScriptRunner", .timeLimit(.minutes(1)))
@MainActor
struct ScriptRunnerTests {
  /// Runs `script` and returns standard output, standard error and the exit status.
  func run(_ script: String, _ arguments: [String]) async throws -> (output: String, errors: String, status: Int32) {
    var options = try CalcOptions.parse(arguments + ["--clock", "virtual"])
    options.script = true
    var output = ""
    var errors = ""
    let runner = ScriptRunner(options: options, output: { output += $0 }, errors: { errors += $0 })
    let lines = script.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let (stream, continuation) = AsyncStream.makeStream(of: String.self)
    for line in lines { continuation.yield(line) }
    continuation.finish()
    let status = await runner.run(lines: stream)
    return (output, errors, status)
  }

  static let fastTyping = "b 30\na 1\nwait 0.5s\na 12\nwait 2s\n"

  @Test(
    "the issue's fast-typing timeline, per engine",
    arguments: [
      ("pipeline", "0.000 computing\n0.000 result 31\n0.500 computing\n0.500 result 42\n"),
      ("debounce", "0.000 settling\n1.500 computing\n1.500 result 42\n"),
      ("task", "0.000 computing\n1.500 result 42\n"),
      ("shared", "0.000 computing\n1.500 result 42\n"),
    ])
  func fastTyping(engine: String, expected: String) async throws {
    let result = try await run(Self.fastTyping, ["--engine", engine])
    #expect(result.output == expected)
    #expect(result.errors.isEmpty)
    #expect(result.status == 0)
  }

  @Test("--delay and --debounce change the timeline")
  func delays() async throws {
    let task = try await run("a 1\nb 2\nwait 100ms\nb 3\n", ["--engine", "task", "--delay", "250ms"])
    #expect(task.output == "0.000 computing\n0.350 result 4\n")
    let debounce = try await run("a 1\nb 2\nwait 100ms\nb 3\n", ["--engine", "debounce", "--debounce", "300ms"])
    // Without a delay, the calculation ends in the instant it starts, and is still shown: as on the real clock.
    #expect(debounce.output == "0.000 settling\n0.400 computing\n0.400 result 4\n")
    let both = try await run("a 1\nb 2\n", ["--engine", "debounce", "--debounce", "300ms", "--delay", "1s"])
    #expect(both.output == "0.000 settling\n0.300 computing\n1.300 result 3\n")
  }

  @Test("the end of input waits for the calculation in flight", arguments: CalculatorDesign.allCases)
  func endOfInput(engine: CalculatorDesign) async throws {
    let result = try await run("a 1\nb 2", ["--engine", engine.rawValue, "--delay", "3s"])
    let expected =
      engine == .debounce ? "0.000 settling\n1.000 computing\n4.000 result 3\n" : "0.000 computing\n3.000 result 3\n"
    #expect(result.output == expected)
  }

  @Test("--engine all: the four designs on one input, each event line naming its engine, in time order")
  func allSideBySide() async throws {
    let result = try await run("a 1\nb 2", ["--engine", "all", "--delay", "3s"])
    #expect(
      result.output == """
        0.000 pipeline computing
        0.000 debounce settling
        0.000 task computing
        0.000 shared computing
        1.000 debounce computing
        3.000 pipeline result 3
        3.000 task result 3
        3.000 shared result 3
        4.000 debounce result 3
        4.000 pipeline counts 1 started = 0 cancelled + 0 superseded + 1 shown + 0 running
        4.000 debounce counts 1 started = 0 cancelled + 0 superseded + 1 shown + 0 running
        4.000 task counts 1 started = 0 cancelled + 0 superseded + 1 shown + 0 running
        4.000 shared counts 1 started = 0 cancelled + 0 superseded + 1 shown + 0 running

        """)
    // Fast typing with each design's own delay: the pipeline shows every pair at once, the debounce waits for the
    // typing to stop, the restarting designs cancel and show only the last sum.
    let typing = try await run(Self.fastTyping, ["--engine", "all"])
    #expect(
      typing.output == """
        0.000 pipeline computing
        0.000 debounce settling
        0.000 task computing
        0.000 shared computing
        0.000 pipeline result 31
        0.500 pipeline computing
        0.500 pipeline result 42
        1.500 debounce computing
        1.500 debounce result 42
        1.500 task result 42
        1.500 shared result 42
        2.500 pipeline counts 2 started = 0 cancelled + 0 superseded + 2 shown + 0 running
        2.500 debounce counts 1 started = 0 cancelled + 0 superseded + 1 shown + 0 running
        2.500 task counts 2 started = 1 cancelled + 0 superseded + 1 shown + 0 running
        2.500 shared counts 2 started = 1 cancelled + 0 superseded + 1 shown + 0 running

        """)
    let json = try await run("a 1\nb 2\n", ["--engine", "all", "--json"])
    #expect(json.output.split(separator: "\n").first == #"{"time":0.000,"engine":"pipeline","event":"computing"}"#)
    #expect(json.output.split(separator: "\n").count == 13)
    #expect(
      json.output.split(separator: "\n").last
        == #"{"time":1.000,"engine":"shared","event":"counts","started":1,"cancelled":0,"superseded":0,"shown":1,"running":0}"#
    )
  }

  @Test("--engine all with lines as they come: at the end of input, every design's events still come, when they happen")
  func allAsLinesCome() async throws {
    var options = try CalcOptions.parse(["--engine", "all", "--delay", "200ms", "--debounce", "300ms"])
    options.script = true
    var output = ""
    let runner = ScriptRunner(options: options, output: { output += $0 }, errors: { _ in })
    let (lines, continuation) = AsyncStream.makeStream(of: String.self)
    continuation.yield("a 1")
    continuation.yield("b 2")
    continuation.finish()
    // The timed path `calc` takes on the real clock, on a test clock this test moves while the runner waits.
    let clock = TestClock()
    let status = await clock.lockstep {
      let running = Task { await runner.runTimed(lines, clock: clock) }
      await clock.run()
      return await running.value
    }
    #expect(status == 0)
    // The restarting designs' results come 200 ms in, not after the debounce (300 ms + 200 ms) has ended.
    #expect(
      output == """
        0.000 pipeline computing
        0.000 debounce settling
        0.000 task computing
        0.000 shared computing
        0.200 task result 3
        0.200 shared result 3
        0.200 pipeline result 3
        0.300 debounce computing
        0.500 debounce result 3
        0.500 pipeline counts 1 started = 0 cancelled + 0 superseded + 1 shown + 0 running
        0.500 debounce counts 1 started = 0 cancelled + 0 superseded + 1 shown + 0 running
        0.500 task counts 1 started = 0 cancelled + 0 superseded + 1 shown + 0 running
        0.500 shared counts 1 started = 0 cancelled + 0 superseded + 1 shown + 0 running

        """)
  }

  @Test("overflow is an error in words, and the next input calculates again", arguments: CalculatorDesign.allCases)
  func overflow(engine: CalculatorDesign) async throws {
    let result = try await run("a 9223372036854775807\nb 1\nwait 3s\nb 0\n", ["--engine", engine.rawValue])
    #expect(result.output.contains("error result out of range\n"))
    #expect(result.output.hasSuffix("result 9223372036854775807\n"))
    #expect(result.status == 0)
  }

  @Test("clearing a field waits; filling it calculates")
  func clearing() async throws {
    let result = try await run("a 1\nb 2\nwait 1s\na\nwait 1s\na 5\n", ["--engine", "pipeline"])
    #expect(result.output == "0.000 computing\n0.000 result 3\n1.000 waiting\n2.000 computing\n2.000 result 7\n")
  }

  @Test("bad lines go to standard error with their number; the rest still runs; the status is 1")
  func badLines() async throws {
    let result = try await run("a 1\nb two\n# fine\nwaiting 1s\nb 2\n", ["--engine", "pipeline"])
    #expect(result.output == "0.000 computing\n0.000 result 3\n")
    #expect(
      result.errors
        == "calc: line 2: 'b two': 'two' is not an integer\n"
        + "calc: line 4: 'waiting 1s': unknown command 'waiting'; use a, b, wait or # for a comment\n")
    #expect(result.status == 1)
  }

  @Test("a bad line's text is shown escaped and cut short, once per message line")
  func badLineEcho() async throws {
    let long = "a " + String(repeating: "9", count: 1_000_000)
    let result = try await run("a \u{1B}[2J\n\(long)\nb 2\n", ["--engine", "pipeline"])
    let lines = result.errors.split(separator: "\n")
    #expect(lines.count == 2)
    #expect(lines[0] == #"calc: line 1: 'a \e[2J': '\e[2J' is not an integer"#)
    #expect(!result.errors.contains("\u{1B}"))
    #expect(lines[1].hasPrefix("calc: line 2: 'a 999"))
    #expect(lines[1].count < 400, "a 1 MB line gave a \(lines[1].count)-character message")
    #expect(lines[1].contains("(80 of 1000002 characters)"))
    #expect(result.status == 1)
  }

  @Test("a byte-order mark at the start of the script is not part of its first line")
  func byteOrderMark() async throws {
    let result = try await run("\u{FEFF}a 1\nb 2\n", ["--engine", "pipeline"])
    #expect(result.errors.isEmpty)
    #expect(result.output == "0.000 computing\n0.000 result 3\n")
    #expect(result.status == 0)
  }

  @Test("--json prints one object per event")
  func json() async throws {
    let result = try await run("a 9223372036854775807\nb 1\nwait 1s\nb 0\nwait 2s\n", ["--engine", "task", "--json"])
    #expect(
      result.output == """
        {"time":0.000,"event":"computing"}
        {"time":1.000,"event":"error","message":"result out of range"}
        {"time":1.000,"event":"computing"}
        {"time":2.000,"event":"result","value":9223372036854775807}

        """)
    #expect(EventPrinter.quoted("say \"hi\"\\\n\u{1}") == #""say \"hi\"\\\n\u0001""#)
  }
}
