import Calculator
import Testing

@testable import CalculatorTerminal

@Suite("CalcOptions")
struct CalcOptionsTests {
  @Test("defaults follow the designs")
  func defaults() throws {
    let options = try CalcOptions.parse([])
    #expect(options.engine == .design(.pipeline))
    #expect(options.clock == .real)
    #expect(options.debounce == .seconds(1))
    #expect(options.delay(for: .pipeline) == .zero)
    for (engine, delay) in [(CalculatorDesign.debounce, Duration.zero), (.task, .seconds(1)), (.shared, .seconds(1))] {
      #expect(options.delay(for: engine) == delay)
    }
    // Without --engine: the four designs side by side in the form, the pipeline for a script.
    #expect(try options.resolved(interactive: true).engine == .all)
    #expect(try options.resolved(interactive: false).engine == .design(.pipeline))
    #expect(try CalcOptions.parse(["--engine", "task"]).resolved(interactive: true).engine == .design(.task))
  }

  @Test("every flag, in both spellings")
  func flags() throws {
    let spaced = try CalcOptions.parse([
      "--engine", "debounce", "--delay", "250ms", "--debounce", "1.5s", "--clock", "virtual", "--script", "--json",
    ])
    let attached = try CalcOptions.parse([
      "--engine=debounce", "--delay=250ms", "--debounce=1.5s", "--clock=virtual", "--script", "--json",
    ])
    #expect(spaced == attached)
    #expect(spaced.engine == .design(.debounce))
    #expect(spaced.delay(for: .debounce) == .milliseconds(250))
    #expect(spaced.delay(for: .task) == .milliseconds(250))
    #expect(spaced.debounce == .milliseconds(1500))
    #expect(spaced.clock == .virtual)
    #expect(spaced.script && spaced.json)
    #expect(try CalcOptions.parse(["--help"]).help)
    #expect(try CalcOptions.parse(["-h"]).help)
    #expect(try CalcOptions.parse(["--version"]).version)
  }

  @Test(
    "a bad command line names the argument",
    arguments: [
      (["--engine", "combine"], "--engine: unknown engine 'combine'; use pipeline, debounce, task, shared or all"),
      (["--engine"], "--engine needs a value"),
      (["--delay", "--json"], "--delay needs a value"),
      (["--delay", "fast"], "--delay: 'fast' is not a duration: it must start with a number (e.g. 1.5s, 250ms)"),
      (["--delay", "5"], "--delay: '5' needs a unit: ms, s, m or h (e.g. 5s)"),
      (["--debounce", "2d"], "--debounce: '2d' has an unknown unit 'd'; use ms, s, m (or min) or h"),
      (["--clock", "wall"], "--clock: unknown clock 'wall'; use real or virtual"),
      (["--json=yes"], "--json takes no value"),
      (["--engine", "task", "--engine", "pipeline"], "--engine is given twice; give it once"),
      (["--engine=task", "--engine", "task"], "--engine is given twice; give it once"),
      (["--json", "--json"], "--json is given twice; give it once"),
      (["--help", "-h"], "-h is given twice; give it once"),
      (["-x"], "unknown argument '-x'"),
      (["12"], "unknown argument '12'"),
      (["--", "--engine", "task"], "unexpected operand '--engine' after '--'; calc takes no operands"),
      (["--json", "--", "12"], "unexpected operand '12' after '--'; calc takes no operands"),
      (["--", "--"], "unexpected operand '--' after '--'; calc takes no operands"),
    ])
  func badArguments(arguments: [String], message: String) {
    #expect(throws: CalcOptions.UsageError(message: message)) { try CalcOptions.parse(arguments) }
  }

  @Test(
    "`--` ends the options",
    arguments: [
      (["--"], CalcOptions()),
      (
        ["--engine", "task", "--"],
        options {
          $0.engine = .design(.task); $0.engineGiven = true
        }
      ),
      (["--clock=virtual", "--"], options { $0.clock = .virtual }),
    ])
  func endOfOptions(arguments: [String], expected: CalcOptions) throws {
    #expect(try CalcOptions.parse(arguments) == expected)
  }

