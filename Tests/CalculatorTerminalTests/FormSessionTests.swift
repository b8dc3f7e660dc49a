import Calculator
import RippleTesting
import Testing

@testable import CalculatorTerminal

@Suite("FormSession", .timeLimit(.minutes(1)))
@MainActor
struct FormSessionTests {
  @Test("typing both numbers shows their sum (pipeline, instant calculator)")
  func typingShowsSum() async {
    let model = CalculatorModel(engine: .pipeline(calculator: .instant))
    let harness = SessionHarness(models: [model])
    #expect(harness.screen[4] == "    waiting for both numbers")
    harness.type("12")
    harness.type([.tab])
    harness.type("30")
    #expect(model.input == Input(a: 12, b: 30))
    await harness.waitForScreen { $0[4] == "    = 42" }
    #expect(harness.screen[2] == "    a [12                      ]")
    #expect(harness.screen[3] == "  › b [30                      ]")
    #expect(harness.terminal.unknown.isEmpty)
  }

  @Test("a field that is not an integer keeps the model's number and says why")
  func badTextKeepsNumber() async {
    let model = CalculatorModel(engine: .pipeline(calculator: .instant))
    let harness = SessionHarness(models: [model])
    harness.type("12")
    harness.type([.tab])
    harness.type("1")
    await harness.waitForScreen { $0[4] == "    = 13" }
    harness.type([.backTab])
    harness.type("-3")
    #expect(model.a == 12)
    #expect(harness.screen[2].hasSuffix("not an integer; still using 12"))
    #expect(harness.screen[4] == "    = 13")
    harness.type([.backspace, .backspace, .backspace, .backspace])
    #expect(model.a == nil)
    await harness.waitForScreen { $0[4] == "    waiting for both numbers" }
  }

  @Test("overflow is shown in words")
  func overflow() async {
    let model = CalculatorModel(engine: .task(calculator: .instant))
    let harness = SessionHarness(models: [model])
    harness.type(String(Int.max))
    harness.type([.tab, .character("1")])
    await harness.waitForScreen { $0[4] == "    error: result out of range" }
  }

  @Test("while computing, a spinner turns next to the last result; it stops, and its timer with it, when done")
  func spinner() async {
    let clock = TestClock()
    await clock.lockstep {
      let model = CalculatorModel(engine: .task(calculator: .live(delay: .seconds(1), clock: clock)))
      let harness = SessionHarness(models: [model], clock: clock)
      harness.type("1")
      harness.type([.tab, .character("2")])
      await clock.advance(by: .seconds(1))
      await harness.waitForScreen { $0[4] == "    = 3" }

      harness.type("0")
      #expect(harness.screen[4] == "    ⠋ computing… (last: 3)")
      for frame in ["⠙", "⠹"] {
        await clock.advance(by: Spinner.interval)
        await harness.waitForTick()
        #expect(harness.screen[4] == "    \(frame) computing… (last: 3)")
      }
      await clock.advance(by: .seconds(1) - Spinner.interval * 2)
      await harness.waitForScreen { $0[4] == "    = 21" }
      // No timer is left: once the ticks already on their way are handled, however long the clock runs on, no
      // tick comes.
      let size = TerminalSize(rows: 30, columns: 100)
      for _ in 0..<3 { await harness.roundTrip(.resized(size)) }
      await clock.advance(by: Spinner.interval * 10)
      let events = await harness.roundTrip(.resized(size))
      #expect(!events.contains { if case .tick = $0 { true } else { false } })
      #expect(harness.screen[4] == "    = 21")
    }
  }

  @Test("two panels on one shared calculation: typing in either shows in both")
  func sharedPanels() async {
    let clock = TestClock()
    await clock.lockstep {
      let calculation = SharedCalculation(calculator: .live(delay: .seconds(1), clock: clock))
      let models = (0..<2).map { _ in CalculatorModel(engine: calculation) }
      let harness = SessionHarness(models: models)
      harness.type("12")
      harness.type([.tab])
      harness.type("30")
      #expect(harness.screen[8] == "    a [12                      ]")
      #expect(harness.screen[9] == "    b [30                      ]")
      await clock.advance(by: .seconds(1))
      await harness.waitForScreen { $0[5] == "    = 42" && $0[10] == "    = 42" }

      // Panel 2's a: replace 12 with 5.
      harness.type([.tab, .backspace, .backspace])
      harness.type("5")
      #expect(models[0].input == Input(a: 5, b: 30))
      #expect(harness.screen[3] == "    a [5                       ]")
      #expect(harness.screen[8] == "  › a [5                       ]")
      #expect(harness.screen[5] == "    ⠋ computing… (last: 42)")
      await clock.advance(by: .seconds(1))
      await harness.waitForScreen { $0[5] == "    = 35" && $0[10] == "    = 35" }
    }
  }

