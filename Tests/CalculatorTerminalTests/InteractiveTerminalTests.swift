import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The real `calc`, run interactively in a tmux window: typed into, read back, quit, and checked to leave the
/// terminal as it found it. Skipped, saying why, when tmux is not installed (`.ci/run` installs it and sets
/// `RIPPLE_REQUIRE_TMUX=1`, which makes its absence a failure).
@Suite(
  "Interactive calc in a terminal (tmux)", .serialized, .timeLimit(.minutes(2)),
  .enabled(if: Tmux.isUsable, Tmux.skipReason))
struct InteractiveTerminalTests {
  static let help = "q Esc Ctrl-C quit · Tab, Enter or ↓ next field · Shift-Tab or ↑ previous"
  static let help2 = "type an integer · ← → Home End move · Backspace Delete erase · Ctrl-Z suspend"

  /// A script that saves the terminal settings, runs `calc arguments` as its own process (its pid in the file
  /// `pid`), saves the settings again, then reports calc's exit status and keeps the window open. `environment`
  /// prefixes calc's command line (`env -u NO_COLOR`).
  static func script(_ arguments: String, environment: String = "") throws -> String {
    let calc = try #require(Shell.calcExecutable(), "the calc executable is not next to the test bundle")
    return """
      stty -g > before
      \(environment) sh -c 'echo $$ > pid; exec "$0" "$@"' \(Shell.quote(calc)) \(arguments)
      status=$?
      stty -g > after
      stty -a > after-all
      echo "calc exited $status"
      exec cat

      """
  }

  /// Checks that the settings after `calc` equal those before it, with line editing and echo on.
  static func expectRestored(_ tmux: Tmux, sourceLocation: SourceLocation = #_sourceLocation) {
    let before = tmux.file("before")
    #expect(before != nil, sourceLocation: sourceLocation)
    #expect(tmux.file("after") == before, sourceLocation: sourceLocation)
    let flags = Set((tmux.file("after-all") ?? "").split { $0 == " " || $0 == ";" || $0 == "\n" })
    #expect(flags.isSuperset(of: ["icanon", "echo", "isig", "icrnl"]), sourceLocation: sourceLocation)
    let modes = tmux.modes()
    #expect(!modes.alternateScreen, "the alternate screen is still on", sourceLocation: sourceLocation)
    #expect(modes.cursorVisible, "the cursor is still hidden", sourceLocation: sourceLocation)
  }

  static func trimmed(_ screen: [String]) -> [String] {
    screen.map { String($0.reversed().drop { $0 == " " }.reversed()) }
  }

  @Test("types into both panels of a shared calculation, sees the sums, quits with Ctrl-C, restores the terminal")
  func sharedPanels() async throws {
    let tmux = try Tmux(script: Self.script("--engine shared --delay 0"))
    defer { tmux.close() }

    try await tmux.waitForScreen("the form") { $0.contains(Self.help) }
    try tmux.send("12", literal: true)
    try tmux.send("Tab")
    try tmux.send("30", literal: true)
    var screen = try await tmux.waitForScreen("42 in both panels") {
      Self.trimmed($0).filter { $0 == "    = 42" }.count == 2
    }
    #expect(Self.trimmed(screen).filter { $0.hasPrefix("    a [12 ") }.count == 2)
    // The README shows this very screen, for this command line.
    let pictured = ReadmeTests.block(after: "`swift run calc --engine shared --delay 0`, after typing `12`, Tab, `30`")
    #expect(!pictured.isEmpty, "the README's picture of the shared form was not found")
    #expect(Array(Self.trimmed(screen).prefix(pictured.count)) == pictured)

    // Into panel 2's a: replace 12 with 5; panel 1 follows.
    try tmux.send("Tab", "BSpace", "BSpace")
    try tmux.send("5", literal: true)
    screen = try await tmux.waitForScreen("35 in both panels") {
      Self.trimmed($0).filter { $0 == "    = 35" }.count == 2
    }
    #expect(Self.trimmed(screen).filter { $0.hasPrefix("    a [5 ") || $0.hasPrefix("  › a [5 ") }.count == 2)

    try tmux.send("-", literal: true)
    try await tmux.waitForScreen("the complaint about 5-") {
      $0.contains { $0.hasSuffix("not an integer; still using 5") }
    }

    try tmux.send("C-c")
    screen = try await tmux.waitForScreen("calc to exit") { $0.contains("calc exited 130") }
    #expect(!screen.contains(Self.help), "the alternate screen was left")
    Self.expectRestored(tmux)
  }

