import RippleTesting
import Testing

@testable import Ripple

/// A marble pipeline's chunks as values: each chunk's letters joined, `'ab'` in a diagram.
private func joined<S: AsyncSequence>(_ chunks: S) -> AsyncMapSequence<S, String> where S.Element == [String] {
  chunks.map { $0.joined() }
}

@Suite("chunks(ofCount:)", .timeLimit(.minutes(1)))
struct ChunksOfCountTests {
  @Test(
    "full chunks of count, then the rest",
    arguments: [
      (5, 2, [[0, 1], [2, 3], [4]]),
      (4, 2, [[0, 1], [2, 3]]),
      (0, 3, []),
      (2, 5, [[0, 1]]),
      (3, 1, [[0], [1], [2]]),
      (3, Int.max, [[0, 1, 2]]),
    ])
  func chunksOfCount(elements: Int, count: Int, expected: [[Int]]) async {
    #expect(await collect(Array(0..<elements).async.chunks(ofCount: count)) == expected)
  }

  @Test("doc comment: gathers into the collection type asked for")
  func intoCollection() async {
    let chunks = await collect([1, 2, 3, 4, 5].async.chunks(ofCount: 2, into: ContiguousArray.self))
    #expect(chunks.map(Array.init) == [[1, 2], [3, 4], [5]])
    #expect(await collect("abcde".async.chunks(ofCount: 2, into: String.self)) == ["ab", "cd", "e"])
  }

  @Test("the base's error is thrown, the partial chunk dropped; then nil")
  func error() async throws {
    var iterator = failingStream([1, 2, 3]).chunks(ofCount: 2).makeAsyncIterator()
    #expect(try await iterator.next() == [1, 2])
    await #expect(throws: Boom.boom) { try await iterator.next() }
    #expect(try await iterator.next() == nil)
  }

  @Test("a base ending on cancellation ends it after the partial chunk")
  func cancellation() async {
    let probe = CancellationProbe(yielding: ["a", "b", "c"])
    let consumer = Task {
      var iterator = probe.chunks(ofCount: 2).makeAsyncIterator()
      let first = await iterator.next()
      let partial = await iterator.next()
      let after = await iterator.next()
      return [first, partial, after]
    }
    await probe.waitUntilWaiting()
    consumer.cancel()
    #expect(await consumer.value == [["a", "b"], ["c"], nil])
    #expect(probe.wasCancelled)
  }

  @Test("a count of zero or less stops the program")
  func countMustBePositive() async {
    await #expect(processExitsWith: .failure) { _ = [1].async.chunks(ofCount: 0) }
    await #expect(processExitsWith: .failure) { _ = [1].async.chunks(ofCount: -1, into: [Int].self) }
  }
}

@Suite("chunked(by:) with a predicate", .timeLimit(.minutes(1)))
struct ChunkedByGroupTests {
  @Test(
    "runs of elements the predicate groups",
    arguments: [
      ([10, 20, 30, 10, 40, 40, 10, 20], [[10, 20, 30], [10, 40, 40], [10, 20]]),
      ([], []),
      ([1], [[1]]),
      ([3, 2, 1], [[3], [2], [1]]),
    ])
  func groups(input: [Int], expected: [[Int]]) async {
    #expect(await collect(input.async.chunked(by: { $0 <= $1 })) == expected)
  }

  @Test("doc comment: gathers into the collection type asked for")
  func intoCollection() async {
    let readings = [10, 20, 30, 10, 40, 40, 10, 20].async
    let runs = await collect(readings.chunked(into: ContiguousArray.self, by: { $0 <= $1 }))
    #expect(runs.map(Array.init) == [[10, 20, 30], [10, 40, 40], [10, 20]])
  }

  @Test("the predicate's error is thrown, the group dropped; then nil")
  func predicateError() async throws {
    let base = ControlledSequence<Int>()
    var iterator = base.chunked(by: { previous, next throws(Boom) in
      if next == 3 { throw .boom }
      return previous < next
    }).makeAsyncIterator()
    for element in [1, 2, 1, 3, 4] { base.send(element) }
    #expect(try await iterator.next() == [1, 2])
    await #expect(throws: Boom.boom) { try await iterator.next() }
    #expect(try await iterator.next() == nil)
  }

