import Observation
import RippleTesting
import Synchronization
import Testing

@testable import Ripple

/// The timing diagrams of the guides in `Sources/Ripple/Ripple.docc` and `Sources/RippleTesting/RippleTesting.docc`,
/// run. A guide shows a diagram only if it is here (or in the operator's own suite): change both together.
@Suite("Guide diagrams", .timeLimit(.minutes(1)))
struct GuideDiagramTests {
  /// Adds two one-digit inputs, so that a sum is one column of a diagram.
  static func sum(_ a: String, _ b: String) -> String {
    String(Int(a)! + Int(b)!)
  }

  @Test(
    "CombineLatest.md",
    arguments: [
      ("1---3---|", "-2----4-|", "-3--5-7-|"),
      // A base that finishes without producing ends it at once.
      ("12-3|", "--|", "--|"),
      // An error ends it at once.
      ("1-2^", "-5---", "-67^"),
    ])
  func combineLatestDiagrams(a: String, b: String, expected: String) async {
    let output = await marbles(a, b) { inputs, _ in combineLatest(inputs[0], inputs[1]).map(Self.sum) }
    #expect(output == expected)
  }

  @Test(
    "Merge.md",
    arguments: [
      ("a-c-e|", "-b-d---f|", "abcde--f|"),
      ("a--^", "-b---c|", "ab-^"),
    ])
  func mergeDiagrams(a: String, b: String, expected: String) async {
    let output = await marbles(a, b) { inputs, _ in merge(inputs[0], inputs[1]) }
    #expect(output == expected)
  }

  @Test(
    "Zip.md",
    arguments: [
      ("1-2--3-|", "-4--5-6---|", "-5--7-9|"),
      ("1--^", "-2---3|", "-3-^"),
    ])
  func zipDiagrams(a: String, b: String, expected: String) async {
    let output = await marbles(a, b) { inputs, _ in zip(inputs[0], inputs[1]).map(Self.sum) }
    #expect(output == expected)
  }

  @Test("Chain.md")
  func chainDiagram() async {
    #expect(await marbles("a-b|", "c----d|") { inputs, _ in chain(inputs[0], inputs[1]) } == "a-bc-d|")
  }

  @Test("Joined.md")
  func joinedDiagrams() async {
    let joined = await marbles("a-b|", "-----c-d|") { inputs, _ in [inputs[0], inputs[1]].async.joined() }
    #expect(joined == "a-b--c-d|")
    let separated = await marbles("a-b|", "-----c-d|", "x|") { inputs, _ in
      [inputs[0], inputs[1]].async.joined(separator: inputs[2])
    }
    #expect(separated == "a-bx-c-d|")
  }

  @Test("RemoveDuplicates.md")
  func removeDuplicatesDiagrams() async {
    #expect(await marbles("aab-bbc-c|") { inputs, _ in inputs[0].removeDuplicates() } == "a-b---c--|")
    let caseInsensitive = await marbles("aAb-Bc|") { inputs, _ in
      inputs[0].removeDuplicates { $0.lowercased() == $1.lowercased() }
    }
    #expect(caseInsensitive == "a-b--c|")
  }

  @Test("Compacted.md: `_` stands for nil")
  func compactedDiagrams() async {
    let compacted = await marbles("a_b__c|") { inputs, _ in inputs[0].map { $0 == "_" ? nil : $0 }.compacted() }
    #expect(compacted == "a-b--c|")
    let field = await marbles("1_1_2_2|") { inputs, _ in
      inputs[0].map { $0 == "_" ? nil : $0 }.compacted().removeDuplicates()
    }
    #expect(field == "1---2--|")
  }

  @Test(
    "Debounce.md: three ticks",
    arguments: [
      ("abcd----e---f-g----|", "------d----e-----g-|"),
      ("a|", "---[a|]"),
      ("abc|", "-----[c|]"),
      ("ab^", "--^"),
    ])
  func debounceDiagrams(input: String, expected: String) async {
    #expect(await marbles(input) { $0[0].debounce(for: .seconds(3), clock: $1) } == expected)
  }

  @Test(
    "Throttle.md: three ticks",
    arguments: [
      ("abcdefghijk|", true, "a--c--f--i--[k|]"),
      ("abcdefghijk|", false, "a--b--d--g--[j|]"),
      ("abc-------", true, "a--c------"),
      ("a-----b---", true, "a-----b---"),
      ("ab|", true, "a--[b|]"),
      ("ab^", true, "a-^"),
    ] as [(String, Bool, String)])
  func throttleDiagrams(input: String, latest: Bool, expected: String) async {
    #expect(await marbles(input) { $0[0].throttle(for: .seconds(3), clock: $1, latest: latest) } == expected)
  }