  @Test("a model's change is drawn as the model is when it is handled: an older input's outcome never shows")
  func deliveredChanges() async {
    let clock = TestClock()
    await clock.lockstep {
      let model = CalculatorModel(engine: .task(calculator: .live(delay: .seconds(1), clock: clock)))
      let harness = SessionHarness(models: [model], clock: clock)
      harness.type("1")
      harness.type([.tab, .character("2")])
      #expect(harness.screen[4] == "    ⠋ computing…")
      await clock.advance(by: .seconds(1))
      // The outcome for 1 + 2 has landed, but the form changed b before the change was handled.
      harness.type("0")
      await harness.roundTrip(.resized(TerminalSize(rows: 30, columns: 100)))
      #expect(harness.screen[4].hasSuffix(" computing… (last: 3)"))
      await clock.advance(by: .seconds(1))
      await harness.waitForScreen { $0[4] == "    = 21" }
    }
  }

  @Test("--engine all: one pair of fields, the four designs side by side, each with its counters")
  func allSideBySide() async throws {
    let clock = TestClock()
    try await clock.lockstep {
      let options = try CalcOptions.parse([]).resolved(interactive: true)
      let panels = options.makeScreens(clock: clock)
      #expect(panels.map(\.label) == ["pipeline", "debounce", "task", "shared", "shared 2"])
      let harness = Self.sideBySide(panels, clock: clock)
      harness.type("1")
      harness.type([.tab, .character("2")])
      await clock.advance(by: .zero)
      await harness.waitForScreen { $0[5] == "    pipeline  = 3" }
      #expect(harness.screen[2] == "    a [1                       ]")
      #expect(harness.screen[3] == "  › b [2                       ]")
      #expect(harness.screen[7] == "    debounce  settling: waits for the typing to stop")
      #expect(harness.screen[9].hasPrefix("    task      ") && harness.screen[9].hasSuffix(" computing…"))
      #expect(harness.screen[11].hasPrefix("    shared    ") && harness.screen[11].hasSuffix(" computing…"))

      harness.type("0")  // b = 20: the restarting designs cancel their calculation of 1 + 2
      await clock.advance(by: .zero)
      await harness.waitForScreen { $0[5] == "    pipeline  = 21" }
      await clock.advance(by: .seconds(1))
      await harness.waitForScreen { $0[7] == "    debounce  = 21" && $0[9] == "    task      = 21" }
      #expect(
        Array(harness.screen[5...14]) == [
          "    pipeline  = 21",
          "              2 started = 0 cancelled + 0 superseded + 2 shown + 0 running",
          "    debounce  = 21",
          "              1 started = 0 cancelled + 0 superseded + 1 shown + 0 running",
          "    task      = 21",
          "              2 started = 1 cancelled + 0 superseded + 1 shown + 0 running",
          "    shared    = 21",
          "              2 started = 1 cancelled + 0 superseded + 1 shown + 0 running",
          "    shared 2  = 21",
          "              another screen on shared's one calculation: nothing more runs",
        ])
      #expect(models(panels).allSatisfy { $0.input == Input(a: 1, b: 20) })
    }
  }

  private func models(_ panels: [DesignScreen]) -> [CalculatorModel] { panels.map(\.model) }

  /// A harness showing `panels` side by side, as `--engine all` does.
  private static func sideBySide(_ panels: [DesignScreen], clock: TestClock) -> SessionHarness {
    SessionHarness(
      models: panels.map(\.model), labels: panels.map(\.label), counts: panels.map(\.shownCounts),
      notes: panels.map(\.note), clock: clock)
  }

  /// The numbers of a counts line, `started = cancelled + superseded + shown + running`, if it is one.
  nonisolated static func counts(_ line: String) -> [Int]? {
    let numbers = line.split(separator: " ").compactMap { Int($0) }
    return line.contains(" started = ") && numbers.count == 5 ? numbers : nil
  }

  @Test(
    "--engine all: the counts add up on every line, whatever the typing speed",
    arguments: ["123456789123456789", "1234567891234567891"])
  func countsAddUp(burst: String) async throws {
    let clock = TestClock()
    try await clock.lockstep {
      var options = try CalcOptions.parse([]).resolved(interactive: true)
      options.delay = .milliseconds(20)
      let panels = options.makeScreens(clock: clock)
      let harness = Self.sideBySide(panels, clock: clock)
      harness.type("1")
      harness.type([.tab])
      // A paste: keys as fast as they come, a model event now and then, time moving in small steps.
      for (index, digit) in burst.enumerated() {
        harness.type(String(digit))
        if index % 3 == 0 {
          await clock.advance(by: .milliseconds(7))
          await harness.roundTrip(.resized(TerminalSize(rows: 30, columns: 100)))
          for line in harness.screen {
            guard let numbers = Self.counts(line) else { continue }
            #expect(numbers[0] == numbers[1...].reduce(0, +), "\(line)")
          }
        }
      }
      await clock.advance(by: .seconds(2))
      let sum = 1 + Int(burst)!
      await harness.waitForScreen { screen in
        screen.filter { $0.hasSuffix(" = \(sum)") }.count == 5
          && screen.compactMap(Self.counts).allSatisfy { $0[4] == 0 }
      }
      let lines = harness.screen.compactMap(Self.counts)
      #expect(lines.count == 4)
      for numbers in lines {
        #expect(numbers[0] == numbers[1] + numbers[2] + numbers[3], "\(numbers)")
        #expect(numbers[4] == 0)
      }
    }
  }

  @Test(
    "q and Escape quit with 0, Ctrl-C with 130, the end of input with 0",
    arguments: [
      (AppEvent.terminal(.key(.character("q"))), 0),
      (.terminal(.key(.escape)), 0),
      (.terminal(.key(.interrupt)), 130),
      (.terminal(.inputEnded), 0),
    ] as [(AppEvent, Int32)])
  func quitting(event: AppEvent, status: Int32) {
    let harness = SessionHarness(models: [CalculatorModel(engine: .pipeline(calculator: .instant))])
    #expect(harness.session.handle(.terminal(.key(.character("1")))) == nil)
    #expect(harness.session.handle(event) == status)
  }

  @Test("Ctrl-Z suspends through the app, then repaints the whole form")
  func suspend() {
    var suspended = 0
    let model = CalculatorModel(engine: .pipeline(calculator: .instant))
    var written: [String] = []
    let session = FormSession(
      models: [model], title: "calc", size: TerminalSize(rows: 10, columns: 80), colour: false, clock: TestClock(),
      write: { written.append($0) }, suspend: { suspended += 1 })
    _ = session.handle(.modelsChanged)
    #expect(session.handle(.terminal(.key(.character("1")))) == nil)
    written = []
    #expect(session.handle(.terminal(.key(.suspend))) == nil)
    #expect(suspended == 1)
    #expect(model.a == 1)
    // After `fg` the terminal's screen is the shell's: everything is drawn again, from a cleared screen.
    #expect(written.count == 1 && written[0].contains(ANSI.clearScreen.text) && written[0].contains("a [1 "))
  }

  @Test("a resize repaints the whole screen at the new size; too small a window says so")
  func resize() {
    let harness = SessionHarness(models: [CalculatorModel(engine: .pipeline(calculator: .instant))])
    #expect(harness.session.handle(.terminal(.resized(TerminalSize(rows: 5, columns: 40)))) == nil)
    // Blank lines go first, then the second help line; the first is cut after a whole word.
    #expect(
      harness.screen == [
        "calc", "  › a [                        ]", "    b [                        ]", "    waiting for both numbers",
        "q Esc Ctrl-C quit · Tab, Enter or ↓…",
      ])
    #expect(harness.terminal.cursorVisible && harness.terminal.row == 1 && harness.terminal.column == 7)
    _ = harness.session.handle(.terminal(.resized(TerminalSize(rows: 5, columns: 12))))
    #expect(harness.screen == ["q quits;…", "(at least…"])
    #expect(!harness.terminal.cursorVisible)
    _ = harness.session.handle(.terminal(.resized(TerminalSize(rows: 2, columns: 80))))
    #expect(harness.screen == ["q quits; enlarge the window", "(at least 32 × 4)"])
  }
}