  @Test("with no flags, the four designs side by side: a calculation in flight, a cancellation, the spinner")
  func allDesignsByDefault() async throws {
    let tmux = try Tmux(script: Self.script(""))
    defer { tmux.close() }

    try await tmux.waitForScreen("the form") { $0.contains(Self.help) }
    try tmux.send("1", literal: true)
    try tmux.send("Tab")
    try tmux.send("2", literal: true)
    // At once: the pipeline's sum, the debounce settling, the restarting designs computing (with the spinner).
    try await tmux.waitForScreen("3 from the pipeline, the others busy") { screen in
      let lines = Self.trimmed(screen)
      return lines.contains("    pipeline  = 3")
        && lines.contains { $0.hasPrefix("    task      ") && $0.hasSuffix(" computing…") }
    }
    try tmux.send("0", literal: true)  // b = 20 while task and shared compute 1 + 2: both cancel it
    let screen = try await tmux.waitForScreen("21 from every design") { screen in
      Self.trimmed(screen).filter { $0.hasSuffix("  = 21") }.count == 5
    }
    #expect(
      Self.trimmed(screen).contains("              2 started = 1 cancelled + 0 superseded + 1 shown + 0 running"))
    // The README shows this very screen, for this command line.
    let pictured = ReadmeTests.block(after: "`swift run calc`, after typing `1`, Tab, `2` and, while")
    #expect(!pictured.isEmpty, "the README's picture of the four designs was not found")
    #expect(Array(Self.trimmed(screen).prefix(pictured.count)) == pictured)

