import Observation
import RippleTesting
import Testing

@testable import Ripple

@Suite("reductions", .timeLimit(.minutes(1)))
struct ReductionsTests {
  @Test(
    "reductions(_:_:): each running result; not the initial value, so an empty base gives nothing",
    arguments: [([], []), ([5], [105]), ([1, 2, 3], [101, 103, 106])] as [([Int], [Int])])
  func exclusive(input: [Int], expected: [Int]) async {
    var output: [Int] = []
    for await total in finiteStream(input).reductions(100, +) {
      output.append(total)
    }
    #expect(output == expected)
  }

  @Test(
    "reductions(into:_:): the same, the result changed in place",
    arguments: [
      ([], []), (["a"], [["a"]]), (["a", "b", "c", "d"], [["a"], ["a", "b"], ["a", "b", "c"], ["b", "c", "d"]]),
    ]
      as [([String], [[String]])])
  func exclusiveInto(input: [String], expected: [[String]]) async {
    // The example of `reductions(into:_:)`'s doc comment: the last three queries.
    let recent = finiteStream(input).reductions(into: [String]()) { recent, query in
      recent.append(query)
      if recent.count > 3 { recent.removeFirst() }
    }
    var output: [[String]] = []
    for await queries in recent {
      output.append(queries)
    }
    #expect(output == expected)
  }

