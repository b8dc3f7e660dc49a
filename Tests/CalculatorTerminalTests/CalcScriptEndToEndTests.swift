import Testing

/// The built `calc` in script mode, as a user pipes a script into it.
@Suite("calc script mode, end to end", .timeLimit(.minutes(1)))
struct CalcScriptEndToEndTests {
  /// Pipes `script` into `calc arguments`; returns the exit status and standard output (standard error follows
  /// it when `errors` is set).
  func calc(_ script: String, _ arguments: String, errors: Bool = false) throws -> (status: Int32, output: String) {
    let calc = try #require(Shell.calcExecutable(), "the calc executable is not built next to the tests")
    let redirect = errors ? "2>&1" : "2>/dev/null"
    return Shell.run("printf %s \(Shell.quote(script)) | \(Shell.quote(calc)) \(arguments) \(redirect)")
  }

  @Test(
    "each engine on the fast-typing timeline, in virtual time",
    arguments: [
      ("pipeline", "0.000 computing\n0.000 result 31\n0.500 computing\n0.500 result 42\n"),
      ("debounce", "0.000 settling\n1.500 computing\n1.500 result 42\n"),
      ("task", "0.000 computing\n1.500 result 42\n"),
      ("shared", "0.000 computing\n1.500 result 42\n"),
    ])
  func engines(engine: String, expected: String) throws {
    let result = try calc("b 30\na 1\nwait 0.5s\na 12\nwait 2s\n", "--engine \(engine) --clock virtual")
    #expect(result.output == expected)
    #expect(result.status == 0)
  }

  @Test("printf 'a 1\\nb 2\\n' | calc prints the sum, on the real clock")
  func piped() throws {
    let result = try calc("a 1\nb 2\n", "")
    #expect(result.output.hasSuffix(" result 3\n"))
    #expect(result.status == 0)
  }

  @Test("the debounce engine settles, then computes, then shows the result, on the real clock")
  func debounceSettlesOnTheRealClock() throws {
    let result = try calc("a 1\nb 2\n", "--engine debounce --debounce 100ms --delay 300ms")
    // Times are measured, so only the events are compared; the exact timeline is the virtual-clock tests' job.
    // `computing` lasts 300 ms here, but a starved main actor may not see it, so it is allowed to be missing.
    let events = result.output.split(separator: "\n").map { $0.split(separator: " ", maxSplits: 1)[1] }
    #expect(events == ["settling", "computing", "result 3"] || events == ["settling", "result 3"], "\(events)")
    #expect(result.status == 0)
  }

  @Test("a bad line is reported with its number and makes the status 1")
  func badLine() throws {
    let result = try calc("a 1\nb x\nb 2\n", "--clock virtual", errors: true)
    #expect(result.output.contains("calc: line 2: 'b x': 'x' is not an integer\n"))
    #expect(result.output.contains("0.000 result 3\n"))
    #expect(result.status == 1)
  }

