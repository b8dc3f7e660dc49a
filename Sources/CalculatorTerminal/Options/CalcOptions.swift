import Calculator

/// What the command line asked `calc` to do.
///
/// Parse it with ``parse(_:)``; a flag it does not know, or a value it cannot read, throws a ``UsageError`` whose
/// message names the argument. `--` ends the options; as `calc` takes no operands, anything after it is an error.
/// Defaults follow the designs: `pipeline` and `debounce` calculate with no delay, `task` and `shared` with a
/// one-second delay; the debounce waits one second.
///
/// ```swift
/// let options = try CalcOptions.parse(["--engine", "task", "--delay", "250ms"])
/// options.engine          // .task
/// options.effectiveDelay  // 250 ms
/// ```
public struct CalcOptions: Equatable, Sendable {
  /// The design the model runs, as `--engine` names it.
  public enum Engine: String, CaseIterable, Sendable {
    case pipeline, debounce, task, shared
  }

  /// Which clock times the calculator and the debounce.
  public enum ClockKind: String, CaseIterable, Sendable {
    /// Wall-clock time: `wait 1s` takes a second.
    case real
    /// A `TestClock`: `wait 1s` advances it, so output is exact and instant.
    case virtual
  }

  /// `--engine`; `pipeline` by default.
  public var engine: Engine = .pipeline
  /// `--delay`: how slow the calculator is; `nil` for the engine's default.
  public var delay: Duration?
  /// `--debounce`: how long the debounce engine waits for typing to settle.
  public var debounce: Duration = .seconds(1)
  /// `--clock`.
  public var clock: ClockKind = .real
  /// `--script`: read a script even from a terminal.
  public var script = false
  /// `--json`: print one JSON object per event.
  public var json = false
  /// `--help`.
  public var help = false
  /// `--version`.
  public var version = false

  /// Options with every default.
  public init() {}

  /// The calculator delay to use: `--delay`, or the engine's default.
  public var effectiveDelay: Duration {
    if let delay { return delay }
    switch engine {
    case .pipeline, .debounce: return .zero
    case .task, .shared: return .seconds(1)
    }
  }

  /// A command line `calc` cannot run, with the reason in words.
  public struct UsageError: Error, Equatable, CustomStringConvertible {
    /// The reason, naming the argument.
    public var message: String
    /// The reason, naming the argument.
    public var description: String { message }
  }

  /// The version `--version` prints.
  public static let versionText = "calc (Ripple) 0.1.0"

  /// The text `--help` prints.
  public static let usage = """
    usage: calc [--engine pipeline|debounce|task|shared] [--delay <duration>] [--debounce <duration>]
                [--clock real|virtual] [--script] [--json] [--help] [--version] [--]

    The slow calculator: two number fields a and b and their sum, computed by a slow service.
    Interactive when stdin and stdout are terminals; otherwise (or with --script) it reads a script from stdin.

    options:
      --engine <name>        the design: pipeline (default), debounce, task or shared
      --delay <duration>     how slow the calculator is (default: 0 for pipeline and debounce, 1s otherwise)
      --debounce <duration>  --engine debounce only: how long it waits for typing to settle (default 1s)
      --clock real|virtual   script mode: virtual makes `wait` advance a test clock, exact and instant (default real)
      --script               read a script even when stdin is a terminal
      --json                 script mode: print one JSON object per event
      --help                 show this help
      --version              show the version
      --                     ends the options (calc takes no operands)

    durations: 250ms, 1.5s, 2m (or 2min), 1h, 0
    script lines: `a 12`, `b 30`, `a` (clears a), `wait 1.5s`, `# comment`, blank lines
    script output: `<seconds> <event>`, events waiting, settling, computing, result <n>, error <words>
    """

  /// Reads the arguments (without the program name).
  public static func parse(_ arguments: some Sequence<String>) throws(UsageError) -> CalcOptions {
    var options = CalcOptions()
    var debounceGiven = false
    var remaining = Array(arguments)[...]
    while let argument = remaining.popFirst() {
      // `--` ends the options (the POSIX convention); calc takes no operands, so only a bare `--` is accepted.
      if argument == "--" {
        if let operand = remaining.first {
          throw UsageError(message: "unexpected operand \(QuotedText(operand)) after '--'; calc takes no operands")
        }
        break
      }
      // `--flag=value` and `--flag value` both work.
      let (flag, attached) =
        argument.firstIndex(of: "=").map { (String(argument[..<$0]), String(argument[argument.index(after: $0)...])) }
        ?? (argument, nil)
      func value() throws(UsageError) -> String {
        if let attached { return attached }
        guard let next = remaining.popFirst(), !next.hasPrefix("--") else {
          throw UsageError(message: "\(flag) needs a value")
        }
        return next
      }
      func duration() throws(UsageError) -> Duration {
        let text = try value()
        do {
          return try DurationText.parse(text)
        } catch {
          throw UsageError(message: "\(flag): \(error)")
        }
      }
      func noValue() throws(UsageError) {
        if attached != nil { throw UsageError(message: "\(flag) takes no value") }
      }
      switch flag {
      case "--engine":
        let name = try value()
        guard let engine = Engine(rawValue: name) else {
          throw UsageError(
            message: "--engine: unknown engine \(QuotedText(name)); use pipeline, debounce, task or shared")
        }
        options.engine = engine
      case "--delay": options.delay = try duration()
      case "--debounce":
        options.debounce = try duration()
        debounceGiven = true
      case "--clock":
        let name = try value()
        guard let clock = ClockKind(rawValue: name) else {
          throw UsageError(message: "--clock: unknown clock \(QuotedText(name)); use real or virtual")
        }
        options.clock = clock
      case "--script":
        try noValue()
        options.script = true
      case "--json":
        try noValue()
        options.json = true
      case "--help", "-h":
        try noValue()
        options.help = true
      case "--version":
        try noValue()
        options.version = true
      default:
        throw UsageError(message: "unknown argument \(QuotedText(argument))")
      }
    }
    if debounceGiven, options.engine != .debounce {
      throw UsageError(message: "--debounce only applies to --engine debounce")
    }
    return options
  }

  /// Checks that every option given applies to the mode `calc` runs in: `--json` and `--clock virtual` are for
  /// script mode only.
  public func check(interactive: Bool) throws(UsageError) {
    guard interactive else { return }
    let scriptOnly = [json ? "--json" : nil, clock == .virtual ? "--clock virtual" : nil].compactMap { $0 }
    if let option = scriptOnly.first {
      throw UsageError(
        message: "\(option) only applies to script mode; add --script, or pipe a script into calc")
    }
  }
}
