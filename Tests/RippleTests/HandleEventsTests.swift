import RippleTesting
import Testing

@testable import Ripple

@Suite("handleEvents", .timeLimit(.minutes(1)))
struct HandleEventsTests {
  /// `input` with every event written to `log`, as `event@tick`.
  static func traced(_ input: MarbleInput, _ clock: TestClock, _ log: Log) -> AsyncHandleEventsSequence<MarbleInput> {
    @Sendable func tick() -> String { "@\(clock.now.offset.components.seconds)" }
    return input.handleEvents {
      log.append("start" + tick())
    } onElement: { element in
      log.append(element + tick())
    } onCancel: {
      log.append("cancel" + tick())
    } onFinish: { termination in
      switch termination {
      case .finished: log.append("finish" + tick())
      case .failure: log.append("failure" + tick())
      }
    }
  }

  @Test(
    "HandleEvents.md: the elements pass unchanged; the closures run as the events happen",
    arguments: [
      ("a-b|", "a-b|", ["start@0", "a@0", "b@2", "finish@3"]),
      // An empty base.
      ("|", "|", ["start@0", "finish@0"]),
      // A base that fails at once.
      ("^", "^", ["start@0", "failure@0"]),
      // A base that fails after elements.
      ("a-b^", "a-b^", ["start@0", "a@0", "b@2", "failure@3"]),
      // Cancelled mid-way: the consumer's task is cancelled after the last tick.
      ("a-b-", "a-b-", ["start@0", "a@0", "b@2", "cancel@3"]),
    ] as [(String, String, [String])])
  func diagrams(input: String, expected: String, events: [String]) async {
    let log = Log()
    let output = await marbles(input) { inputs, clock in Self.traced(inputs[0], clock, log) }
    #expect(output == expected)
    #expect(log.entries == events)
  }

  @Test("onStart's error ends the sequence before the base is asked, and goes to onFinish")
  func onStartThrows() async throws {
    let log = Log()
    let asked = Log()
    let sequence = failingStream([1]).handleEvents {
      throw Boom.boom
    } onElement: { element in
      asked.append("\(element)")
    } onFinish: { termination in
      if case .failure(let error) = termination { log.append("\(error)") }
    }
    var iterator = sequence.makeAsyncIterator()
    await #expect(throws: Boom.boom) { try await iterator.next() }
    #expect(log.entries == ["boom"])
    #expect(asked.entries.isEmpty)
    #expect(try await iterator.next() == nil)
  }

  @Test("a next() in a cancelled task calls onCancel once and ends, though the base would go on")
  func cancelledTask() async {
    let log = Log()
    let consumer = Task {
      var seen: [Int] = []
      for await element in (0..<1_000).async.handleEvents(onCancel: { log.append("cancel") }) {
        seen.append(element)
        withUnsafeCurrentTask { $0?.cancel() }
      }
      return seen
    }
    #expect(await consumer.value == [0])
    #expect(log.entries == ["cancel"])
  }

  @Test("main-actor closures run on the main actor, and a main-actor consumer calls them there")
  @MainActor func isolation() async {
    var count = 0
    for await _ in [1, 2, 3].async.handleEvents(onElement: { _ in
      MainActor.assertIsolated()
      count += 1
    }) {}
    #expect(count == 3)
  }

  @Test("a non-throwing base gives a non-throwing sequence; a throwing one keeps its error type")
  func failureTypes() {
    func failure<S: AsyncSequence>(of _: S) -> ObjectIdentifier { ObjectIdentifier(S.Failure.self) }
    #expect(failure(of: [1].async.handleEvents()) == ObjectIdentifier(Never.self))
    #expect(failure(of: ControlledSequence<Int>().handleEvents()) == ObjectIdentifier(Boom.self))
  }
}
