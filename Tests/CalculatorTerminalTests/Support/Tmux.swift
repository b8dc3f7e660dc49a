import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A detached tmux session on a server of its own, running a shell script: the real terminal an end-to-end test
/// types into and reads back.
///
/// Each session uses its own server, on a socket in its own temporary directory (`tmux -S`), so tests never
/// touch the user's tmux; ``close()`` kills the server and removes the directory. Screens are read with `capture-pane`; ``waitForScreen(_:timeout:sourceLocation:_:)`` polls until the
/// screen matches, and on timeout fails with the last screen captured.
final class Tmux {
  let socket: String
  let directory: String
  static let session = "calc"

  /// Whether `tmux` is on the `PATH`. Suites that need it are enabled by ``isUsable``.
  static let isAvailable = Shell.run("command -v tmux >/dev/null").status == 0

  /// Whether the tmux tests must run: `RIPPLE_REQUIRE_TMUX=1` (set by `.ci/run`) turns their skip into a failure.
  static let isRequired = getenv("RIPPLE_REQUIRE_TMUX").map { String(cString: $0) == "1" } ?? false

  /// The condition of the suites that drive a real terminal: tmux is installed, or it is required, in which case
  /// the tests run and fail on its absence.
  static var isUsable: Bool { isAvailable || isRequired }

  /// Why those suites are skipped.
  static let skipReason: Comment =
    "tmux is not installed: the interactive tests need it (apt-get install tmux; .ci/run installs it)"

  /// Starts `script` (shell text, run by `sh` in `directory`) in a detached window of `columns` × `rows`.
  init(script: String, columns: Int = 100, rows: Int = 30) throws {
    guard Self.isAvailable else {
      throw Failure("tmux is not installed, and RIPPLE_REQUIRE_TMUX=1 says these tests must run")
    }
    var template = Array("/tmp/calc-e2e-XXXXXX".utf8CString)
    guard let created = mkdtemp(&template) else { throw Failure("mkdtemp failed") }
    directory = String(cString: created)
    // The socket lives in the directory, so removing the directory leaves nothing behind.
    socket = "\(directory)/tmux.socket"
    let scriptPath = "\(directory)/run.sh"
    try Self.writeFile(scriptPath, "cd \(Shell.quote(directory))\n" + script)
    try run(
      "new-session -d -x \(columns) -y \(rows) -s \(Self.session) \(Shell.quote("sh \(Shell.quote(scriptPath))"))")
  }

  /// Kills the tmux server and removes the directory.
  func close() {
    _ = Shell.run("tmux -S \(Shell.quote(socket)) kill-server 2>/dev/null; rm -rf \(Shell.quote(directory))")
  }

  /// Sends `keys` as `tmux send-keys` names them: `12`, `Tab`, `BSpace`, `Escape`, `C-c`. Each argument is sent
  /// literally when `literal` is true.
  func send(_ keys: String..., literal: Bool = false) throws {
    // `--` ends tmux's options, so that keys may start with `-`.
    let flags = literal ? "-l " : ""
    try run("send-keys -t \(Self.session) \(flags)-- \(keys.map(Shell.quote).joined(separator: " "))")
  }

  /// Resizes the window.
  func resize(columns: Int, rows: Int) throws {
    try run("resize-window -t \(Self.session) -x \(columns) -y \(rows)")
  }

  /// The screen's lines, as `capture-pane -p` prints them; with `styles`, including the escape sequences of
  /// colours and attributes (`-e`).
  func capture(styles: Bool = false) -> [String] {
    let flags = styles ? "-p -e" : "-p"
    let (_, output) = Shell.run("tmux -S \(Shell.quote(socket)) capture-pane \(flags) -t \(Self.session)")
    return output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
  }

  /// What the pane's terminal shows now: whether the alternate screen is on and whether the cursor is visible.
  func modes() -> (alternateScreen: Bool, cursorVisible: Bool) {
    let (_, output) = Shell.run(
      "tmux -S \(Shell.quote(socket)) display-message -p -t \(Self.session) '#{alternate_on} #{cursor_flag}'")
    let flags = output.split(separator: " ").map { $0.hasPrefix("1") }
    return (flags.first ?? false, flags.count > 1 && flags[1])
  }

  /// Polls the screen until `condition` holds and returns it; records an issue with the last screen if it does
  /// not within `timeout`. (An end-to-end test waits for an external process: polling an exact expected screen
  /// with a generous deadline is the bounded way to do it.)
  @discardableResult
  func waitForScreen(
    _ description: String, timeout: Duration = .seconds(20), sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: ([String]) -> Bool
  ) async throws -> [String] {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    var screen = capture()
    while !condition(screen) {
      guard clock.now < deadline else {
        Issue.record(
          "timed out waiting for \(description); last screen:\n\(screen.joined(separator: "\n"))",
          sourceLocation: sourceLocation)
        throw Failure("timed out waiting for \(description)")
      }
      try await clock.sleep(for: .milliseconds(20))
      screen = capture()
    }
    return screen
  }

  /// The contents of `name` in the session's directory, or `nil`.
  func file(_ name: String) -> String? { Shell.readFile("\(directory)/\(name)") }

  private func run(_ arguments: String) throws {
    let (status, output) = Shell.run("tmux -S \(Shell.quote(socket)) \(arguments) 2>&1")
    guard status == 0 else { throw Failure("tmux \(arguments) failed (\(status)): \(output)") }
  }

  /// An error with a message.
  struct Failure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
  }

  private static func writeFile(_ path: String, _ text: String) throws {
    guard let stream = fopen(path, "w") else { throw Failure("cannot write \(path)") }
    defer { fclose(stream) }
    let bytes = Array(text.utf8)
    guard fwrite(bytes, 1, bytes.count, stream) == bytes.count else { throw Failure("cannot write \(path)") }
  }
}
