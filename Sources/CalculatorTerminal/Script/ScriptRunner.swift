import Calculator
import Ripple

/// Script mode: reads `calc` commands line by line, plays them into the model, and prints each change of what
/// the result shows as `<seconds> <event>` (or a JSON object per event with `--json`).
///
/// With `--clock virtual`, ``VirtualTimeDriver`` moves a `TestClock`, so the output is exact and instant; with
/// the real clock, `wait` takes wall time and the times are measured. A bad line is reported on standard error
/// with its number and text, skipped, and makes the exit status 1; the rest of the script still runs. At the
/// end of input a calculation in flight is awaited and its outcome printed.
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
    case .virtual: await runVirtual(lines)
    case .real: await runReal(lines)
    }
  }

  private func runVirtual<Lines: AsyncSequence<String, Never>>(_ lines: Lines) async -> Int32 {
    let driver = await VirtualTimeDriver(options: options)
    let printer = EventPrinter(json: options.json, output: output)
    // The driver owns the callback, so the callback must not own the driver.
    driver.onChange = { [unowned driver] in printer.show(driver.model.status, at: driver.now) }
    let status = await play(lines) { command in
      switch command {
      case .set(let field, let value): await driver.set(field, to: value)
      case .wait(let duration): await driver.wait(duration)
      }
    }
    await driver.finish()
    printer.show(driver.model.status, at: driver.now)
    return status
  }

  private func runReal<Lines: AsyncSequence<String, Never>>(_ lines: Lines) async -> Int32 {
    let clock = ContinuousClock()
    let start = clock.now
    let models = options.makeModels(calculator: .live(delay: options.effectiveDelay, clock: clock), clock: clock)
    let model = models[0]
    let printer = EventPrinter(json: options.json, output: output)
    let watcher = Task { @MainActor in
      for await status in Observed({ model.status }) {
        printer.show(status, at: start.duration(to: clock.now))
      }
    }
    let status = await play(lines) { command in
      switch command {
      case .set(.a, let value): model.a = value
      case .set(.b, let value): model.b = value
      case .wait(let duration): try? await clock.sleep(for: duration)
      }
    }
    watcher.cancel()
    // The end of input: show the outcome of the calculation in flight, if any.
    for await status in Observed({ model.status }) {
      printer.show(status, at: start.duration(to: clock.now))
      if !status.isPending { break }
    }
    withExtendedLifetime(models) {}
    return status
  }

  /// Parses each line and runs it; reports bad lines. Returns the exit status.
  private func play<Lines: AsyncSequence<String, Never>>(
    _ lines: Lines, _ perform: (ScriptCommand) async -> Void
  ) async -> Int32 {
    var status: Int32 = 0
    var number = 0
    for await var line in lines {
      number += 1
      // A byte-order mark, as some editors write at the start of a file, is not part of the first command.
      if number == 1, line.unicodeScalars.first == "\u{FEFF}" { line.unicodeScalars.removeFirst() }
      do {
        if let command = try ScriptCommand.parse(line) { await perform(command) }
      } catch {
        errors("calc: line \(number): \(QuotedText(line)): \(error)\n")
        status = 1
      }
    }
    return status
  }
}

/// Prints each change of the result's status, once.
@MainActor
final class EventPrinter {
  private let json: Bool
  private let output: (String) -> Void
  private var last: CalculatorStatus?

  init(json: Bool, output: @escaping (String) -> Void) {
    self.json = json
    self.output = output
  }

  /// Prints `status` at `time` unless it is what was printed last.
  func show(_ status: CalculatorStatus, at time: Duration) {
    guard status != last else { return }
    // The initial empty form is not a change.
    guard last != nil || status != .waiting else {
      last = status
      return
    }
    last = status
    output(json ? Self.json(status, at: time) : "\(DurationText.seconds(time)) \(status)\n")
  }

  /// `{"time":1.500,"event":"result","value":42}`
  static func json(_ status: CalculatorStatus, at time: Duration) -> String {
    let fields: String =
      switch status {
      case .waiting: #""event":"waiting""#
      case .settling: #""event":"settling""#
      case .computing: #""event":"computing""#
      case .result(let sum): #""event":"result","value":\#(sum)"#
      case .error(let error): #""event":"error","message":\#(quoted("\(error)"))"#
      }
    return #"{"time":\#(DurationText.seconds(time)),\#(fields)}"# + "\n"
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
