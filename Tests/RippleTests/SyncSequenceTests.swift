import Ripple
import Testing

@Suite("Sequence.async", .timeLimit(.minutes(1)))
struct SyncSequenceTests {
  @Test("delivers the elements in order and finishes, for any sequence", arguments: [0, 1, 3, 1000])
  func deliversInOrder(count: Int) async {
    var elements: [Int] = []
    for await element in (0..<count).async { elements.append(element) }
    #expect(elements == Array(0..<count))
  }

  @Test("each iterator walks the sequence anew; a finished iterator stays finished")
  func iteratorsAreIndependent() async {
    let numbers = [1, 2, 3].async
    var first = numbers.makeAsyncIterator()
    var second = numbers.makeAsyncIterator()
    #expect(await first.next() == 1)
    #expect(await second.next() == 1)
    #expect(await first.next() == 2)
    #expect(await first.next() == 3)
    #expect(await first.next() == nil)
    #expect(await first.next() == nil)
    #expect(await second.next() == 2)
  }

  @Test("an endless sequence ends with its cancelled consumer, and stays ended")
  func cancellationEnds() async {
    let consumer = Task {
      var iterator = (1...).async.makeAsyncIterator()
      var taken: [Int] = []
      while let value = await iterator.next() {
        taken.append(value)
        // The consuming task cancels itself after three elements: the next `next()` runs cancelled.
        if value == 3 { withUnsafeCurrentTask { $0?.cancel() } }
      }
      return (taken, await iterator.next())
    }
    let (taken, afterEnd) = await consumer.value
    #expect(taken == [1, 2, 3])
    #expect(afterEnd == nil)
  }

  @Test("is Sendable when its base is, so it composes with the operators that need Sendable bases")
  func composesWithOperators() async {
    var output: [String] = []
    for await (number, letter) in zip([1, 2, 3].async, ["a", "b"].async) { output.append("\(number)\(letter)") }
    for await number in merge([1].async, [2].async) { output.append("\(number)") }
    #expect(output.prefix(2) == ["1a", "2b"])
    #expect(output.dropFirst(2).sorted() == ["1", "2"])
  }
}
