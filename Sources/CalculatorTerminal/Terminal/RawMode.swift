/// The scoped way into raw mode: the terminal is prepared for the form while `body` runs and restored however
/// `body` ends.
///
/// Use it around everything that draws the form. Inside, keys arrive byte by byte without echo, Ctrl-C arrives
/// as a key instead of `SIGINT`, and the form draws on the alternate screen with the cursor hidden.
///
/// ```swift
/// let status = try await RawMode.run(input: Platform.standardInput, output: Platform.standardOutput) {
///   await session.run()   // draw, read keys…
/// }
/// // the shell's screen and settings are back
/// ```
///
/// The terminal is restored when `body` returns or throws, and — through ``SignalHandlers`` — when the process
/// gets `SIGINT`, `SIGTERM`, `SIGHUP` or `SIGQUIT` (it then exits with 128 + the signal) or crashes. Raw mode does
/// not nest: a second `run` while one is active throws ``TerminalError/alreadyRaw``.
@MainActor
enum RawMode {
  /// Runs `body` with the terminal on `input` in raw mode and `output` on the alternate screen.
  ///
  /// - Throws: ``TerminalError`` when `input` is not a terminal; whatever `body` throws.
  static func run<T>(
    input: Int32 = Platform.standardInput, output: Int32 = Platform.standardOutput,
    _ body: @MainActor () async throws -> T
  ) async throws -> T {
    guard !TerminalRestorer.isArmed else { throw TerminalError.alreadyRaw }
    guard let original = Platform.terminalSettings(of: input) else { throw TerminalError.notATerminal(input) }
    var raw = original
    raw.makeRaw()

    TerminalRestorer.arm(input: input, output: output, original: original)
    SignalHandlers.install()
    active = Active(input: input, output: output, original: original, raw: raw)
    defer {
      active = nil
      TerminalRestorer.restore()
      SignalHandlers.uninstall()
    }
    guard Platform.setTerminalSettings(raw, of: input, flushingInput: true) else {
      throw TerminalError.systemCall("tcsetattr", Platform.errorNumber)
    }
    TerminalRestorer.write(ANSI.prepare)
    return try await body()
  }

  /// The terminal ``run(input:output:_:)`` holds in raw mode, if any.
  private struct Active {
    var input: Int32
    var output: Int32
    var original: Platform.TerminalSettings
    var raw: Platform.TerminalSettings
  }

  private static var active: Active?

  /// Ctrl-Z inside ``run(input:output:_:)``: gives the terminal back as it was (settings, main screen, cursor),
  /// stops the process as the shell's job control expects (`SIGTSTP`), and once the shell's `fg` continues it,
  /// takes raw mode and the alternate screen again. The caller repaints everything.
  ///
  /// Where nothing can stop the process (an orphaned process group, whose `SIGTSTP` the system discards), it
  /// comes back at once. Outside `run`, it does nothing.
  static func suspend() {
    guard let active else { return }
    TerminalRestorer.restore()
    SignalHandlers.stopUntilContinued()
    TerminalRestorer.arm(input: active.input, output: active.output, original: active.original)
    _ = Platform.setTerminalSettings(active.raw, of: active.input, flushingInput: false)
    TerminalRestorer.write(ANSI.prepare)
  }
}
