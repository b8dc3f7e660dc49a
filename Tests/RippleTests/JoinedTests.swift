import Synchronization
import Testing

@testable import Ripple

@Suite("joined", .timeLimit(.minutes(1)))
struct JoinedTests: FailureTypeFixtures {
  static let shapes: [[[Int]]] = [[], [[]], [[], []], [[1, 2], [3]], [[1], [], [2]], [[], [1], []], [[1, 2, 3]]]

  @Test("the elements of every inner sequence, in order, as the standard library's joined()", arguments: shapes)
  func joinsInOrder(inners: [[Int]]) async {
    var output: [Int] = []
    for await element in inners.map(finiteStream).async.joined() {
      output.append(element)
    }
    #expect(output == Array(inners.joined()))
  }

  @Test(
    "the separator between every two inner sequences, empty ones included, as the standard library's",
    arguments: shapes, [[], [0], [0, -1]])
  func separatesAsTheStandardLibrary(inners: [[Int]], separator: [Int]) async {
    var output: [Int] = []
    for await element in inners.map(finiteStream).async.joined(separator: separator.async) {
      output.append(element)
    }
    #expect(output == Array(inners.joined(separator: separator)))
  }

  @Test("the separator is iterated once, at the first gap, and replayed at the others", arguments: [1, 2, 4])
  func separatorIteratedOnce(count: Int) async {
    let separator = CountedSequence(finiteStream([0, -1]))
    var output: [Int] = []
    for await element in Array(repeating: [7], count: count).async.map(\.async).joined(separator: separator) {
      output.append(element)
    }
    #expect(output == Array(Array(repeating: [7], count: count).joined(separator: [0, -1])))
    #expect(separator.iterations == (count > 1 ? 1 : 0))
  }

  @Test("the base is asked for its next inner sequence only once the current one has finished")
  func lazy() async {
    let outer = CountedSequence(finiteStream([[1, 2].async, [3].async]))
    let separator = CountedSequence([0].async)
    var iterator = outer.joined(separator: separator).makeAsyncIterator()
    #expect(await iterator.next() == 1)
    #expect(await iterator.next() == 2)
    #expect(outer.elements == 1)
    #expect(separator.iterations == 0)
    // The separator comes once the base has produced the next inner sequence.
    #expect(await iterator.next() == 0)
    #expect(outer.elements == 2)
    #expect(await iterator.next() == 3)
    #expect(await iterator.next() == nil)
    #expect(await iterator.next() == nil)
  }

