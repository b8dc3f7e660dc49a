import Calculator
import Ripple
import RippleTesting

/// Script mode: reads `calc` commands line by line, plays them into the model, and prints each change of what
/// the result shows as `<seconds> <event>` (or a JSON object per event with `--json`).
///
/// With `--clock virtual`, the script is read to its end first, then played on a `TestClock` in
/// `TestClock.lockstep`, which moves time only once every task has reacted, so the output is exact and instant;
/// with the real clock, lines are played as they come, `wait` takes wall time and the times are measured.
/// Either way the events are the same: the status right after each edit, the status as each calculation starts
/// (a watcher alone could miss a `computing` that ends at once), and each status a task watching the model with
/// `Observed` sees — except that on the real clock lines with no `wait` between them are played as fast as they
/// come, like a paste, where the virtual clock lets every task react to each line before the next. A bad line is
/// reported on standard error with its number and text, skipped, and makes the exit status 1; the rest of the
/// script still runs. At the end of input a calculation in flight is awaited and its outcome printed, and with
/// `--engine all` each design's counts (``CalculationTally``).
///
/// ```
/// $ printf 'b 30\na 1\nwait 0.5s\na 12\nwait 2s\n' | calc --engine task --clock virtual
/// 0.000 computing
/// 1.500 result 42
/// ```
@MainActor
struct ScriptRunner {
  let options: CalcOptions
  var output: (String) -> Void = { StandardStream.output.write($0) }
  var errors: (String) -> Void = { StandardStream.error.write($0) }

  /// Runs the script in `lines` and returns the exit status: 0, or 1 when a line was bad.
  func run<Lines: AsyncSequence<String, Never>>(lines: Lines) async -> Int32 {
    switch options.clock {
    case .virtual:
      // Read first: a task of the lockstep scope that waited for standard input would be resumed by the thread
      // reading it, and go on outside the scope.
      var script: [String] = []
      for await line in lines { script.append(line) }
      return await runVirtual(script)
    case .real:
      return await runTimed(lines, clock: ContinuousClock())
    }
  }

  private func runVirtual(_ lines: [String]) async -> Int32 {
    let clock = TestClock()
    return await clock.lockstep {
      let run = playback(clock: clock)
      // Besides the status right after each edit, the status as each calculation starts, and every status a
      // watcher sees, as on the real clock; held until the instant ends, so that within an instant each engine's
      // events come together, in a fixed order.
      run.starts.report = { design in run.started(design, at: clock.now.offset, print: run.printer.settle) }
      let watchers = watch(run.shown) { panel, status in
        run.report(panel, status, at: clock.now.offset, print: run.printer.settle)
      }
      var status: Int32 = 0
      for (index, line) in lines.enumerated() {
        guard let command = parse(line, number: index + 1) else {
          status = 1
          continue
        }
        switch command {
        case .set(let field, let value)?:
          for panel in run.shown { set(field, to: value, in: panel.model) }
          // What the edit shows at once (computing, say), after what the instant showed before it.
          run.printer.flush()
          run.reportAll(at: clock.now.offset, print: run.printer.show)
          await clock.advance(by: .zero)  // every task reacts to the edit before the next line
        case .wait(let duration)?: await clock.advance(by: duration)
        case nil: break
        }
      }
      // The end of input: every calculation in flight ends.
      await clock.run()
      await stop(watchers)
      run.starts.report = { _ in }  // it holds the screens, whose calculators hold it
      run.reportAll(at: clock.now.offset, print: run.printer.settle)
      run.printer.flush()
      printCounts(run, at: clock.now.offset)
      withExtendedLifetime(run.panels) {}
      return status
    }
  }

  /// Plays `lines` as they come, on `clock` (`ContinuousClock` for `calc`; tests pass a `TestClock` and move
  /// it), printing each status when it happens.
  func runTimed<Lines: AsyncSequence<String, Never>, C: Clock<Duration>>(_ lines: Lines, clock: C) async -> Int32 {
    let start = clock.now
    let run = playback(clock: clock)
    // The status as each calculation starts: a watcher, which sees the latest status when it looks, would miss a
    // `computing` that ends at once (the debounce's with no delay) as often as not, and the clocks would differ.
    run.starts.report = { design in run.started(design, at: start.duration(to: clock.now), print: run.printer.show) }
    let watchers = watch(run.shown) { panel, status in
      run.report(panel, status, at: start.duration(to: clock.now), print: run.printer.show)
    }
    var status: Int32 = 0
    var number = 0
    for await line in lines {
      number += 1
      switch parse(line, number: number) {
      case .set(let field, let value)??:
        for panel in run.shown { set(field, to: value, in: panel.model) }
        // What the edit shows at once, as on the virtual clock: a calculation that ends before the watcher looks
        // was still started.
        run.reportAll(at: start.duration(to: clock.now), print: run.printer.show)
      case .wait(let duration)??: try? await clock.sleep(for: duration)
      case nil?: break
      case nil: status = 1
      }
    }
    // The end of input: the watchers go on showing each design's events until no calculation is in flight.
    for await pending in Observed({ run.shown.contains { $0.model.status.isPending } }) where !pending { break }
    await stop(watchers)
    run.starts.report = { _ in }  // it holds the screens, whose calculators hold it
    run.reportAll(at: start.duration(to: clock.now), print: run.printer.show)
    printCounts(run, at: start.duration(to: clock.now))
    withExtendedLifetime(run.panels) {}
    return status
  }

