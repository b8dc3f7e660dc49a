import Testing

@testable import CalculatorTerminal

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension TerminalTests {
  /// The reading thread on a pseudo-terminal, in raw mode as the app runs it.
  @Suite("InputReader", .timeLimit(.minutes(1)))
  @MainActor
  struct InputReaderTests {
    @Test("reports keys, resizes and the end of input, in order")
    func events() async throws {
      let pty = try #require(PseudoTerminal())
      pty.resize(rows: 10, columns: 40)
      let (stream, continuation) = AsyncStream.makeStream(of: TerminalEvent.self)
      var events = stream.makeAsyncIterator()
      try await RawMode.run(input: pty.terminal, output: pty.terminal) {
        let reader = try InputReader.start(input: pty.terminal) { continuation.yield($0) }
        defer { reader.stop() }

        // (A sequence split across reads is KeyDecoderTests' subject: here the split would race the timeout.)
        pty.type(Array("1\u{1b}[A\u{1b}[3~".utf8))
        #expect(await events.next(isolation: MainActor.shared) == .key(.character("1")))
        #expect(await events.next(isolation: MainActor.shared) == .key(.up))
        #expect(await events.next(isolation: MainActor.shared) == .key(.delete))
        // Raw mode: Ctrl-C is a key, CR is Enter.
        pty.type([0x03, 0x0d])
        #expect(await events.next(isolation: MainActor.shared) == .key(.interrupt))
        #expect(await events.next(isolation: MainActor.shared) == .key(.enter))

        kill(getpid(), SIGWINCH)
        #expect(await events.next(isolation: MainActor.shared) == .resized(TerminalSize(rows: 10, columns: 40)))

        pty.type([0x1b])
        #expect(await events.next(isolation: MainActor.shared) == .key(.escape))

        pty.hangUp()
        #expect(await events.next(isolation: MainActor.shared) == .inputEnded)
      }
    }

    @Test("a sequence left unfinished is released after a short wait")
    func unfinishedSequence() async throws {
      let pty = try #require(PseudoTerminal())
      let (stream, continuation) = AsyncStream.makeStream(of: TerminalEvent.self)
      var events = stream.makeAsyncIterator()
      try await RawMode.run(input: pty.terminal, output: pty.terminal) {
        let reader = try InputReader.start(input: pty.terminal) { continuation.yield($0) }
        defer { reader.stop() }
        pty.type([0x1b, 0x5b])
        #expect(await events.next(isolation: MainActor.shared) == .key(.unknown([0x1b, 0x5b])))
      }
    }

    @Test("stop ends the thread; nothing is reported after it")
    func stop() async throws {
      let pty = try #require(PseudoTerminal())
      let (stream, continuation) = AsyncStream.makeStream(of: TerminalEvent.self)
      try await RawMode.run(input: pty.terminal, output: pty.terminal) {
        let reader = try InputReader.start(input: pty.terminal) { continuation.yield($0) }
        reader.stop()
        continuation.finish()
      }
      pty.type(Array("1".utf8))
      var events: [TerminalEvent] = []
      for await event in stream { events.append(event) }
      #expect(events.isEmpty)
    }
  }
}