    try tmux.send("q", literal: true)
    try await tmux.waitForScreen("calc to exit") { $0.contains("calc exited 0") }
    Self.expectRestored(tmux)
  }

  @Test(
    "a fast paste into the four designs: every line's counts add up while they run and after",
    arguments: ["123456789123456789", "1234567891234567891"])
  func pasteCountsAddUp(burst: String) async throws {
    let tmux = try Tmux(script: Self.script("--delay 50ms --debounce 200ms"))
    defer { tmux.close() }
    try await tmux.waitForScreen("the form") { $0.contains(Self.help) }
    try tmux.send("1", literal: true)
    try tmux.send("Tab")
    try tmux.send(burst, literal: true)
    func counts(_ screen: [String]) -> [[Int]] { Self.trimmed(screen).compactMap(FormSessionTests.counts) }
    var seen = 0
    let sum = "= \(1 + Int(burst)!)"
    let screen = try await tmux.waitForScreen("every design's sum, nothing running") { screen in
      // On every screen captured on the way, each line adds up.
      for numbers in counts(screen) {
        #expect(numbers[0] == numbers[1...].reduce(0, +), "\(numbers)")
        seen += 1
      }
      return screen.filter { $0.hasSuffix(sum) }.count == 5 && counts(screen).allSatisfy { $0[4] == 0 }
    }
    #expect(seen >= 4)
    let final = counts(screen)
    #expect(final.count == 4)
    #expect(final.allSatisfy { $0[0] == $0[1] + $0[2] + $0[3] && $0[0] > 0 }, "\(final)")
    try tmux.send("q", literal: true)
    try await tmux.waitForScreen("calc to exit") { $0.contains("calc exited 0") }
  }

  @Test("Ctrl-Z gives the terminal back to the shell as it was; fg resumes the form, repainted, in raw mode")
  func suspendAndResume() async throws {
    let calc = try #require(Shell.calcExecutable(), "the calc executable is not next to the test bundle")
    // Job control, as an interactive shell has it: calc runs as a job that Ctrl-Z stops and `fg` continues.
    let tmux = try Tmux(
      script: """
        set -m
        stty -g > before
        \(Shell.quote(calc)) --engine pipeline
        status=$?
        stty -g > stopped
        echo "calc stopped $status"
        read answer
        fg
        status=$?
        stty -g > after
        echo "calc exited $status"
        exec cat

        """)
    defer { tmux.close() }
    try await tmux.waitForScreen("the form") { $0.contains(Self.help) }
    try tmux.send("12", literal: true)
    try await tmux.waitForScreen("12 typed") { $0.contains { $0.hasPrefix("  › a [12 ") } }
    try tmux.send("C-z")
    let stopped = try await tmux.waitForScreen("the shell's report of the stopped job") {
      $0.contains { $0.hasPrefix("calc stopped ") }
    }
    #expect(!stopped.contains(Self.help), "the alternate screen is still on while calc is stopped")
    #expect(tmux.file("stopped") == tmux.file("before"), "the terminal settings were not restored for the shell")
    try tmux.send("x", "Enter")  // the script's `read`, then `fg`
    try await tmux.waitForScreen("the form again, with what was typed") { screen in
      screen.contains(Self.help) && screen.contains { $0.hasPrefix("  › a [12 ") }
    }
    try tmux.send("Tab")
    try tmux.send("30", literal: true)
    try await tmux.waitForScreen("the sum: raw mode is back") { $0.contains("    = 42") }
    try tmux.send("q", literal: true)
    try await tmux.waitForScreen("calc to exit") { $0.contains("calc exited 0") }
    #expect(tmux.file("after") == tmux.file("before"))
  }

  enum Exit: String, CaseIterable, CustomTestStringConvertible {
    case q, escape, interrupt, terminate, hangUp, interruptSignal, quitSignal

    var testDescription: String { rawValue }

    var status: Int32 {
      switch self {
      case .q, .escape: 0
      case .interrupt, .interruptSignal: 130
      case .terminate: 143
      case .hangUp: 129
      case .quitSignal: 131
      }
    }
  }

  @Test("every way out restores the terminal", arguments: Exit.allCases)
  func exitPaths(exit: Exit) async throws {
    let tmux = try Tmux(script: Self.script("--engine task --delay 0"))
    defer { tmux.close() }
    try await tmux.waitForScreen("the form") { $0.contains(Self.help) }
    try tmux.send("7", literal: true)
    try await tmux.waitForScreen("7 typed") { Self.trimmed($0).contains("  › a [7                       ]") }
    let pid = try #require(tmux.file("pid").flatMap { Int32($0.filter(\.isNumber)) })
    switch exit {
    case .q: try tmux.send("q", literal: true)
    case .escape: try tmux.send("Escape")
    case .interrupt: try tmux.send("C-c")
    case .terminate: kill(pid, SIGTERM)
    case .hangUp: kill(pid, SIGHUP)
    case .interruptSignal: kill(pid, SIGINT)
    case .quitSignal: kill(pid, SIGQUIT)
    }
    let screen = try await tmux.waitForScreen("calc to exit") { $0.contains { $0.hasPrefix("calc exited") } }
    #expect(screen.contains("calc exited \(exit.status)"))
    #expect(!screen.contains(Self.help))
    Self.expectRestored(tmux)
  }

  @Test(
    "a signal in the middle of a calculation, with the spinner drawing, still restores the terminal",
    arguments: [SIGINT, SIGTERM, SIGHUP, SIGQUIT])
  func signalWhileComputing(signal: Int32) async throws {
    // The spinner redraws a line on every tick, so the signal lands while the renderer is busy.
    let tmux = try await Self.spinnerTurning()
    defer { tmux.close() }
    let pid = try #require(tmux.file("pid").flatMap { Int32($0.filter(\.isNumber)) })
    kill(pid, signal)
    let screen = try await tmux.waitForScreen("calc to exit") { $0.contains { $0.hasPrefix("calc exited") } }
    #expect(screen.contains("calc exited \(128 + signal)"))
    #expect(!screen.contains(Self.help))
    Self.expectRestored(tmux)
  }

  /// Starts `calc` with a 30-second calculation, types both numbers, and returns once the spinner has drawn two
  /// different frames. Close the returned session.
  static func spinnerTurning() async throws -> Tmux {
    let tmux = try Tmux(script: script("--engine task --delay 30s"))
    do {
      try await tmux.waitForScreen("the form") { $0.contains(help) }
      try tmux.send("1", "Tab", "2", literal: false)
      let first = try await tmux.waitForScreen("computing") { $0.contains { $0.hasSuffix(" computing…") } }
      let frame = first.first { $0.hasSuffix(" computing…") }
      try await tmux.waitForScreen("another spinner frame") {
        $0.contains { $0.hasSuffix(" computing…") && $0 != frame }
      }
      return tmux
    } catch {
      tmux.close()
      throw error
    }
  }

  @Test("the spinner turns while a slow calculation runs")
  func spinner() async throws {
    let tmux = try await Self.spinnerTurning()
    defer { tmux.close() }
    try tmux.send("q", literal: true)
    try await tmux.waitForScreen("calc to exit") { $0.contains("calc exited 0") }
    Self.expectRestored(tmux)
  }

  @Test("a resize repaints the form at the new size: lines give way, words are not cut, too small says so")
  func resize() async throws {
    let tmux = try Tmux(script: Self.script("--engine pipeline"))
    defer { tmux.close() }
    try await tmux.waitForScreen("the form") { $0.contains(Self.help) }
    try tmux.resize(columns: 50, rows: 20)
    try await tmux.waitForScreen("the help cut after a word") {
      $0.contains { $0.hasPrefix("q Esc Ctrl-C quit · Tab, Enter or ↓ next field") && $0.hasSuffix("…") }
    }
    try tmux.resize(columns: 30, rows: 8)
    try await tmux.waitForScreen("a request for a larger window") {
      $0.contains { $0.hasPrefix("q quits; enlarge the") }
    }
    try tmux.resize(columns: 100, rows: 30)
    try await tmux.waitForScreen("the whole help again") { $0.contains(Self.help) }
    try tmux.send("q", literal: true)
    try await tmux.waitForScreen("calc to exit") { $0.contains("calc exited 0") }
  }

  @Test("a paste that is not an integer says so and never becomes another number; a full field says so")
  func pastes() async throws {
    let tmux = try Tmux(script: Self.script("--engine pipeline"))
    defer { tmux.close() }
    try await tmux.waitForScreen("the form") { $0.contains(Self.help) }
    try tmux.send("7", literal: true)
    try tmux.send("Tab")
    try tmux.send("2.5e3", literal: true)
    // The sum of 7 and the 2 typed first may still be computing when the complaint shows: wait for both, as for
    // 1,000 below.
    var screen = try await tmux.waitForScreen("b's complaint") {
      $0.contains { $0.hasPrefix("  › b [2.5e3 ") && $0.hasSuffix("]  not an integer; still using 2") }
        && Self.trimmed($0).contains("    = 9")
    }
    #expect(Self.trimmed(screen).contains("    = 9"))
    #expect(!screen.contains { $0.contains("253") })
    try tmux.send("BSpace", "BSpace", "BSpace", "BSpace", "BSpace")
    try tmux.send("1,000", literal: true)
    screen = try await tmux.waitForScreen("1,000 refused") {
      $0.contains { $0.hasPrefix("  › b [1,000 ") && $0.hasSuffix("]  not an integer; still using 1") }
        && Self.trimmed($0).contains("    = 8")
    }
    #expect(Self.trimmed(screen).contains("    = 8"))
    try tmux.send("BSpace", "BSpace", "BSpace", "BSpace", "BSpace")
    try tmux.send(String(repeating: "4", count: 30), literal: true)
    try await tmux.waitForScreen("a full field") {
      $0.contains { $0.hasPrefix("  › b [\(String(repeating: "4", count: 23)) ]  full: 23 characters at most") }
    }
    try tmux.send("q", literal: true)
    try await tmux.waitForScreen("calc to exit") { $0.contains("calc exited 0") }
  }

  @Test("at 80 columns, a number out of range says so beside its field, with the number still used")
  func outOfRangeAt80Columns() async throws {
    let tmux = try Tmux(script: Self.script("--engine task --delay 0"), columns: 80, rows: 24)
    defer { tmux.close() }
    try await tmux.waitForScreen("the form") { $0.contains { $0.hasPrefix("q Esc Ctrl-C quit") } }
    try tmux.send(String(Int.min) + "999", literal: true)
    try await tmux.waitForScreen("the whole message") {
      $0.contains { $0.hasSuffix("]  out of range; still using -9223372036854775808") && $0.count <= 80 }
    }
    try tmux.send("q", literal: true)
    try await tmux.waitForScreen("calc to exit") { $0.contains("calc exited 0") }
  }

  @Test(
    "the four designs in small windows: how to quit stays on screen",
    arguments: [(50, 24), (50, 12), (80, 10), (40, 9)])
  func smallWindows(columns: Int, rows: Int) async throws {
    let tmux = try Tmux(script: Self.script(""), columns: columns, rows: rows)
    defer { tmux.close() }
    let screen = try await tmux.waitForScreen("the form with how to quit") {
      $0.contains { $0.hasPrefix("q Esc Ctrl-C quit") || $0.hasPrefix("q quits") }
    }
    #expect(screen.contains { $0.contains(" a [") } || screen.contains { $0.hasPrefix("q quits") })
    try tmux.send("q", literal: true)
    try await tmux.waitForScreen("calc to exit") { $0.contains("calc exited 0") }
  }

  @Test(
    "colour by default; NO_COLOR turns it off",
    arguments: [("env -u NO_COLOR", true), ("env NO_COLOR=1", false)])
  func noColor(environment: String, coloured: Bool) async throws {
    // (`swift test` itself sets NO_COLOR, and the tmux server inherits it: each case sets it explicitly.)
    let tmux = try Tmux(script: Self.script("--engine pipeline", environment: environment))
    defer { tmux.close() }
    try await tmux.waitForScreen("the form") { $0.contains(Self.help) }
    // The focused field's marker is drawn in cyan (SGR 36) unless colour is off.
    let styled = tmux.capture(styles: true).joined(separator: "\n")
    #expect(styled.contains("\u{1b}[36m") == coloured, "\(styled)")
    try tmux.send("q", literal: true)
    try await tmux.waitForScreen("calc to exit") { $0.contains("calc exited 0") }
  }
}
