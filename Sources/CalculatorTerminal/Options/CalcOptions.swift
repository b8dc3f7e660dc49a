import Calculator

/// What the command line asked `calc` to do.
///
/// Parse it with ``parse(_:)``; a flag it does not know, or a value it cannot read, throws a ``UsageError`` whose
/// message names the argument. `--` ends the options; as `calc` takes no operands, anything after it is an error.
/// The delays and the debounce default to each design's (`CalculatorDesign`). Without `--engine`, the form shows
/// `all` four designs side by side and a script runs the pipeline (``resolved(interactive:)`` decides).
///
/// ```swift
/// let options = try CalcOptions.parse(["--engine", "task", "--delay", "250ms"])
/// options.engine               // .design(.task)
/// options.delay(for: .task)    // 250 ms
/// ```
public struct CalcOptions: Equatable, Sendable {
  /// What `--engine` asks for: one design, or `all` four side by side on one input.
  public enum Engine: Hashable, Sendable {
    /// One design.
    case design(CalculatorDesign)
    /// The four designs side by side, in the order of `CalculatorDesign.allCases`.
    case all

    /// The engine `--engine name` asks for; `nil` for a name it does not know.
    public init?(name: String) {
      if name == "all" {
        self = .all
      } else if let design = CalculatorDesign(rawValue: name) {
        self = .design(design)
      } else {
        return nil
      }
    }

    /// The name `--engine` gives it.
    public var name: String {
      switch self {
      case .design(let design): design.rawValue
      case .all: "all"
      }
    }

    /// The designs it runs: the one, or all four.
    public var designs: [CalculatorDesign] {
      switch self {
      case .design(let design): [design]
      case .all: CalculatorDesign.allCases
      }
    }
  }

  /// Which clock times the calculator and the debounce.
  public enum ClockKind: String, CaseIterable, Sendable {
    /// Wall-clock time: `wait 1s` takes a second.
    case real
    /// A `TestClock`: `wait 1s` advances it, so output is exact and instant.
    case virtual
  }

  /// `--engine`; without it, the pipeline until ``resolved(interactive:)`` picks the mode's default.
  public var engine: Engine = .design(.pipeline)
  /// Whether `--engine` was given.
  public var engineGiven = false
  /// Whether `--debounce` was given.
  public var debounceGiven = false
  /// `--delay`: how slow the calculator is; `nil` for each design's default.
  public var delay: Duration?
  /// `--debounce`: how long the debounce engine waits for typing to settle.
  public var debounce = CalculatorDesign.defaultDebounceInterval
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

  /// The calculator delay `design` uses: `--delay`, or the design's `defaultDelay`.
  public func delay(for design: CalculatorDesign) -> Duration {
    delay ?? design.defaultDelay
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

  /// The designs' names, as `--engine` takes them.
  private static let designNames = CalculatorDesign.allCases.map(\.rawValue)

  /// The text `--help` prints.
  public static let usage = """
    usage: calc [--engine \(designNames.joined(separator: "|"))|all] [--delay <duration>]
                [--debounce <duration>] [--clock real|virtual] [--script] [--json]
                [--help] [--version] [--]

    The slow calculator: two number fields a and b and their sum, computed by a
    slow service. Interactive when stdin and stdout are terminals; otherwise (or
    with --script) it reads a script from stdin.

    designs (four ways to keep a result in step with its input):
      pipeline   Observed fields, combineLatest, mapLatest: each pair at once;
                 pick it when every input deserves an answer and sums are cheap.
      debounce   waits until the typing stops for --debounce, then calculates;
                 pick it when a sum is costly and only the settled input matters.
      task       restarts on each change, cancelling the one in flight (.task(id:));
                 pick it when one screen owns the work and it should end with it.
      shared     task's restart in one object several screens hold: one calculation;
                 pick it when separate parts of an app show and edit the same input.
      all        the four side by side on one input (the form's default).

    options (a value follows its flag, `--engine task`, or is attached,
    `--engine=task`; each flag at most once):
      --engine <name>        the design (default: all in the form, pipeline for a
                             script)
      --delay <duration>     how slow the calculator is (default: 0 for pipeline
                             and debounce, 1s otherwise)
      --debounce <duration>  debounce (and all) only: how long it waits for the
                             typing to settle (default 1s)
      --clock real|virtual   script mode: virtual makes `wait` advance a test
                             clock, exact and instant (default real)
      --script               read a script even when stdin is a terminal
      --json                 script mode: print one JSON object per event
      --help                 show this help
      --version              show the version
      --                     ends the options (calc takes no operands)

    durations: 250ms, 1.5s, 2m (or 2min), 1h, 0
    script lines: `a 12`, `b 30`, `a` (clears a), `wait 1.5s`, `# comment`, blank
    script output: `<seconds> <event>` (`<seconds> <engine> <event>` with --engine
                   all); events waiting, settling, computing, result <n>,
                   error <words>
    """

  /// Reads the arguments (without the program name).
  public static func parse(_ arguments: some Sequence<String>) throws(UsageError) -> CalcOptions {
    var options = CalcOptions()
    var remaining = Array(arguments)[...]
    // Each flag once: a second `--engine` would silently win over the first, whichever the user meant.
    var given: Set<String> = []
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
      let name = flag == "-h" ? "--help" : flag
      if given.contains(name) {
        throw UsageError(message: "\(flag) is given twice; give it once")
      }
      given.insert(name)
      switch flag {
      case "--engine":
        let name = try value()
        guard let engine = Engine(name: name) else {
          let choices = designNames.joined(separator: ", ")
          throw UsageError(message: "--engine: unknown engine \(QuotedText(name)); use \(choices) or all")
        }
        options.engine = engine
        options.engineGiven = true
      case "--delay": options.delay = try duration()
      case "--debounce":
        options.debounce = try duration()
        options.debounceGiven = true
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
    return options
  }

  /// The options for the mode `calc` runs in, with the mode's default engine; throws when an option given does
  /// not apply to the mode or the engine (`--json` and `--clock virtual` are for script mode only, `--debounce`
  /// for the debounce engine or all).
  public func resolved(interactive: Bool) throws(UsageError) -> CalcOptions {
    var options = self
    if !engineGiven { options.engine = interactive ? .all : .design(.pipeline) }
    if debounceGiven, !options.engine.designs.contains(.debounce) {
      throw UsageError(message: "--debounce only applies to --engine debounce (or all)")
    }
    guard interactive else { return options }
    let scriptOnly = [json ? "--json" : nil, clock == .virtual ? "--clock virtual" : nil].compactMap { $0 }
    if let option = scriptOnly.first {
      throw UsageError(
        message: "\(option) only applies to script mode; add --script, or pipe a script into calc")
    }
    return options
  }
}