  @Test("the base's error is thrown, the group dropped; then nil")
  func baseError() async throws {
    var iterator = failingStream([1, 2, 1]).chunked(by: <).makeAsyncIterator()
    #expect(try await iterator.next() == [1, 2])
    await #expect(throws: Boom.boom) { try await iterator.next() }
    #expect(try await iterator.next() == nil)
  }

  @Test("a group is delivered once the element after it arrives, or at the base's end, not before")
  func deliveredOnTheNextGroupsFirstElement() async {
    let output = await marbles("ab-a|") { inputs, _ in joined(inputs[0].chunked(by: <)) }
    #expect(output == "---'ab'[a|]")
  }

  @Test("a main-actor predicate reads main-actor state; the sequence stays Sendable")
  @MainActor func mainActorPredicate() async {
    let threshold = Threshold()
    // Elements closer than the threshold to the one before belong together.
    let runs = [1, 5, 6, 2, 9].async.chunked { previous, next in abs(next - previous) < threshold.value }
    requireSendable(runs)
    #expect(await collect(runs) == [[1, 5, 6, 2], [9]])
  }
}

@Suite("chunked(on:)", .timeLimit(.minutes(1)))
struct ChunkedOnProjectionTests {
  @Test("doc comment: runs with equal projections, each with its projection")
  func byFirstLetter() async {
    let names = ["Ada", "Alan", "Barbara", "Grace", "Guido"].async
    let groups = await collect(names.chunked(into: ContiguousArray.self, on: { $0.first! }))
    #expect(groups.map(\.0) == ["A", "B", "G"])
    #expect(groups.map { Array($0.1) } == [["Ada", "Alan"], ["Barbara"], ["Grace", "Guido"]])
    let arrays = await collect(["Ada", "Alan", "Grace"].async.chunked(on: { $0.first! }))
    #expect(arrays.map(\.0) == ["A", "G"])
    #expect(arrays.map(\.1) == [["Ada", "Alan"], ["Grace"]])
  }

  @Test("the projection runs once per element; an empty base gives nothing")
  func projectionOncePerElement() async {
    let calls = Calls()
    let groups = await collect([1, 1, 2, 3, 3].async.chunked(on: { calls.record($0) }))
    #expect(groups.map(\.0) == [1, 2, 3])
    #expect(groups.map(\.1) == [[1, 1], [2], [3, 3]])
    #expect(calls.count == 5)
    #expect(await collect([Int]().async.chunked(on: { $0 })).isEmpty)
  }

  @Test("the projection's error is thrown, the group dropped; then nil")
  func projectionError() async throws {
    let base = ControlledSequence<Int>()
    var iterator = base.chunked(on: { element throws(Boom) in
      if element == 3 { throw .boom }
      return element / 10
    }).makeAsyncIterator()
    for element in [1, 2, 10, 3] { base.send(element) }
    let first = try await iterator.next()
    #expect(first?.0 == 0)
    #expect(first?.1 == [1, 2])
    await #expect(throws: Boom.boom) { try await iterator.next() }
    #expect(try await iterator.next() == nil)
  }
}

@Suite("chunks(ofCount:or:), chunked(by:) with a signal", .timeLimit(.minutes(1)))
struct ChunksOfCountOrSignalTests: FailureTypeFixtures {
  @Test(
    "a chunk ends at the count or at the signal; a signal after an empty chunk makes none",
    arguments: [
      // The count cuts `ab`; the signal cuts `c`; the signals at 5 and 7 find nothing.
      ("abc------|", "---s-s-s--", 2, "-'ab'-c-----|"),
      // The base's end: the partial chunk, then the finish in the same tick.
      ("ab|", "-------", 5, "--['ab'|]"),
      // The signal's end: the count alone cuts the rest.
      ("a-b-c-d|", "-s|", 2, "-a--'bc'--[d|]"),
    ])
  func countOrSignal(base: String, signal: String, count: Int, expected: String) async {
    let output = await marbles(base, signal) { inputs, _ in joined(inputs[0].chunks(ofCount: count, or: inputs[1])) }
    #expect(output == expected)
  }