  @Test("--debounce is an error unless the engine is debounce or all")
  func debounceAppliesToTheDebounceEngine() throws {
    #expect(try CalcOptions.parse(["--engine", "debounce", "--debounce", "2s"]).debounce == .seconds(2))
    #expect(try CalcOptions.parse(["--debounce", "2s", "--engine=debounce"]).debounce == .seconds(2))
    #expect(try CalcOptions.parse(["--engine", "all", "--debounce", "2s"]).debounce == .seconds(2))
    let message = "--debounce only applies to --engine debounce (or all)"
    for engine in ["pipeline", "task", "shared"] {
      for interactive in [false, true] {
        #expect(throws: CalcOptions.UsageError(message: message)) {
          try CalcOptions.parse(["--engine", engine, "--debounce", "2s"]).resolved(interactive: interactive)
        }
      }
    }
    // Without --engine it depends on the mode: the form shows all four designs, a script runs the pipeline.
    let unnamed = try CalcOptions.parse(["--debounce", "2s"])
    #expect(try unnamed.resolved(interactive: true).debounce == .seconds(2))
    #expect(throws: CalcOptions.UsageError(message: message)) { try unnamed.resolved(interactive: false) }
  }

  @Test(
    "script-mode options are errors in the form",
    arguments: [
      (["--json"], "--json only applies to script mode; add --script, or pipe a script into calc"),
      (
        ["--clock", "virtual"], "--clock virtual only applies to script mode; add --script, or pipe a script into calc"
      ),
      (
        ["--json", "--clock", "virtual"], "--json only applies to script mode; add --script, or pipe a script into calc"
      ),
    ])
  func scriptOnlyOptions(arguments: [String], message: String) throws {
    let options = try CalcOptions.parse(arguments)
    #expect(throws: CalcOptions.UsageError(message: message)) { try options.resolved(interactive: true) }
    _ = try options.resolved(interactive: false)
  }

  @Test(
    "durations read exactly",
    arguments: [
      ("1.5s", Duration.milliseconds(1500)), ("250ms", .milliseconds(250)), ("0", .zero), ("0.0", .zero),
      ("2s", .seconds(2)), ("0.1s", .milliseconds(100)), (".5s", .milliseconds(500)), ("0.25ms", .microseconds(250)),
      ("1000000000s", .seconds(1_000_000_000)), ("2m", .seconds(120)), ("2min", .seconds(120)), ("1h", .seconds(3600)),
      ("1.5h", .seconds(5400)), ("0.5m", .seconds(30)), ("0.001s", .milliseconds(1)), ("007s", .seconds(7)),
      ("1.0000000000000000009s", .seconds(1)),
    ])
  func durations(text: String, expected: Duration) throws {
    #expect(try DurationText.parse(text) == expected)
  }

  @Test(
    "bad durations say why",
    arguments: [
      ("", DurationText.Failure.empty), ("1.2.3s", .extraDecimalPoint("1.2.3s")), ("-1s", .negative("-1s")),
      ("s", .notANumber("s")), (".s", .notANumber(".s")), ("1d", .unknownUnit("1d", unit: "d")),
      ("3", .missingUnit("3")), ("99999999999s", .tooLarge("99999999999s")), ("1 s", .malformed("1 s")),
      ("1e9s", .exponent("1e9s")), ("1e3ms", .exponent("1e3ms")), ("1E-3s", .exponent("1E-3s")),
      ("1000000001s", .tooLarge("1000000001s")), ("300000h", .tooLarge("300000h")), ("5%", .malformed("5%")),
      ("1sec", .unknownUnit("1sec", unit: "sec")),
    ])
  func badDurations(text: String, failure: DurationText.Failure) {
    #expect(throws: failure) { try DurationText.parse(text) }
  }

  @Test(
    "each reason names the text and says what is wrong",
    arguments: [
      ("1e9s", "'1e9s' has an exponent; write the number out (e.g. 1000000000s)"),
      ("1h30", "'1h30' is not a number followed by its unit (e.g. 1.5s, 250ms)"),
      ("1d", "'1d' has an unknown unit 'd'; use ms, s, m (or min) or h"),
      ("-2s", "'-2s' is negative; a duration is 0 or more"),
      ("1 s", "'1 s' is not a number followed by its unit (e.g. 1.5s, 250ms)"),
    ])
  func durationReasons(text: String, reason: String) {
    #expect(throws: DurationText.Failure.self) { try DurationText.parse(text) }
    do {
      _ = try DurationText.parse(text)
    } catch {
      #expect(error.description == reason)
    }
  }

  @Test(
    "times print as seconds with three decimals",
    arguments: [
      (Duration.zero, "0.000"), (.milliseconds(1500), "1.500"), (.milliseconds(42), "0.042"), (.seconds(61), "61.000"),
    ])
  func seconds(duration: Duration, text: String) {
    #expect(DurationText.seconds(duration) == text)
  }
}

/// Default options changed by `change`.
private func options(_ change: (inout CalcOptions) -> Void) -> CalcOptions {
  var options = CalcOptions()
  change(&options)
  return options
}