  /// With `--engine all`, prints where each design's calculations went: `<seconds> <engine> counts …`.
  private func printCounts(_ run: Playback, at time: Duration) {
    guard options.engine == .all else { return }
    for panel in run.shown { run.printer.counts(run.tallies.counts(panel), at: time, engine: panel.design.rawValue) }
  }

  /// The screens of one run of the script on `clock`, and where their statuses go.
  private func playback(clock: some Clock<Duration>) -> Playback {
    let starts = CalculationStarts()
    let panels = options.makeScreens(clock: clock, onStart: { starts.report($0) })
    return Playback(
      printer: EventPrinter(json: options.json, output: output), starts: starts, panels: panels,
      shown: shownPanels(panels), label: label)
  }

  /// Starts one task per panel that calls `report` with each status of the panel's model it sees.
  private func watch(
    _ panels: [DesignScreen], report: @escaping @MainActor (DesignScreen, CalculatorStatus) -> Void
  ) -> [Task<Void, Never>] {
    panels.map { panel in
      Task {
        for await status in Observed({ panel.model.status }) { report(panel, status) }
      }
    }
  }

  /// Cancels the watchers and waits for each: one still suspended in its `Observed` at exit would keep the model
  /// in a cycle with the model's own observation registrar (LeakSanitizer reports it).
  private func stop(_ watchers: [Task<Void, Never>]) async {
    for watcher in watchers {
      watcher.cancel()
      await watcher.value
    }
  }

  /// The screens whose status the script prints and edits go to: the first (the second of `shared` shows the
  /// same calculation), or with `--engine all` the first of each design.
  private func shownPanels(_ panels: [DesignScreen]) -> [DesignScreen] {
    options.engine == .all ? panels.filter { $0.screen == 0 } : [panels[0]]
  }

  /// The engine name an event line carries: only with `--engine all`.
  private func label(_ panel: DesignScreen) -> String? {
    options.engine == .all ? panel.design.rawValue : nil
  }

  private func set(_ field: ScriptCommand.Field, to value: Int?, in model: CalculatorModel) {
    switch field {
    case .a: model.a = value
    case .b: model.b = value
    }
  }

  /// Line `number`'s command (`.some(nil)` for a blank line or a comment), or `nil` after reporting why it is
  /// bad.
  private func parse(_ text: String, number: Int) -> ScriptCommand?? {
    var line = text
    // A byte-order mark, as some editors write at the start of a file, is not part of the first command.
    if number == 1, line.unicodeScalars.first == "\u{FEFF}" { line.unicodeScalars.removeFirst() }
    do {
      return .some(try ScriptCommand.parse(line))
    } catch {
      errors("calc: line \(number): \(QuotedText(line)): \(error)\n")
      return nil
    }
  }
}

/// One run of a script: its screens, the ones whose statuses it prints, and where each status goes — sorted into
/// the tallies, then printed with the printer's `show` (at once) or `settle` (held until the instant ends).
@MainActor
struct Playback {
  let printer: EventPrinter
  let tallies = Tallies()
  let starts: CalculationStarts
  let panels: [DesignScreen]
  let shown: [DesignScreen]
  /// The engine name an event line carries.
  let label: (DesignScreen) -> String?

  /// Sorts what ended of `panel`'s calculations, then prints `status`, by default the one its model shows now.
  func report(
    _ panel: DesignScreen, _ status: CalculatorStatus? = nil, at time: Duration,
    print: (CalculatorStatus, Duration, String?) -> Void
  ) {
    tallies.account(panel)
    print(status ?? panel.model.status, time, label(panel))
  }

  /// ``report(_:_:at:print:)`` of every shown panel.
  func reportAll(at time: Duration, print: (CalculatorStatus, Duration, String?) -> Void) {
    for panel in shown { report(panel, at: time, print: print) }
  }

  /// ``report(_:_:at:print:)`` of the shown panels of `design`, one of whose calculations just started.
  func started(_ design: CalculatorDesign, at time: Duration, print: (CalculatorStatus, Duration, String?) -> Void) {
    for panel in shown where panel.design == design { report(panel, at: time, print: print) }
  }
}

/// Where each design's calculations went (``CalculationTally``), sorted each time the script reports the design.
@MainActor
final class Tallies {
  private var tallies: [CalculatorDesign: CalculationTally] = [:]