  @Test("an error of the base is thrown after the inner sequences before it, then nil")
  func errorOfBase() async throws {
    let inners = [finiteThrowing([1]), finiteThrowing([2])]
    var output: [Int] = []
    var iterator = failingStream(inners).joined().makeAsyncIterator()
    await #expect(throws: Boom.boom) {
      while let element = try await iterator.next() { output.append(element) }
    }
    #expect(output == [1, 2])
    #expect(try await iterator.next() == nil)
  }

  @Test("an error of an inner sequence is thrown, the base is not iterated again, then nil")
  func errorOfInner() async throws {
    let outer = CountedSequence(finiteStream([finiteThrowing([1]), failingStream([2]), finiteThrowing([3])]))
    var output: [Int] = []
    var iterator = outer.joined(separator: finiteThrowing([0])).makeAsyncIterator()
    await #expect(throws: Boom.boom) {
      while let element = try await iterator.next() { output.append(element) }
    }
    #expect(output == [1, 0, 2])
    #expect(outer.elements == 2)
    #expect(try await iterator.next() == nil)
  }

  @Test("an error of the separator is thrown after its elements before it, then nil")
  func errorOfSeparator() async throws {
    var output: [Int] = []
    var iterator = [finiteStream([1]), finiteStream([2])].async.joined(separator: failingStream([0]))
      .makeAsyncIterator()
    await #expect(throws: Boom.boom) {
      while let element = try await iterator.next() { output.append(element) }
    }
    #expect(output == [1, 0])
    #expect(try await iterator.next() == nil)
  }

  @Test("cancelling the consuming task reaches the inner sequence being iterated")
  func cancellationOfInner() async {
    let inner = CancellationProbe(yielding: ["a"])
    let consumer = Task {
      var output: [String] = []
      for await element in [inner].async.joined() { output.append(element) }
      return output
    }
    await inner.waitUntilWaiting()
    consumer.cancel()
    await inner.waitForCancellation()
    #expect(await consumer.value == ["a"])
    #expect(inner.wasCancelled)
  }

  @Test("cancelling the consuming task reaches the base being iterated, which ends the sequence")
  func cancellationOfBase() async {
    // The base holds nothing and never finishes: only cancellation ends the consumer's wait.
    let outer = ControlledSequence<AsyncStream<Int>>()
    let consumer = Task {
      var output: [Int] = []
      do {
        for try await element in outer.joined() { output.append(element) }
      } catch {
        Issue.record("unexpected \(error)")
      }
      return output
    }
    consumer.cancel()
    #expect(await consumer.value.isEmpty)
    #expect(await outer.ending())
  }

  @Test("cancelling the consuming task reaches the separator being iterated")
  func cancellationOfSeparator() async {
    let separator = CancellationProbe()
    let consumer = Task {
      var output: [String] = []
      for await element in [["a"].async, ["b"].async].async.joined(separator: separator) { output.append(element) }
      return output
    }
    await separator.waitUntilWaiting()
    consumer.cancel()
    await separator.waitForCancellation()
    // The separator ended the gap; the `.async` inner that follows ends at once in a cancelled task.
    #expect(await consumer.value == ["a"])
  }

  @Test("each iterator iterates the base anew")
  func iteratesAnew() async {
    let joined = [[1], [2]].async.map(\.async).joined(separator: [0].async)
    var first: [Int] = []
    for await element in joined { first.append(element) }
    var second: [Int] = []
    for await element in joined { second.append(element) }
    #expect(first == [1, 0, 2])
    #expect(second == first)
  }

  @Test("joined(): one error type stays typed, one that cannot fail does not count, two others give any Error")
  func joinedFailureTypes() {
    #expect(failure(of: [never].async.joined()) == ObjectIdentifier(Never.self))
    #expect(failure(of: [boom].async.joined()) == ObjectIdentifier(Boom.self))
    #expect(failure(of: boomOuter(of: boom).joined()) == id(Boom.self))
    #expect(failure(of: boomOuter(of: never).joined()) == id(Boom.self))
    #expect(failure(of: boomOuter(of: other).joined()) == id((any Error).self))
  }

  @Test("joined(separator:): the same rule over the base, the inner sequences and the separator")
  func separatorFailureTypes() {
    #expect(failure(of: [never].async.joined(separator: never)) == id(Never.self))
    #expect(failure(of: boomOuter(of: boom).joined(separator: boom)) == id(Boom.self))
    #expect(failure(of: boomOuter(of: boom).joined(separator: never)) == id(Boom.self))
    #expect(failure(of: boomOuter(of: never).joined(separator: boom)) == id(Boom.self))
    #expect(failure(of: boomOuter(of: never).joined(separator: never)) == id(Boom.self))
    #expect(failure(of: [boom].async.joined(separator: boom)) == id(Boom.self))
    #expect(failure(of: [boom].async.joined(separator: never)) == id(Boom.self))
    #expect(failure(of: [never].async.joined(separator: boom)) == id(Boom.self))
    #expect(failure(of: [boom].async.joined(separator: other)) == id((any Error).self))
    #expect(failure(of: boomOuter(of: other).joined(separator: never)) == id((any Error).self))
    #expect(failure(of: boomOuter(of: never).joined(separator: other)) == id((any Error).self))
  }

  @Test("mixed error types: each error is thrown as it was")
  func mixedErrorsThrownAsTheyAre() async {
    await #expect(throws: Other.other) {
      for try await _ in boomOuter(of: other).joined() {}
    }
    await #expect(throws: Boom.boom) {
      for try await _ in [never, never].async.joined(separator: boom) {}
    }
  }

  @Test("non-throwing sequences join without try")
  func nonThrowing() async {
    var total = 0
    for await element in [finiteStream([1, 2]), finiteStream([3])].async.joined(separator: [10].async) {
      total += element
    }
    #expect(total == 16)
  }

  func id(_ type: any Any.Type) -> ObjectIdentifier { ObjectIdentifier(type) }

  /// A base that throws `Boom` and holds `inner`.
  func boomOuter<Inner: AsyncSequence & Sendable>(
    of inner: Inner
  ) -> AsyncMapErrorSequence<AsyncThrowingStream<Inner, any Error>, Boom> {
    failingStream([inner]).mapError { _ in .boom }
  }
}

/// A finished throwing stream of `elements`, for a sequence whose `Failure` is `any Error`.
private func finiteThrowing(_ elements: [Int]) -> AsyncThrowingStream<Int, any Error> {
  AsyncThrowingStream { continuation in
    for element in elements { continuation.yield(element) }
    continuation.finish()
  }
}

/// A sequence that counts how many iterators of it were made and, if asked, how many elements they returned.
private struct CountedSequence<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable {
  typealias Element = Base.Element
  typealias Failure = Base.Failure

  final class Counts: Sendable {
    let iterations = Atomic(0)
    let elements = Atomic(0)
  }

  let base: Base
  let counts = Counts()

  init(_ base: Base) {
    self.base = base
  }

  var iterations: Int { counts.iterations.load(ordering: .sequentiallyConsistent) }
  var elements: Int { counts.elements.load(ordering: .sequentiallyConsistent) }

  func makeAsyncIterator() -> Iterator {
    counts.iterations.add(1, ordering: .sequentiallyConsistent)
    return Iterator(base: base.makeAsyncIterator(), counts: counts)
  }

  struct Iterator: AsyncIteratorProtocol {
    var base: Base.AsyncIterator
    let counts: Counts

    mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws(Failure) -> Element? {
      let element = try await base.next(isolation: actor)
      if element != nil { counts.elements.add(1, ordering: .sequentiallyConsistent) }
      return element
    }
  }
}