  @Test(
    "MapLatest.md: a transform of two ticks",
    arguments: [
      ("a---bc----|", "--a----c--|"),
      ("ab|", "---[b|]"),
      ("a^", "-^"),
    ])
  func mapLatestDiagrams(input: String, expected: String) async {
    let output = await marbles(input) { inputs, clock in
      inputs[0].mapLatest { value in
        try? await clock.sleep(for: .seconds(2))
        return value
      }
    }
    #expect(output == expected)
  }

  @Test("TaskSlot.md: run(id:) at ticks 0, 1, 2 and 6; each operation takes three ticks")
  func taskSlotDiagram() async {
    let clock = TestClock()
    let shown = Log()
    await clock.lockstep {
      let slot = TaskSlot()
      for (tick, id) in [(0, "a"), (1, "b"), (2, "b"), (6, "b")] {
        await clock.advance(to: .init(offset: .seconds(tick)))
        slot.run(id: id) {
          try? await clock.sleep(for: .seconds(3))
          guard !Task.isCancelled else { return }
          shown.append("\(id) at \(clock.now)")
        }
      }
      await clock.run()
    }
    // As a diagram: calls "abb---b---", results "----b----b".
    #expect(shown.entries == ["b at 4.0 seconds", "b at 9.0 seconds"])
  }

  @Test("Assign.md: each element is written as it arrives; assign returns at the finish")
  func assignDiagram() async {
    let clock = TestClock()
    let target = RecordingTarget(clock: clock)
    let returned = await clock.lockstep { () -> TestClock.Instant in
      async let assigned: TestClock.Instant = {
        try? await MarbleInput("a-b--c|", clock: clock).assign(to: \.value, on: target)
        return clock.now
      }()
      await clock.run()
      return await assigned
    }
    #expect(target.writes.entries == ["a at 0.0 seconds", "b at 2.0 seconds", "c at 5.0 seconds"])
    #expect(returned == .init(offset: .seconds(6)))
  }
}

/// The examples of `Sources/RippleTesting/RippleTesting.docc/TestingTimeWithTestClock.md`, run.
@Suite("Guide: Testing time with TestClock", .timeLimit(.minutes(1)))
struct TestingTimeGuideTests {
  @Test("lockstep: a debounced stream settles on the last value of a burst")
  func lockstepExample() async {
    let clock = TestClock()
    let settled = await clock.lockstep {
      let (input, continuation) = AsyncStream.makeStream(of: Int.self)
      async let settled: [Int] = {
        var seen: [Int] = []
        for await value in input.debounce(for: .seconds(1), clock: clock) { seen.append(value) }
        return seen
      }()
      continuation.yield(1)
      await clock.advance(by: .milliseconds(500))
      continuation.yield(2)
      await clock.advance(by: .seconds(1))
      continuation.finish()
      await clock.run()
      return await settled
    }
    #expect(settled == [2])
  }

  @Test("lockstep: a main-actor model's sleep is scheduled before the clock moves")
  @MainActor func mainActorModelExample() async {
    let clock = TestClock()
    await clock.lockstep {
      let reminder = Reminder()
      reminder.schedule(after: .seconds(5), clock: clock)
      await clock.advance(by: .milliseconds(4999))
      #expect(!reminder.fired)
      await clock.advance(by: .milliseconds(1))
      #expect(reminder.fired)
    }
    #expect(clock.now == .init(offset: .seconds(5)))
  }

  @Test("marbles: a pipeline of your own, and the notation's examples")
  func marbleExamples() async {
    #expect(await marbles("a-b-c|") { inputs, _ in inputs[0].map { $0.uppercased() } } == "A-B-C|")
    #expect(await marbles("a-b-c|", "-x---|") { inputs, _ in merge(inputs[0], inputs[1]) } == "axb-c|")
    #expect(await marbles("[ab]-c|") { inputs, _ in inputs[0] } == "[ab]-c|")
  }
}

/// A main-actor model that sets a flag after a delay, as the guide's example.
@MainActor @Observable final class Reminder {
  private(set) var fired = false
  @ObservationIgnored private let slot = TaskSlot()

  func schedule(after delay: Duration, clock: some Clock<Duration>) {
    slot.run(id: 0) { [weak self] in
      try? await clock.sleep(for: delay)
      guard !Task.isCancelled else { return }
      self?.fired = true
    }
  }
}

/// An object whose property records each write with the clock's time.
final class RecordingTarget: Sendable {
  let clock: TestClock
  let writes = Log()

  init(clock: TestClock) {
    self.clock = clock
  }

  var value: String {
    get { writes.entries.last ?? "" }
    set { writes.append("\(newValue) at \(clock.now)") }
  }
}
