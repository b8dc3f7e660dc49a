import RippleTesting
import Testing

@testable import Ripple

@Suite("Marble diagrams", .timeLimit(.minutes(1)))
struct MarbleDiagramTests {
  // MARK: Parsing

  @Test(
    "valid diagrams parse into ticks",
    arguments: [
      ("", []),
      ("a-b|", [[.value("a")], [], [.value("b")], [.finish]]),
      (" a - b ", [[.value("a")], [], [.value("b")]]),
      ("[ab]^", [[.value("a"), .value("b")], [.failure]]),
      ("'xy'-'-'", [[.value("xy")], [], [.value("-")]]),
      ("--[a|]", [[], [], [.value("a"), .finish]]),
      ("[ a b ]", [[.value("a"), .value("b")]]),
    ] as [(String, [[MarbleDiagram.Event]])])
  func parsesValidDiagrams(text: String, ticks: [[MarbleDiagram.Event]]) throws {
    #expect(try MarbleDiagram(parsing: text).ticks == ticks)
  }

  @Test(
    "invalid diagrams are rejected with the reason and the position",
    arguments: [
      ("a[b", "unclosed group", 1),
      ("a]", "] without [", 1),
      ("a|b", "a tick after the end", 2),
      ("^-", "a tick after the end", 1),
      ("[]", "empty group", 0),
      ("[a[b]]", "a group inside a group", 2),
      ("[a-]", "a tick inside a group", 2),
      ("[|a]", "an event after the end", 2),
      ("-'ab", "unclosed quote", 1),
    ])
  func rejectsInvalidDiagrams(text: String, reason: String, offset: Int) {
    #expect(throws: MarbleDiagram.ParseError(reason: reason, offset: offset)) {
      try MarbleDiagram(parsing: text)
    }
  }

  @Test(
    "a diagram prints in canonical form",
    arguments: [
      ("a - b |", "a-b|"),
      ("[a][bc]", "a[bc]"),
      ("'x''yz'['-'|]", "x'yz'['-'|]"),
    ])
  func printsCanonically(text: String, canonical: String) throws {
    #expect(try MarbleDiagram(parsing: text).description == canonical)
  }

  @Test("difference(from:) lines up the columns and points at the first mismatch")
  func differenceReport() {
    let actual: MarbleDiagram = "[ab]-c|"
    #expect(actual.difference(from: "[ab] - c |") == nil)
    let report = actual.difference(from: "a--c|")
    #expect(
      report == """
        expected: a   --c|
        actual:   [ab]-c|
                  ^ tick 0: expected a, got [ab]
        """)
    #expect(MarbleDiagram("ab").difference(from: "ab|")?.hasSuffix("^ tick 2: expected |, got the end") == true)
  }

  // MARK: Running

  @Test(
    "a pass-through pipeline reproduces its input",
    arguments: ["abc|", "a-b--c|", "--a", "ab--", "ab^", "[ab]-c|", "'xy'-z|", "--[a|]", ""])
  func passThrough(diagram: String) async {
    let output = await marbles(diagram) { inputs, _ in inputs[0] }
    #expect(output == diagram)
  }

  @Test("marbles can be called from a main-actor test")
  @MainActor func fromMainActor() async {
    #expect(await marbles("a-b|") { inputs, _ in inputs[0] } == "a-b|")
  }

  @Test("an error from ^ reaches the output as ^ and is a MarbleError")
  func failure() async throws {
    #expect(await marbles("a-^") { inputs, _ in inputs[0].map { $0.uppercased() } } == "A-^")
    let clock = TestClock()
    let thrown = await clock.lockstep { () -> (any Error)? in
      async let thrown: (any Error)? = {
        do {
          for try await _ in MarbleInput("a^", clock: clock) {}
          return nil
        } catch {
          return error
        }
      }()
      await clock.run()
      return await thrown
    }
    #expect(thrown as? MarbleError == MarbleError())
  }

  @Test("several values in one tick are written [ab]; a value of several characters is quoted")
  func groupsAndLongValues() async {
    #expect(await marbles("[ab]-c|") { inputs, _ in inputs[0] } == "[ab]-c|")
    #expect(await marbles("a-b|") { inputs, _ in inputs[0].map { $0 + $0 } } == "'aa'-'bb'|")
  }

  @Test(
    "a task that an operator starts is driven in lockstep with the clock",
    arguments: [
      ("abc|", "--a-b-[c|]"),
      ("a---b|", "--a---[b|]"),
      ("a^", "--[a^]"),
      ("a", "--a"),
    ])
  func operatorTaskInLockstep(input: String, expected: String) async {
    let output = await marbles(input) { inputs, clock in
      HeldSequence(base: inputs[0], hold: .seconds(2), clock: clock)
    }
    #expect(output == expected)
  }

  @Test("a value that arrives between ticks counts for the tick it arrives in")
  func subTickArrival() async {
    let output = await marbles("a|", tick: .milliseconds(10)) { inputs, clock in
      HeldSequence(base: inputs[0], hold: .milliseconds(15), clock: clock)
    }
    #expect(output == "-[a|]")
  }

  @Test("without a terminator, the run reaches the end of the longest input or the last value")
  func openEndedRuns() async {
    #expect(await marbles("a-----", "b|") { inputs, _ in inputs[1] } == "b|")
    #expect(await marbles("a-----", "b") { inputs, _ in inputs[1] } == "b-----")
    #expect(
      await marbles("a") { inputs, clock in HeldSequence(base: inputs[0], hold: .seconds(4), clock: clock) }
        == "----a")
  }

  @Test("a run whose output never ends stops when nothing is left to do, and cancels the output")
  func outputThatNeverEnds() async {
    let cancelled = Log()
    let output = await marbles("a--") { _, _ in
      AsyncStream<String> { continuation in
        continuation.onTermination = { _ in cancelled.append("cancelled") }
      }
    }
    #expect(output == "---")
    #expect(cancelled.entries == ["cancelled"])
  }

  @Test("a run whose tasks keep sleeping stops 10,000 ticks after the longest input's last tick")
  func tickLimit() async {
    let wakeUps = Log()
    let output = await marbles("a-") { inputs, clock in
      Heartbeat(base: inputs[0], clock: clock, beat: { wakeUps.append("") })
    }
    #expect(output == "a-")
    // Ticks 1 through 10,001: the input's last tick is 1.
    #expect(wakeUps.entries.count == 10_001)
  }

  @Test("an invalid input gives a readable output, or a thrown error from marbleDiagram")
  func invalidInput() async {
    #expect(await marbles("a-b", "a[") { inputs, _ in inputs[0] } == "invalid input 2: unclosed group at character 1")
    await #expect(throws: MarbleDiagram.ParseError(reason: "invalid input 1: ] without [", offset: 0)) {
      try await marbleDiagram("]") { inputs, _ in inputs[0] }
    }
  }

  @Test("marbleDiagram returns the output as a diagram")
  func diagramResult() async throws {
    let output = try await marbleDiagram("a-b|") { inputs, clock in
      HeldSequence(base: inputs[0], hold: .seconds(1), clock: clock)
    }
    #expect(output.difference(from: "-a-[b|]") == nil)
    #expect(output.isTerminated)
  }

  @Test("nonisolated, @MainActor and Task { } transforms all run in the run's lockstep (MarbleDiagrams.md, Limits)")
  func isolationsRunInLockstep() async {
    // "nonisolated code, `@MainActor` code, default actors and plain `Task { }` all run in it"
    let nonisolated = await marbles("a--b--|") { inputs, clock in
      inputs[0].map { value in
        try? await clock.sleep(for: .seconds(1))
        return value
      }
    }
    let mainActor = await marbles("a--b--|") { inputs, clock in
      inputs[0].map { @MainActor value in
        try? await clock.sleep(for: .seconds(1))
        return value
      }
    }
    let plainTask = await marbles("a--b--|") { inputs, clock in
      inputs[0].map { value in
        await Task {
          try? await clock.sleep(for: .seconds(1))
          return value
        }.value
      }
    }
    #expect(nonisolated == "-a--b-|")
    #expect(mainActor == nonisolated)
    #expect(plainTask == nonisolated)
  }

  @Test("the same run gives the same diagram every time")
  func repeatable() async {
    var outputs: Set<String> = []
    for _ in 0..<50 {
      outputs.insert(
        await marbles("ab-c--d|") { inputs, clock in
          HeldSequence(base: inputs[0], hold: .seconds(2), clock: clock)
        })
    }
    #expect(outputs == ["--a-b-c-[d|]"])
  }
}

