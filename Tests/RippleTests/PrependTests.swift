import RippleTesting
import Testing

@testable import Ripple

@Suite("prepend and append", .timeLimit(.minutes(1)))
struct PrependTests {
  @Test(
    "Prepend.md: prepend(\"x\") and append(\"z\")",
    arguments: [
      ("-a-b|", "xa-b|", "-a-b[z|]"),
      // An empty base.
      ("|", "[x|]", "[z|]"),
      // A base that fails at once: the prefix still comes first, the suffix never.
      ("^", "[x^]", "^"),
      // A base that fails after elements.
      ("-a^", "xa^", "-a^"),
      // Cancelled mid-way: the consumer's task is cancelled after the last tick.
      ("-a--", "xa--", "-a--"),
    ])
  func diagrams(input: String, prepended: String, appended: String) async {
    #expect(await marbles(input) { inputs, _ in inputs[0].prepend("x") } == prepended)
    #expect(await marbles(input) { inputs, _ in inputs[0].append("z") } == appended)
  }

  @Test("Prepend.md: prepending and appending an async sequence chain them")
  func asyncSequences() async {
    #expect(await marbles("----a-b|", "x-y|") { inputs, _ in inputs[0].prepend(inputs[1]) } == "x-y-a-b|")
    #expect(await marbles("a-b|", "----x-y|") { inputs, _ in inputs[0].append(inputs[1]) } == "a-b-x-y|")
  }

  @Test("prepend and append of a sequence keep its order; the sequence's type is kept")
  func sequences() async {
    #expect(await collect([3, 4].async.prepend([1, 2]).append([5, 6])) == [1, 2, 3, 4, 5, 6])
    #expect(await collect([2].async.prepend(1).append(3)) == [1, 2, 3])
    #expect(await collect([Int]().async.prepend([]).append([])) == [])
  }

  @Test("the prefix goes out in a cancelled task; the suffix after a base that ended by cancellation")
  func cancellation() async {
    let consumer = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      return await collect((0..<10).async.prepend([-2, -1]).append(99))
    }
    #expect(await consumer.value == [-2, -1, 99])
  }

  @Test("the base's error ends it: the suffix never comes")
  func errorSkipsTheSuffix() async throws {
    var iterator = failingStream([1]).append(2).makeAsyncIterator()
    #expect(try await iterator.next() == 1)
    await #expect(throws: Boom.boom) { try await iterator.next() }
    #expect(try await iterator.next() == nil)
  }
}
