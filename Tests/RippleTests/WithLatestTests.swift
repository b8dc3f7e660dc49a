import RippleTesting
import Testing

@testable import Ripple

@Suite("withLatest", .timeLimit(.minutes(1)))
struct WithLatestTests: FailureTypeFixtures {
  @Test("each base element is paired with the other's latest; the other's finish keeps its last element")
  func pairsWithTheLatest() async throws {
    let base = ControlledSequence<String>()
    let other = ControlledSequence<Int>()
    var iterator = base.withLatest(from: other).makeAsyncIterator()
    other.send(1)
    other.send(2)
    other.finish()
    let consumer = Task {
      var pairs: [String] = []
      while let (element, latest) = try await iterator.next() { pairs.append("\(element)\(latest)") }
      return pairs
    }
    #expect(await other.ending() == false)  // read to its end on its own; the sequence goes on
    base.send("a")
    base.send("b")
    base.finish()
    #expect(try await consumer.value == ["a2", "b2"])
  }

  @Test("the base's finish ends it and cancels the other")
  func baseFinishCancelsTheOther() async throws {
    let base = ControlledSequence<Int>()
    let other = ControlledSequence<Int>()
    var iterator = base.withLatest(from: other).makeAsyncIterator()
    base.finish()
    #expect(try await iterator.next() == nil)
    #expect(await other.ending() == true)
  }

  @Test("another's error ends it at once, though the base produces nothing, and cancels the base")
  func otherErrorEndsIt() async throws {
    let base = ControlledSequence<Int>()
    let other = ControlledSequence<Int>()
    var iterator = base.withLatest(from: other).makeAsyncIterator()
    other.send(1)
    other.fail()
    await #expect(throws: Boom.boom) { try await iterator.next() }
    #expect(await base.ending() == true)
    #expect(try await iterator.next() == nil)
  }

  @Test("cancelling the consumer mid-way ends it and cancels the base")
  func cancellation() async throws {
    let base = ControlledSequence<Int>()
    let other = ControlledSequence<Int>()
    let first = Latch()
    let consumer = Task {
      var pairs = 0
      for try await _ in base.withLatest(from: other) {
        pairs += 1
        first.open()
      }
      return pairs
    }
    other.send(1)
    other.finish()
    #expect(await other.ending() == false)  // read to its end, so that the base's element is not dropped
    base.send(2)
    await first.wait()
    consumer.cancel()
    #expect(try await consumer.value == 1)
    #expect(await base.ending() == true)
  }

  @Test("withLatest(from:_:) waits for both others")
  func twoOthers() async throws {
    let base = ControlledSequence<String>()
    let first = ControlledSequence<Int>()
    let second = ControlledSequence<Int>()
    let consumer = Task {
      var iterator = base.withLatest(from: first, second).makeAsyncIterator()
      return try await iterator.next().map { "\($0)\($1)\($2)" }
    }
    first.send(1)
    first.finish()
    second.send(10)
    second.finish()
    #expect(await first.ending() == false)
    #expect(await second.ending() == false)
    base.send("a")
    #expect(try await consumer.value == "a110")
  }

  @Test("sequences of one error type keep it; non-throwing stay non-throwing; mixed throw any Error")
  func failureTypes() async {
    #expect(failure(of: never.withLatest(from: never)) == ObjectIdentifier(Never.self))
    #expect(failure(of: boom.withLatest(from: boom, boom)) == ObjectIdentifier(Boom.self))
    #expect(failure(of: never.withLatest(from: boom)) == ObjectIdentifier((any Error).self))
    #expect(failure(of: boom.withLatest(from: never, other)) == ObjectIdentifier((any Error).self))
    // A non-throwing pair is iterated without `try`.
    var count = 0
    for await _ in finiteStream([1]).withLatest(from: finiteStream([2])) { count += 1 }
    #expect(count <= 1)
  }

  @Test(
    "WithLatest.md: the output shows the other's latest element each time the base produces",
    arguments: [
      ("a-b-c--d|", "-1---2|", "--1-1--2|"),
      // An empty base finishes at once.
      ("|", "1---", "|"),
      // The base fails at once.
      ("^", "1---", "^"),
      // The base fails after elements.
      ("-a-b-^", "1-----", "-1-1-^"),
      // The other fails: at once, without waiting for the base.
      ("-a----b|", "1--^", "-1-^"),
      // The other finishes without producing: every base element is dropped.
      ("a-b|", "|", "---|"),
      // Cancelled mid-way: the consumer's task is cancelled after the last tick.
      ("-a-b-", "1----", "-1-1-"),
    ])
  func diagrams(base: String, other: String, expected: String) async {
    let output = await marbles(base, other) { inputs, _ in inputs[0].withLatest(from: inputs[1]).map { $0.1 } }
    #expect(output == expected)
  }

  @Test("WithLatest.md: two others, their latest digits summed")
  func twoOthersDiagram() async {
    let output = await marbles("a--b--c|", "-1---2-", "--3----") { inputs, _ in
      inputs[0].withLatest(from: inputs[1], inputs[2]).map { String(Int($0.1)! + Int($0.2)!) }
    }
    #expect(output == "---4--5|")
  }
}
