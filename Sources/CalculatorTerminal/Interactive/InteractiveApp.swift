import Calculator

/// The interactive form: `calc` when standard input is a terminal.
///
/// It builds the models the options ask for (two panels on one ``SharedCalculation`` for `--engine shared`, the
/// four designs side by side on one pair of fields for `--engine all`, the default),
/// enters raw mode through ``RawMode``, and runs the one event loop: keys, resizes and the end of input from the
/// ``InputReader`` thread, merged by the ``FormSession`` with the models' changes and the spinner's ticks.
/// Returns the exit status: 0 after `q` or Escape, 130 after Ctrl-C, 1 when the terminal cannot be used.
/// (``CalcCommand`` has already refused the script-mode options `--json` and `--clock virtual`.)
@MainActor
struct InteractiveApp {
  let options: CalcOptions

  func run() async -> Int32 {
    let panels = options.makeScreens(clock: ContinuousClock())
    let colour = !Self.environmentSays("NO_COLOR")
    do {
      return try await RawMode.run(input: Platform.standardInput, output: Platform.standardOutput) {
        try await loop(panels: panels, colour: colour)
      }
    } catch {
      StandardStream.error.write("calc: \(error)\n")
      return 1
    }
  }

  private func loop(panels: [DesignScreen], colour: Bool) async throws -> Int32 {
    let (keys, continuation) = AsyncStream.makeStream(of: TerminalEvent.self)
    let reader = try InputReader.start(input: Platform.standardInput) { continuation.yield($0) }
    defer { reader.stop() }
    let sideBySide = options.engine == .all
    let session = FormSession(
      models: panels.map(\.model), labels: sideBySide ? panels.map(\.label) : nil,
      counts: sideBySide ? panels.map(\.shownCounts) : [], notes: sideBySide ? panels.map(\.note) : [],
      title: title,
      size: TerminalSize.of(descriptor: Platform.standardOutput), colour: colour,
      clock: ContinuousClock(), write: { TerminalRestorer.write($0) }, suspend: { RawMode.suspend() })
    return await session.run(keys: keys)
  }

  /// `calc · the slow calculator · engine task · delay 1s`; with `all`, two lines:
  /// `calc · the four designs side by side on one input` and
  /// `delay: pipeline 0s · debounce 0s after 1s of quiet · task 1s · shared 1s`.
  var title: String {
    guard case .design(let design) = options.engine else {
      let delays = CalculatorDesign.allCases.map { design in
        let delay = "\(design.rawValue) \(Self.words(options.delay(for: design)))"
        return design == .debounce ? delay + " after \(Self.words(options.debounce)) of quiet" : delay
      }
      return "calc · the four designs side by side on one input\ndelay: " + delays.joined(separator: " · ")
    }
    var parts = ["calc · the slow calculator", "engine \(design.rawValue)"]
    if design == .debounce { parts.append("debounce \(Self.words(options.debounce))") }
    parts.append("delay \(Self.words(options.delay(for: design)))")
    return parts.joined(separator: " · ")
  }

  /// `1s`, `1.5s`, `250ms`, `0s`.
  static func words(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
    if milliseconds % 1000 == 0 { return "\(milliseconds / 1000)s" }
    if milliseconds < 1000 { return "\(milliseconds)ms" }
    return DurationText.seconds(duration).reversed().drop { $0 == "0" }.reversed().map(String.init).joined() + "s"
  }

  /// Whether the variable `name` is set and not empty (the rule `NO_COLOR` follows).
  static func environmentSays(_ name: String) -> Bool {
    guard let value = Platform.environment(name) else { return false }
    return !value.isEmpty
  }
}