  /// Sorts what ended of `screen`'s calculations against its model now.
  func account(_ screen: DesignScreen) {
    tallies[screen.design, default: CalculationTally()].account(screen.counts.takeEnded(), model: screen.model)
  }

  /// `screen`'s counts, after sorting what ended.
  func counts(_ screen: DesignScreen) -> PanelResult.Counts {
    account(screen)
    return tallies[screen.design, default: CalculationTally()].counts(started: screen.counts.started)
  }
}

/// Where a script's calculation starts are reported, once the screens that report them exist.
@MainActor
final class CalculationStarts {
  /// Called with the design of each calculation that starts.
  var report: (CalculatorDesign) -> Void = { _ in }
}

/// Prints each change of a result's status, once; with several engines (`--engine all`), each engine's changes,
/// in time order and, within an instant, in the order the engines first appeared.
@MainActor
final class EventPrinter {
  private let json: Bool
  private let output: (String) -> Void
  /// What was printed last for each engine (`""` when there is one, unnamed).
  private var last: [String: CalculatorStatus] = [:]
  /// The engines in the order they first appeared.
  private var order: [String] = []
  /// For each engine, the statuses of the instant ``settle(_:at:engine:)`` saw last, not printed yet.
  private var pending: [String: [(status: CalculatorStatus, time: Duration)]] = [:]

  init(json: Bool, output: @escaping (String) -> Void) {
    self.json = json
    self.output = output
  }

  /// Prints `status` of `engine` at `time` unless it is what was printed last for it.
  func show(_ status: CalculatorStatus, at time: Duration, engine: String? = nil) {
    let key = self.key(engine)
    guard status != last[key] else { return }
    // The initial empty form is not a change.
    guard last[key] != nil || status != .waiting else {
      last[key] = status
      return
    }
    last[key] = status
    if json {
      output(Self.json(status, at: time, engine: engine))
    } else {
      output("\(DurationText.seconds(time)) \(engine.map { "\($0) " } ?? "")\(status)\n")
    }
  }

  /// Prints `engine`'s counts at `time`, after every status held back:
  /// `1.500 task counts 2 started = 1 cancelled + 0 superseded + 1 shown + 0 running`, or with `--json`
  /// `{"time":1.500,"engine":"task","event":"counts","started":2,"cancelled":1,"superseded":0,"shown":1,"running":0}`.
  func counts(_ counts: PanelResult.Counts, at time: Duration, engine: String) {
    flush()
    if json {
      let fields =
        #""started":\#(counts.started),"cancelled":\#(counts.cancelled),"superseded":\#(counts.superseded),"#
        + #""shown":\#(counts.shown),"running":\#(counts.running)"#
      output(
        #"{"time":\#(DurationText.seconds(time)),"engine":\#(Self.quoted(engine)),"event":"counts",\#(fields)}"# + "\n")
    } else {
      output(
        "\(DurationText.seconds(time)) \(engine) counts \(counts.started) started = \(counts.cancelled) cancelled"
          + " + \(counts.superseded) superseded + \(counts.shown) shown + \(counts.running) running\n")
    }
  }

  /// Notes `status` of `engine` at `time`, after printing what every engine held back from earlier instants:
  /// each instant is printed as it ends, engine by engine in the order they first appeared, every step of each.
  /// Call ``flush()`` at the end.
  func settle(_ status: CalculatorStatus, at time: Duration, engine: String? = nil) {
    if pending.values.contains(where: { $0.contains { $0.time != time } }) {
      flush(before: time)
    }
    pending[key(engine), default: []].append((status, time))
  }

  /// Prints every status ``settle(_:at:engine:)`` holds back.
  func flush() {
    flush(before: nil)
  }

  private func flush(before time: Duration?) {
    for key in order {
      guard let entries = pending[key], let first = entries.first, time.map({ first.time < $0 }) ?? true else {
        continue
      }
      pending[key] = nil
      for entry in entries { show(entry.status, at: entry.time, engine: key.isEmpty ? nil : key) }
    }
  }

  private func key(_ engine: String?) -> String {
    let key = engine ?? ""
    if !order.contains(key) { order.append(key) }
    return key
  }

  /// `{"time":1.500,"event":"result","value":42}`, with `"engine":"task"` after the time when there is one.
  static func json(_ status: CalculatorStatus, at time: Duration, engine: String? = nil) -> String {
    let fields: String =
      switch status {
      case .waiting: #""event":"waiting""#
      case .settling: #""event":"settling""#
      case .computing: #""event":"computing""#
      case .result(let sum): #""event":"result","value":\#(sum)"#
      case .error(let error): #""event":"error","message":\#(quoted("\(error)"))"#
      }
    let engineField = engine.map { #""engine":\#(quoted($0)),"# } ?? ""
    return #"{"time":\#(DurationText.seconds(time)),\#(engineField)\#(fields)}"# + "\n"
  }

  /// `text` as a JSON string.
  static func quoted(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result + "\""
  }
}