  @Test("signal only: when the signal ends first, the rest is one chunk (Chunked.md has the usual case)")
  func signalOnlyEndsFirst() async {
    let output = await marbles("a-b-c|", "-|") { inputs, _ in joined(inputs[0].chunked(by: inputs[1])) }
    #expect(output == "-----['abc'|]")
  }

  @Test("the base's error is thrown at once, the chunk dropped (Chunked.md has the signal's)")
  func baseError() async {
    let output = await marbles("ab-^", "------") { inputs, _ in joined(inputs[0].chunked(by: inputs[1])) }
    #expect(output == "---^")
  }

  @Test("chunked(by: .repeating(every:clock:)): the timer keeps its cadence, an empty window gives nothing")
  func timerOnly() async {
    let output = await marbles("a-b-----c--|") { inputs, clock in
      joined(inputs[0].chunked(by: .repeating(every: .seconds(3), clock: clock), into: [String].self))
    }
    #expect(output == "---'ab'-----c-|")
  }

  @Test("the timer forms keep the base's typed error; signal forms compile without try over non-throwing inputs")
  func timerFormsTyped() async {
    let clock = TestClock()
    let chunks = finiteStream([1, 2, 3]).chunks(ofCount: 2, or: .repeating(every: .seconds(1), clock: clock))
    #expect(await collect(chunks) == [[1, 2], [3]])
    let throwing = ControlledSequence<Int>().chunked(by: .repeating(every: .seconds(1), clock: clock))
    #expect(failure(of: throwing) == ObjectIdentifier(Boom.self))
    #expect(failure(of: chunks) == ObjectIdentifier(Never.self))
    // The suspending clock's shorthand, as in swift-async-algorithms' guide.
    let everySecond = finiteStream([1]).chunks(ofCount: 10, or: .repeating(every: .seconds(1)))
    #expect(failure(of: everySecond.chunked(by: .repeating(every: .seconds(4)))) == ObjectIdentifier(Never.self))
  }

  @Test("cancelling the consuming task cancels base and signal; the gathered elements make a last chunk")
  func cancellation() async {
    let base = CancellationProbe(yielding: ["a"])
    let signal = CancellationProbe()
    let consumer = Task {
      var iterator = base.chunked(by: signal).makeAsyncIterator()
      return [await iterator.next(), await iterator.next()]
    }
    await base.waitUntilWaiting()
    await signal.waitUntilWaiting()
    consumer.cancel()
    await base.waitForCancellation()
    await signal.waitForCancellation()
    #expect(await consumer.value == [["a"], nil])
  }

  @Test("dropping the iterator cancels base and signal")
  func droppingTheIterator() async {
    let base = CancellationProbe(yielding: ["a", "b"])
    let signal = CancellationProbe()
    for await chunk in base.chunks(ofCount: 2, or: signal) {
      #expect(chunk == ["a", "b"])
      break
    }
    await base.waitForCancellation()
    await signal.waitForCancellation()
    #expect(base.wasCancelled && signal.wasCancelled)
  }

  @Test("the base's end cancels the signal")
  func baseEndCancelsSignal() async {
    let signal = CancellationProbe()
    #expect(await collect(finiteStream([1, 2, 3]).chunked(by: signal)) == [[1, 2, 3]])
    await signal.waitForCancellation()
  }

  @Test("each iterator iterates base and signal anew")
  func iteratorsAreIndependent() async {
    let chunks = [1, 2, 3].async.chunks(ofCount: 2, or: CancellationProbe())
    #expect(await collect(chunks) == [[1, 2], [3]])
    #expect(await collect(chunks) == [[1, 2], [3]])
  }

  @Test("a count of zero or less stops the program")
  func countMustBePositive() async {
    await #expect(processExitsWith: .failure) { _ = [1].async.chunks(ofCount: 0, or: CancellationProbe()) }
    await #expect(processExitsWith: .failure) {
      _ = [1].async.chunks(ofCount: -3, or: .repeating(every: .seconds(1), clock: TestClock()))
    }
  }
}

