import RippleTesting
import Testing

@testable import Ripple

@Suite("adjacentPairs", .timeLimit(.minutes(1)))
struct AdjacentPairsTests {
  @Test(
    "pairs each element with the one before; fewer than two elements give no pair",
    arguments: [
      ([], []),
      ([1], []),
      ([1, 2], [[1, 2]]),
      ([1, 2, 3, 4], [[1, 2], [2, 3], [3, 4]]),
      ([5, 5, 5], [[5, 5], [5, 5]]),
    ] as [([Int], [[Int]])])
  func pairs(input: [Int], expected: [[Int]]) async {
    var output: [[Int]] = []
    for await (first, second) in finiteStream(input).adjacentPairs() {
      output.append([first, second])
    }
    #expect(output == expected)
  }

  @Test(
    "AdjacentPairs.md: a pair when the second element comes; 'ab' is one tick holding (a, b)",
    arguments: [("a-b--c|", "--'ab'--'bc'|"), ("a--|", "---|"), ("ab^", "-'ab'^")])
  func guideDiagrams(input: String, expected: String) async {
    #expect(await marbles(input) { inputs, _ in inputs[0].adjacentPairs().map { $0 + $1 } } == expected)
  }

  @Test(
    "the base's error comes after the pairs before it, then nil",
    arguments: [([], []), ([1], []), ([1, 2, 3], [[1, 2], [2, 3]])] as [([Int], [[Int]])])
  func baseError(input: [Int], expected: [[Int]]) async throws {
    var output: [[Int]] = []
    var iterator = failingStream(input).adjacentPairs().makeAsyncIterator()
    await #expect(throws: Boom.boom) {
      while let pair = try await iterator.next() { output.append([pair.0, pair.1]) }
    }
    #expect(output == expected)
    #expect(try await iterator.next() == nil)
  }

  @Test("after the base's end, next() returns nil without asking the base again")
  func endIsFinal() async {
    let base = NextCounting(finiteStream([1, 2]))
    var iterator = base.adjacentPairs().makeAsyncIterator()
    #expect(await iterator.next().map { [$0.0, $0.1] } == [1, 2])
    #expect(await iterator.next() == nil)
    #expect(await iterator.next() == nil)
    #expect(base.calls == 3)
  }

  @Test("cancellation is the base's: a cancelled consumer ends with the pairs so far")
  func cancellation() async {
    let base = CancellationProbe(yielding: ["a", "b", "c"])
    let consumer = Task {
      var output: [String] = []
      for await (first, second) in base.adjacentPairs() { output.append(first + second) }
      return output
    }
    await base.waitUntilWaiting()
    consumer.cancel()
    #expect(await consumer.value == ["ab", "bc"])
    #expect(base.wasCancelled)
  }

  @Test("a non-throwing base gives a non-throwing sequence; a typed failure stays typed")
  func typedThrows() async {
    // Compiles without `try`: `Failure` is `Never`.
    var iterator = finiteStream([1, 2]).adjacentPairs().makeAsyncIterator()
    #expect(await iterator.next().map { [$0.0, $0.1] } == [1, 2])
    #expect(AsyncAdjacentPairsSequence<AsyncStream<Int>>.Failure.self == Never.self)
    #expect(AsyncAdjacentPairsSequence<ControlledSequence<Int>>.Failure.self == Boom.self)
  }

  @Test("the sequence is Sendable when its base is: it crosses into a task")
  func sendable() async {
    let pairs = finiteStream(["x", "y"]).adjacentPairs()
    let output = await Task {
      var output: [String] = []
      for await (first, second) in pairs { output.append(first + second) }
      return output
    }.value
    #expect(output == ["xy"])
  }
}