  @Test("reductions(into:_:) changes the result in place once the consumer has let go of the last one")
  @MainActor func updatesInPlace() async {
    var storage: Set<UInt> = []
    var initial: [Int] = []
    initial.reserveCapacity(8)
    let collected = finiteStream([1, 2, 3, 4]).reductions(into: initial) { numbers, number in
      numbers.append(number)
      // Where the elements live: one address throughout means no copy was made.
      storage.insert(numbers.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) })
    }
    var count = 0
    for await numbers in collected { count = numbers.count }
    #expect(count == 4)
    #expect(storage.count == 1)
  }

  @Test(
    "reductions(_:): the first element as it is, then each running result",
    arguments: [([], []), ([7], [7]), ([3, 1, 4, 1, 5], [3, 3, 4, 4, 5])] as [([Int], [Int])])
  func inclusive(input: [Int], expected: [Int]) async {
    var output: [Int] = []
    for await highest in finiteStream(input).reductions(max) {
      output.append(highest)
    }
    #expect(output == expected)
  }

  @Test("the transform runs once per element after the first, never for the first of reductions(_:)")
  @MainActor func transformCalls() async {
    // `calls` is main-actor state the transforms mutate without `await`: they run on the consumer's isolation.
    var calls: [[Int]] = []
    var exclusive: [Int] = []
    for await total in finiteStream([1, 2, 3]).reductions(
      0,
      { total, next in
        calls.append([total, next])
        return total + next
      })
    {
      exclusive.append(total)
    }
    #expect(exclusive == [1, 3, 6])
    #expect(calls == [[0, 1], [1, 2], [3, 3]])

    calls = []
    var inclusive: [Int] = []
    for await total in finiteStream([1, 2, 3]).reductions({ total, next in
      calls.append([total, next])
      return total + next
    }) {
      inclusive.append(total)
    }
    #expect(inclusive == [1, 3, 6])
    #expect(calls == [[1, 2], [3, 3]])

    calls = []
    for await _ in finiteStream([9]).reductions({ total, next in
      calls.append([total, next])
      return total
    }) {}
    #expect(calls == [])
  }

  @Test(
    "Reductions.md: reductions(0, +), a result in the tick of each element",
    arguments: [("1-2--3|", "1-3--6|"), ("1-2^", "1-3^"), ("--|", "--|")])
  func guideSumDiagrams(input: String, expected: String) async {
    let output = await marbles(input) { inputs, _ in inputs[0].map { Int($0)! }.reductions(0, +).map(String.init) }
    #expect(output == expected)
  }

  @Test(
    "Reductions.md: reductions(max), the first element as it is",
    arguments: [("3-1-4-2|", "3-3-4-4|"), ("5|", "5|")])
  func guideMaxDiagrams(input: String, expected: String) async {
    let output = await marbles(input) { inputs, _ in inputs[0].map { Int($0)! }.reductions(max).map(String.init) }
    #expect(output == expected)
  }

  @Test("a transform that awaits compiles and runs in order")
  func asyncTransform() async {
    let rates = Rates()
    var output: [Int] = []
    for await total in finiteStream([1, 2, 3]).reductions(
      0,
      { total, amount in
        await total + rates.converted(amount)
      })
    {
      output.append(total)
    }
    #expect(output == [10, 30, 60])
    #expect(await rates.asked == [1, 2, 3])
  }

  @Test("a main-actor transform reads main-actor state, and the sequence is Sendable: combineLatest takes it")
  @MainActor func mainActorState() async {
    let model = Scaled()
    var sums = scaledTotals(model).makeAsyncIterator()
    #expect(await sums.next(isolation: MainActor.shared) == 10)
  }

  @Test(
    "the base's error comes after the results before it, then nil",
    arguments: [([], []), ([1], [1]), ([1, 2, 3], [1, 3, 6])] as [([Int], [Int])])
  func baseError(input: [Int], expected: [Int]) async throws {
    var exclusive = failingStream(input).reductions(0, +).makeAsyncIterator()
    var inclusive = failingStream(input).reductions(+).makeAsyncIterator()
    var into = failingStream(input).reductions(into: 0) { $0 += $1 }.makeAsyncIterator()
    var output: [[Int]] = [[], [], []]
    await #expect(throws: Boom.boom) {
      while let total = try await exclusive.next() { output[0].append(total) }
    }
    await #expect(throws: Boom.boom) {
      while let total = try await inclusive.next() { output[1].append(total) }
    }
    await #expect(throws: Boom.boom) {
      while let total = try await into.next() { output[2].append(total) }
    }
    #expect(output == [expected, expected, expected])
    #expect(try await exclusive.next() == nil)
    #expect(try await inclusive.next() == nil)
    #expect(try await into.next() == nil)
  }

  @Test("a transform's error of the base's type ends the sequence: nil after, the base not asked again")
  func transformError() async throws {
    let base = NextCounting(BoomFailing(finiteStream([1, 2, 3, 4])))
    var iterator = base.reductions(0) { (total, next) throws(Boom) -> Int in
      if next == 2 { throw .boom }
      return total + next
    }.makeAsyncIterator()
    #expect(try await iterator.next() == 1)
    await #expect(throws: Boom.boom) { try await iterator.next() }
    #expect(try await iterator.next() == nil)
    #expect(base.calls == 2)

    var inclusive = BoomFailing(finiteStream([1, 2, 3])).reductions { (_, _) throws(Boom) -> Int in throw .boom }
      .makeAsyncIterator()
    #expect(try await inclusive.next() == 1)
    await #expect(throws: Boom.boom) { try await inclusive.next() }
    #expect(try await inclusive.next() == nil)
  }

  @Test("a transform throwing another error gives the AsyncThrowing… sequences, which end at its error")
  func throwingTransforms() async throws {
    let exclusive: AsyncThrowingExclusiveReductionsSequence<AsyncStream<Int>, Int> =
      finiteStream([1, 2, 3]).reductions(0) { total, next in
        if next == 3 { throw Overdrawn() }
        return total + next
      }
    let into: AsyncThrowingExclusiveReductionsSequence<AsyncStream<Int>, Int> =
      finiteStream([1, 2, 3]).reductions(into: 0) { total, next in
        if next == 3 { throw Overdrawn() }
        total += next
      }
    let inclusive: AsyncThrowingInclusiveReductionsSequence<AsyncStream<Int>> =
      finiteStream([1, 2, 3]).reductions { total, next in
        if next == 3 { throw Overdrawn() }
        return total + next
      }
    #expect(await resultsAndError(exclusive) == ([1, 3], "Overdrawn"))
    #expect(await resultsAndError(into) == ([1, 3], "Overdrawn"))
    #expect(await resultsAndError(inclusive) == ([1, 3], "Overdrawn"))
  }

  @Test("the AsyncThrowing… sequences throw the base's error too, after the results before it")
  func throwingTransformsBaseError() async throws {
    let base = ControlledSequence<Int>()
    base.send(1)
    base.send(2)
    base.fail()
    var iterator = base.reductions(0) { (total, next) throws(Overdrawn) in total + next }.makeAsyncIterator()
    #expect(try await iterator.next() == 1)
    #expect(try await iterator.next() == 3)
    await #expect(throws: Boom.boom) { try await iterator.next() }
    #expect(try await iterator.next() == nil)
  }

  @Test("each iterator starts from the initial value anew")
  func iteratorsAreIndependent() async {
    let totals = [1, 2].async.reductions(into: 10) { $0 += $1 }
    var first = totals.makeAsyncIterator()
    var second = totals.makeAsyncIterator()
    #expect(await first.next() == 11)
    #expect(await first.next() == 13)
    #expect(await second.next() == 11)
  }

  @Test("cancellation is the base's: a cancelled consumer ends with the results so far")
  func cancellation() async {
    let base = CancellationProbe(yielding: ["a", "b"])
    let consumer = Task {
      var output: [String] = []
      for await text in base.reductions("", +) { output.append(text) }
      return output
    }
    await base.waitUntilWaiting()
    consumer.cancel()
    #expect(await consumer.value == ["a", "ab"])
    #expect(base.wasCancelled)
  }

  @Test("a non-throwing base with a non-throwing transform gives a non-throwing sequence")
  func typedThrows() async {
    // Each loop compiles without `try`: `Failure` is `Never`.
    var total = 0
    for await value in finiteStream([1, 2]).reductions(0, +) { total += value }
    for await value in finiteStream([1, 2]).reductions(into: 0, { $0 += $1 }) { total += value }
    for await value in finiteStream([1, 2]).reductions(+) { total += value }
    #expect(total == 4 + 4 + 4)
    #expect(AsyncExclusiveReductionsSequence<AsyncStream<Int>, Int>.Failure.self == Never.self)
    #expect(AsyncInclusiveReductionsSequence<ControlledSequence<Int>>.Failure.self == Boom.self)
    #expect(AsyncThrowingInclusiveReductionsSequence<AsyncStream<Int>>.Failure.self == (any Error).self)
  }
}

