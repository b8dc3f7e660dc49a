#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The scoped way into raw mode: the terminal is prepared for the form while `body` runs and restored however
/// `body` ends.
///
/// Use it around everything that draws the form. Inside, keys arrive byte by byte without echo, Ctrl-C arrives
/// as a key instead of `SIGINT`, and the form draws on the alternate screen with the cursor hidden.
///
/// ```swift
/// let status = try await RawMode.run(input: STDIN_FILENO, output: STDOUT_FILENO) {
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
    input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO, _ body: @MainActor () async throws -> T
  ) async throws -> T {
    guard !TerminalRestorer.isArmed else { throw TerminalError.alreadyRaw }
    var original = termios()
    guard tcgetattr(input, &original) == 0 else { throw TerminalError.notATerminal(input) }
    var raw = original
    makeRaw(&raw)

    TerminalRestorer.arm(input: input, output: output, original: original)
    SignalHandlers.install()
    defer {
      TerminalRestorer.restore()
      SignalHandlers.uninstall()
    }
    guard tcsetattr(input, TCSAFLUSH, &raw) == 0 else { throw TerminalError.systemCall("tcsetattr", errno) }
    TerminalRestorer.write(ANSI.prepare)
    return try await body()
  }

  /// Raw input as `cfmakeraw` sets it — no echo, no line editing, no signals from keys, no translation of
  /// CR — but output processing stays on, so a stray newline still returns the carriage.
  static func makeRaw(_ settings: inout termios) {
    settings.c_iflag &= ~tcflag_t(IGNBRK | BRKINT | PARMRK | ISTRIP | INLCR | IGNCR | ICRNL | IXON)
    settings.c_lflag &= ~tcflag_t(ECHO | ECHONL | ICANON | ISIG | IEXTEN)
    settings.c_cflag &= ~tcflag_t(CSIZE | PARENB)
    settings.c_cflag |= tcflag_t(CS8)
    withUnsafeMutableBytes(of: &settings.c_cc) { characters in
      characters[Int(VMIN)] = 1
      characters[Int(VTIME)] = 0
    }
  }
}
