import Synchronization
import Testing

@testable import Ripple

@Suite("chain", .timeLimit(.minutes(1)))
struct ChainTests {
  @Test(
    "every element of the first base, then every element of the second",
    arguments: [[3, 2], [0, 2], [2, 0], [0, 0], [100, 100]])
  func firstThenSecond(counts: [Int]) async {
    let first = Array(0..<counts[0])
    let second = Array(1000..<(1000 + counts[1]))
    var output: [Int] = []
    for await element in chain(finiteStream(first), finiteStream(second)) {
      output.append(element)
    }
    #expect(output == first + second)
  }

  @Test("three bases, in order", arguments: [[1, 2, 3], [0, 0, 2], [2, 0, 0]])
  func threeBases(counts: [Int]) async {
    let inputs = counts.indices.map { base in (0..<counts[base]).map { 1000 * base + $0 } }
    var output: [Int] = []
    for await element in chain(finiteStream(inputs[0]), finiteStream(inputs[1]), finiteStream(inputs[2])) {
      output.append(element)
    }
    #expect(output == inputs.flatMap { $0 })
  }

  @Test("the second base is not iterated before the first finishes")
  func secondWaitsForFirst() async throws {
    let first = ControlledSequence<Int>()
    let secondBase = ControlledSequence<Int>()
    secondBase.send(2)
    let second = Recorded(secondBase)
    var iterator = chain(first, second).makeAsyncIterator()
    first.send(1)
    #expect(try await iterator.next() == 1)
    #expect(!second.wasIterated)
    first.finish()
    #expect(try await iterator.next() == 2)
    #expect(second.wasIterated)
  }

  @Test("an error of the first base is thrown, and the second base is never iterated")
  func errorOfFirst() async throws {
    let second = Recorded(finiteThrowing([9]))
    var iterator = chain(failingStream([1, 2]), second).makeAsyncIterator()
    #expect(try await iterator.next() == 1)
    #expect(try await iterator.next() == 2)
    await #expect(throws: Boom.boom) { _ = try await iterator.next() }
    #expect(try await iterator.next() == nil)
    #expect(!second.wasIterated)
  }

  @Test("an error of the second base is thrown after the elements before it, then nil")
  func errorOfSecond() async throws {
    var output: [Int] = []
    var iterator = chain(finiteThrowing([1]), failingStream([2])).makeAsyncIterator()
    await #expect(throws: Boom.boom) {
      while let element = try await iterator.next() { output.append(element) }
    }
    #expect(output == [1, 2])
    #expect(try await iterator.next() == nil)
  }

  @Test("cancelling the consuming task reaches the base being iterated")
  func cancellation() async throws {
    let second = CancellationProbe()
    let consumer = Task {
      for await _ in chain(finiteStream(["a"]), second) {}
    }
    await second.waitUntilWaiting()
    consumer.cancel()
    await second.waitForCancellation()
    await consumer.value
    #expect(second.wasCancelled)
  }

  @Test("chain(a, b) over non-throwing bases needs no try")
  func nonThrowing() async {
    var total = 0
    for await element in chain(finiteStream([1, 2]), finiteStream([3])) {
      total += element
    }
    #expect(total == 6)
  }
}

/// A finished throwing stream of `elements`, for a base whose `Failure` is `any Error`.
private func finiteThrowing(_ elements: [Int]) -> AsyncThrowingStream<Int, any Error> {
  AsyncThrowingStream { continuation in
    for element in elements { continuation.yield(element) }
    continuation.finish()
  }
}

/// A base that records whether an iterator of it was made.
private struct Recorded<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable {
  final class Made: Sendable {
    let flag = Atomic(false)
  }

  let base: Base
  let made = Made()

  init(_ base: Base) {
    self.base = base
  }

  var wasIterated: Bool { made.flag.load(ordering: .sequentiallyConsistent) }

  func makeAsyncIterator() -> Base.AsyncIterator {
    made.flag.store(true, ordering: .sequentiallyConsistent)
    return base.makeAsyncIterator()
  }
}