/// A test-local operator that holds each element for `hold` on `clock` before passing it on, in a task of its
/// own started with `_startOperatorTask`, as Ripple's time-based operators do.
///
/// Elements are read one at a time: the next is read only after the previous one was passed on.
private struct HeldSequence<Base: AsyncSequence & Sendable>: AsyncSequence where Base.Element: Sendable {
  typealias Element = Base.Element

  let base: Base
  let hold: Duration
  let clock: TestClock

  func makeAsyncIterator() -> Iterator {
    Iterator(sequence: self)
  }

  struct Iterator: AsyncIteratorProtocol {
    let sequence: HeldSequence
    var output: AsyncThrowingStream<Element, any Error>.Iterator?

    mutating func next() async throws -> Element? {
      if output == nil {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: Element.self)
        let task = _startOperatorTask { [sequence] in
          do {
            for try await element in sequence.base {
              try await sequence.clock.sleep(for: sequence.hold)
              continuation.yield(element)
            }
            continuation.finish()
          } catch {
            continuation.finish(throwing: error)
          }
        }
        continuation.onTermination = { _ in task.cancel() }
        output = stream.makeAsyncIterator()
      }
      return try await output?.next()
    }
  }
}

/// A test-local operator that passes its base through while a task of its own wakes up every second,
/// without end.
private struct Heartbeat<Base: AsyncSequence>: AsyncSequence {
  typealias Element = Base.Element

  let base: Base
  let clock: TestClock
  let beat: @Sendable () -> Void

  func makeAsyncIterator() -> Iterator {
    Iterator(base: base.makeAsyncIterator(), clock: clock, beat: beat)
  }

  struct Iterator: AsyncIteratorProtocol {
    var base: Base.AsyncIterator
    let clock: TestClock
    let beat: @Sendable () -> Void
    var heart: Task<Void, Never>?

    mutating func next() async throws -> Element? {
      if heart == nil {
        heart = _startOperatorTask { [clock, beat] in
          while (try? await clock.sleep(for: .seconds(1))) != nil { beat() }
        }
      }
      return try await withTaskCancellationHandler {
        try await base.next()
      } onCancel: { [heart] in
        heart?.cancel()
      }
    }
  }
}