/// The error of a throwing transform in these tests.
struct Overdrawn: Error {}

/// An actor a transform awaits: converts amounts, and records what it was asked.
private actor Rates {
  var asked: [Int] = []

  func converted(_ amount: Int) -> Int {
    asked.append(amount)
    return amount * 10
  }
}

/// A factor on the main actor that a transform reads.
@MainActor @Observable private final class Scaled {
  var factor = 10
}

/// Compiles only if `reductions` with a transform reading main-actor state gives a `Sendable` sequence that
/// `combineLatest` accepts.
@MainActor private func scaledTotals(_ model: Scaled) -> some AsyncSequence<Int, Never> {
  combineLatest(
    [1].async.reductions(0) { total, next in total + next * model.factor },
    Observed { model.factor }
  ).map { total, _ in total }
}

/// The results of one iteration up to its error, and the error's type; checks that `next()` returns `nil` after it.
private func resultsAndError(_ sequence: some AsyncSequence<Int, any Error>) async -> ([Int], String?) {
  var iterator = sequence.makeAsyncIterator()
  var results: [Int] = []
  do {
    while let result = try await iterator.next() { results.append(result) }
    return (results, nil)
  } catch {
    let after = try? await iterator.next()
    #expect(after == nil)
    return (results, "\(type(of: error))")
  }
}