/// The diagrams of `Sources/Ripple/Ripple.docc/Chunked.md`, run: change both together.
@Suite("Chunked.md diagrams", .timeLimit(.minutes(1)))
struct ChunkedGuideDiagramTests {
  @Test("Chunked.md: a group ends where the next one's first element arrives")
  func group() async {
    #expect(await marbles("ab-a|") { inputs, _ in joined(inputs[0].chunked(by: <)) } == "---'ab'[a|]")
  }

  @Test("Chunked.md: count or signal, whichever first")
  func countOrSignal() async {
    let output = await marbles("abcd-e--f|", "----s-----") { inputs, _ in
      joined(inputs[0].chunks(ofCount: 3, or: inputs[1]))
    }
    #expect(output == "--'abc'-d----['ef'|]")
  }

  @Test("Chunked.md and AsyncChunksOfCountOrSignalSequence's doc comment: count or timer, ticking at 4 and 8")
  func countOrTimer() async {
    let output = await marbles("abc--d-e-|") { inputs, clock in
      joined(inputs[0].chunks(ofCount: 3, or: .repeating(every: .seconds(4), clock: clock)))
    }
    #expect(output == "--'abc'-----'de'|")
  }

  @Test("Chunked.md: signal only")
  func signalOnly() async {
    let output = await marbles("ab-c-de|", "--s-s--") { inputs, _ in joined(inputs[0].chunked(by: inputs[1])) }
    #expect(output == "--'ab'-c--['de'|]")
  }

  @Test("Chunked.md: the signal's error")
  func signalError() async {
    let output = await marbles("ab----|", "---^") { inputs, _ in joined(inputs[0].chunked(by: inputs[1])) }
    #expect(output == "---^")
  }
}

@Suite("chunks with a signal: mixed failure types", .timeLimit(.minutes(1)))
struct ChunksMixedFailureTests: FailureTypeFixtures {
  @Test("one type stays typed, and so does either with a signal or base that never fails; else any Error")
  func failureTypes() {
    #expect(failure(of: never.chunks(ofCount: 2, or: never)) == ObjectIdentifier(Never.self))
    #expect(failure(of: boom.chunks(ofCount: 2, or: boom)) == ObjectIdentifier(Boom.self))
    #expect(failure(of: boom.chunks(ofCount: 2, or: never, into: [Int].self)) == ObjectIdentifier(Boom.self))
    #expect(failure(of: never.chunked(by: boom)) == ObjectIdentifier(Boom.self))
    #expect(failure(of: never.chunked(by: boom, into: [Int].self)) == ObjectIdentifier(Boom.self))
    #expect(failure(of: boom.chunked(by: never)) == ObjectIdentifier(Boom.self))
    #expect(failure(of: never.chunks(ofCount: 2, or: other)) == ObjectIdentifier(Other.self))
    #expect(failure(of: boom.chunks(ofCount: 2, or: other)) == ObjectIdentifier((any Error).self))
    #expect(failure(of: boom.chunks(ofCount: 2, or: other, into: [Int].self)) == ObjectIdentifier((any Error).self))
    #expect(failure(of: other.chunked(by: boom)) == ObjectIdentifier((any Error).self))
    #expect(failure(of: other.chunked(by: boom, into: [Int].self)) == ObjectIdentifier((any Error).self))
  }

  @Test("a signal's error is thrown as it was thrown, whatever the sequence's type")
  func signalErrors() async {
    let (stream, input) = AsyncStream.makeStream(of: Int.self)
    input.yield(1)
    await #expect(throws: Boom.boom) {
      for try await _ in stream.chunked(by: boom) {}
    }
    do {
      for try await _ in other.chunked(by: boom) {}
      Issue.record("no error")
    } catch {
      #expect(error is Boom || error is Other)
    }
    input.finish()
  }
}

private func requireSendable<T: Sendable>(_: T) {}

@MainActor private final class Threshold {
  var value = 6
}

/// Records the projection's calls.
private final class Calls: @unchecked Sendable {
  // Only the one consuming task calls it.
  var count = 0

  func record(_ element: Int) -> Int {
    count += 1
    return element
  }
}
