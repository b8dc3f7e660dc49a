import Testing

@testable import CalculatorTerminal

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The tests that put a terminal in raw mode, serialized: raw mode is process-wide (signal handlers, one restore
/// record), so two at once would collide.
@Suite("Terminal", .serialized)
struct TerminalTests {}

extension TerminalTests {
  /// Raw mode on a pseudo-terminal.
  @Suite("RawMode")
  @MainActor
  struct RawModeTests {
    struct Boom: Error {}

    @Test("inside, input is raw; after a thrown error, the settings and the screen are restored")
    func restoresAfterThrow() async throws {
      let pty = try #require(PseudoTerminal())
      let before = pty.settings
      #expect(before.c_lflag & tcflag_t(ICANON) != 0)
      await #expect(throws: Boom.self) {
        try await RawMode.run(input: pty.terminal, output: pty.terminal) {
          let raw = pty.settings
          #expect(raw.c_lflag & tcflag_t(ICANON | ECHO | ISIG) == 0)
          #expect(raw.c_iflag & tcflag_t(ICRNL | IXON) == 0)
          #expect(TerminalRestorer.isArmed)
          throw Boom()
        }
      }
      #expect(!TerminalRestorer.isArmed)
      #expect(pty.settings.comparable == before.comparable)
      let written = pty.read(until: ANSI.restore)
      #expect(written.hasPrefix(ANSI.prepare))
      #expect(written.hasSuffix(ANSI.restore))
    }

    @Test("after a normal return, the settings are restored and the value comes back")
    func restoresAfterReturn() async throws {
      let pty = try #require(PseudoTerminal())
      let before = pty.settings
      let value = try await RawMode.run(input: pty.terminal, output: pty.terminal) { 42 }
      #expect(value == 42)
      #expect(pty.settings.comparable == before.comparable)
    }

    @Test("raw mode does not nest, and needs a terminal")
    func misuse() async throws {
      let pty = try #require(PseudoTerminal())
      try await RawMode.run(input: pty.terminal, output: pty.terminal) { () async -> Void in
        await #expect(throws: TerminalError.alreadyRaw) {
          try await RawMode.run(input: pty.terminal, output: pty.terminal) {}
        }
      }
      var ends: [Int32] = [-1, -1]
      #expect(pipe(&ends) == 0)
      defer {
        for end in ends { close(end) }
      }
      await #expect(throws: TerminalError.notATerminal(ends[0])) {
        try await RawMode.run(input: ends[0], output: ends[1]) {}
      }
      #expect(!TerminalRestorer.isArmed)
    }
  }
}

extension TerminalTests {
  /// The gate every frame passes through.
  @Suite("TerminalRestorer")
  @MainActor
  struct TerminalRestorerTests {
    @Test("a frame is written while the terminal is prepared, and nothing after the restore")
    func noFrameAfterRestore() async throws {
      let pty = try #require(PseudoTerminal())
      try await RawMode.run(input: pty.terminal, output: pty.terminal) {
        TerminalRestorer.write("frame one")
        TerminalRestorer.restore()  // what a signal handler does
        TerminalRestorer.write("late frame")
      }
      // A marker written straight to the terminal after the run: everything before it has arrived by then.
      StandardStream(descriptor: pty.terminal).write("<end>")
      let written = pty.read(until: "<end>")
      #expect(written == ANSI.prepare + "frame one" + "\u{18}" + ANSI.restore + "<end>")
    }
  }
}