  @Test("a bad flag prints the reason and where the usage is, and exits 2")
  func badFlag() throws {
    let result = try calc("", "--engine combine", errors: true)
    #expect(
      result.output
        == "calc: --engine: unknown engine 'combine'; use pipeline, debounce, task, shared or all\nsee 'calc --help'\n")
    #expect(result.status == 2)
    let misplaced = try calc("", "--engine task --debounce 2s", errors: true)
    #expect(misplaced.output == "calc: --debounce only applies to --engine debounce (or all)\nsee 'calc --help'\n")
    #expect(misplaced.status == 2)
  }

  @Test(
    "output that cannot be written and input that cannot be read are errors; a closed pipe is a quiet end",
    arguments: [
      // Standard error goes to the pipe the test reads; standard output where the case says.
      ("printf 'a 1\\nb 2\\n' | CALC 2>&1 >/dev/full", 1, "calc: cannot write to standard output: "),
      ("CALC 2>&1 </", 1, "calc: cannot read standard input: "),
      ("CALC --help 2>&1 >/dev/full", 1, "calc: cannot write to standard output: "),
      // Standard output into a pipe whose reader exits at once: calc's standard error must stay silent.
      ("{ printf 'a 1\\nb 2\\n' | CALC --clock virtual 2>&3 | true; } 3>&1", 0, ""),
    ])
  func inputOutputErrors(command: String, status: Int32, message: String) throws {
    let calc = try #require(Shell.calcExecutable(), "the calc executable is not built next to the tests")
    let result = Shell.run(command.replacing("CALC", with: Shell.quote(calc)))
    if message.isEmpty {
      #expect(result.output.isEmpty)
    } else {
      #expect(result.output.hasPrefix(message), "printed \(result.output)")
      #expect(result.status == status)
    }
  }

  @Test("a script line with bytes that are not UTF-8 is echoed with them escaped; b +2 reads as in the form")
  func invalidUTF8() throws {
    let calc = try #require(Shell.calcExecutable(), "the calc executable is not built next to the tests")
    let result = Shell.run(#"printf 'a 1\nb \377\nb +2\n' | "# + Shell.quote(calc) + " --clock virtual 2>&1")
    #expect(result.output.contains(#"calc: line 2: 'b \xff': '\xff' is not an integer"#), "\(result.output)")
    #expect(result.output.hasSuffix("0.000 result 3\n"), "\(result.output)")
    #expect(result.status == 1)
  }

  @Test(
    "the same events on the real clock as on the virtual one, times aside",
    arguments: ["--engine all", "--engine task --delay 0", "--engine debounce --debounce 300ms"])
  func sameEventsOnBothClocks(arguments: String) throws {
    let script = "b 30\na 1\nwait 0.5s\na 12\n"
    // Each engine's events, in order, without their times.
    func events(_ output: String) -> [String: [String]] {
      var events: [String: [String]] = [:]
      for line in output.split(separator: "\n") {
        let words = line.split(separator: " ").dropFirst()
        let engine = arguments.contains("all") ? String(words.first ?? "") : ""
        events[engine, default: []].append(words.dropFirst(engine.isEmpty ? 0 : 1).joined(separator: " "))
      }
      return events
    }
    let real = try calc(script, arguments)
    let virtual = try calc(script, arguments + " --clock virtual")
    #expect(events(real.output) == events(virtual.output), "real:\n\(real.output)virtual:\n\(virtual.output)")
    #expect(!virtual.output.isEmpty)
  }

  @Test(
    "--engine all: lines as fast as they come, and each design's counts add up at the end",
    arguments: ["", "--clock virtual", "--delay 5ms --debounce 5ms"])
  func countsAddUp(arguments: String) throws {
    let burst = (1...19).map { "b \(String("1234567891234567891".prefix($0)))" }.joined(separator: "\n")
    let result = try calc("a 1\n" + burst + "\n", "--engine all " + arguments)
    let counts = result.output.split(separator: "\n").filter { $0.contains(" counts ") }
    #expect(counts.count == 4, "\(result.output)")
    for line in counts {
      let numbers = line.split(separator: " ").compactMap { Int($0) }
      #expect(numbers.count == 5 && numbers[0] == numbers[1...].reduce(0, +) && numbers[4] == 0, "\(line)")
      #expect(numbers.count == 5 && numbers[0] > 0, "\(line)")
    }
  }

  @Test("--help and --version")
  func helpAndVersion() throws {
    let help = try calc("", "--help")
    #expect(help.output.hasPrefix("usage: calc"))
    #expect(help.status == 0)
    // Each design in one entry: what it is, and when to pick it; every line fits 80 columns.
    let lines = help.output.split(separator: "\n", omittingEmptySubsequences: false)
    for design in ["pipeline", "debounce", "task", "shared"] {
      let entry = try #require(lines.firstIndex { $0.hasPrefix("  \(design)   ") }, "no entry for \(design)")
      #expect(lines[entry + 1].contains("pick it when"), "\(design): \(lines[entry + 1])")
    }
    #expect(lines.allSatisfy { $0.count <= 80 }, "\(lines.filter { $0.count > 80 })")
    #expect(help.output.contains("--engine=task"))
    let version = try calc("", "--version")
    #expect(version.output == "calc (Ripple) 0.1.0\n")
  }

  @Test("--json in virtual time")
  func json() throws {
    let result = try calc("a 1\nb 2\n", "--engine task --clock virtual --json")
    #expect(
      result.output == #"{"time":0.000,"event":"computing"}"# + "\n" + #"{"time":1.000,"event":"result","value":3}"#
        + "\n")
  }
}
