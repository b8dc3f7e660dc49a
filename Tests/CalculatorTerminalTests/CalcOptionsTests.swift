import Testing

@testable import CalculatorTerminal

@Suite("CalcOptions")
struct CalcOptionsTests {
  @Test("defaults follow the designs")
  func defaults() throws {
    let options = try CalcOptions.parse([])
    #expect(options.engine == .pipeline)
    #expect(options.clock == .real)
    #expect(options.debounce == .seconds(1))
    #expect(options.effectiveDelay == .zero)
    for (engine, delay) in [(CalcOptions.Engine.debounce, Duration.zero), (.task, .seconds(1)), (.shared, .seconds(1))]
    {
      #expect(try CalcOptions.parse(["--engine", engine.rawValue]).effectiveDelay == delay)
    }
  }

  @Test("every flag, in both spellings")
  func flags() throws {
    let spaced = try CalcOptions.parse([
      "--engine", "task", "--delay", "250ms", "--debounce", "1.5s", "--clock", "virtual", "--script", "--json",
    ])
    let attached = try CalcOptions.parse([
      "--engine=task", "--delay=250ms", "--debounce=1.5s", "--clock=virtual", "--script", "--json",
    ])
    #expect(spaced == attached)
    #expect(spaced.engine == .task)
    #expect(spaced.effectiveDelay == .milliseconds(250))
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
      (["--engine", "combine"], "--engine: unknown engine 'combine'; use pipeline, debounce, task or shared"),
      (["--engine"], "--engine needs a value"),
      (["--delay", "--json"], "--delay needs a value"),
      (["--delay", "fast"], "--delay: 'fast' is not a duration (e.g. 1.5s, 250ms)"),
      (["--delay", "5"], "--delay: '5' needs a unit: s or ms (e.g. 5s)"),
      (["--debounce", "2h"], "--debounce: '2h' has an unknown unit; use s or ms (e.g. 1.5s, 250ms)"),
      (["--clock", "wall"], "--clock: unknown clock 'wall'; use real or virtual"),
      (["--json=yes"], "--json takes no value"),
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
      (["--engine", "task", "--"], options { $0.engine = .task }),
      (["--clock=virtual", "--"], options { $0.clock = .virtual }),
    ])
  func endOfOptions(arguments: [String], expected: CalcOptions) throws {
    #expect(try CalcOptions.parse(arguments) == expected)
  }

  @Test(
    "durations read exactly",
    arguments: [
      ("1.5s", Duration.milliseconds(1500)), ("250ms", .milliseconds(250)), ("0", .zero), ("0.0", .zero),
      ("2s", .seconds(2)), ("0.1s", .milliseconds(100)), (".5s", .milliseconds(500)), ("0.25ms", .microseconds(250)),
      ("1000000000s", .seconds(1_000_000_000)),
    ])
  func durations(text: String, expected: Duration) throws {
    #expect(try DurationText.parse(text) == expected)
  }

  @Test(
    "bad durations say why",
    arguments: [
      ("", DurationText.Failure.empty), ("1.2.3s", .notANumber("1.2.3s")), ("-1s", .notANumber("-1s")),
      ("s", .notANumber("s")), ("1m", .unknownUnit("1m")), ("3", .missingUnit("3")),
      ("99999999999s", .tooLarge("99999999999s")), ("1 s", .notANumber("1 s")),
    ])
  func badDurations(text: String, failure: DurationText.Failure) {
    #expect(throws: failure) { try DurationText.parse(text) }
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
