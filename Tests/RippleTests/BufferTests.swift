import RippleTesting
import Synchronization
import Testing

@testable import Ripple

/// The numbers `0..<count`, each produced at once, then the end or ``Boom/boom``; it counts how often it was
/// asked for an element, so a test sees how far ahead the buffer pulled.
private struct PulledNumbers: AsyncSequence, Sendable {
  typealias Failure = Boom

  final class Pulls: Sendable {
    let count = Atomic(0)
  }

  let count: Int
  var fails = false
  let pulls = Pulls()

  /// How many times `next()` was called so far, over all iterations.
  var pulled: Int { pulls.count.load(ordering: .sequentiallyConsistent) }

  func makeAsyncIterator() -> Iterator { Iterator(count: count, fails: fails, pulls: pulls) }

  struct Iterator: AsyncIteratorProtocol {
    let count: Int
    let fails: Bool
    let pulls: Pulls
    var index = 0

    mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws(Boom) -> Int? {
      pulls.count.add(1, ordering: .sequentiallyConsistent)
      guard index < count else {
        if fails { throw .boom }
        return nil
      }
      defer { index += 1 }
      return index
    }
  }
}

/// Drains `iterator` to its end, recording the elements and how it ended.
private func rest(of iterator: inout AsyncBufferSequence<PulledNumbers>.Iterator) async -> ([Int], Boom?) {
  var elements: [Int] = []
  do throws(Boom) {
    while let element = try await iterator.next(isolation: #isolation) { elements.append(element) }
    return (elements, nil)
  } catch {
    return (elements, error)
  }
}

/// The tests that count pulls run in a lockstep scope: after `advance(by: .zero)` the buffer's task has pulled all
/// it is going to.
@Suite("buffer", .timeLimit(.minutes(3)))
struct BufferTests {
  @Test("the base is not iterated before the first next()")
  func startsOnFirstNext() async throws {
    let clock = TestClock()
    try await clock.lockstep { () async throws in
      let base = PulledNumbers(count: 3)
      var iterator = base.buffer(policy: .unbounded).makeAsyncIterator()
      await clock.advance(by: .zero)
      #expect(base.pulled == 0)
      #expect(try await iterator.next() == 0)
    }
  }

  @Test("bounded(n) stops pulling while n elements wait, and pulls one more per element taken")
  func boundedStopsPulling() async throws {
    let clock = TestClock()
    try await clock.lockstep { () async throws in
      let base = PulledNumbers(count: 100)
      var iterator = base.buffer(policy: .bounded(3)).makeAsyncIterator()
      #expect(try await iterator.next() == 0)  // went straight to the waiting consumer
      await clock.advance(by: .zero)
      #expect(base.pulled == 4)  // 0, then 1, 2, 3 buffered
      #expect(try await iterator.next() == 1)
      await clock.advance(by: .zero)
      #expect(base.pulled == 5)
      var rest: [Int] = []
      while let element = try await iterator.next() { rest.append(element) }
      #expect(rest == Array(2..<100))
    }
  }

  @Test("unbounded pulls the whole base without waiting for the consumer, and drops nothing")
  func unboundedNeverStops() async throws {
    let clock = TestClock()
    try await clock.lockstep { () async throws in
      let base = PulledNumbers(count: 50)
      var iterator = base.buffer(policy: .unbounded).makeAsyncIterator()
      #expect(try await iterator.next() == 0)
      await clock.advance(by: .zero)
      #expect(base.pulled == 51)  // every element and the end
      let (elements, failure) = await rest(of: &iterator)
      #expect(elements == Array(1..<50))
      #expect(failure == nil)
    }
  }

  @Test(
    "bufferingLatest keeps the newest, bufferingOldest the oldest elements while the consumer is busy",
    arguments: [
      (AsyncBufferSequencePolicy.bufferingLatest(2), [4, 5]),
      (.bufferingOldest(2), [1, 2]),
      (.bufferingLatest(10), [1, 2, 3, 4, 5]),
      (.bufferingOldest(10), [1, 2, 3, 4, 5]),
    ])
  func droppingPolicies(policy: AsyncBufferSequencePolicy, kept: [Int]) async throws {
    let clock = TestClock()
    try await clock.lockstep { () async throws in
      let base = PulledNumbers(count: 6)
      var iterator = base.buffer(policy: policy).makeAsyncIterator()
      #expect(try await iterator.next() == 0)
      await clock.advance(by: .zero)  // the base runs to its end meanwhile
      #expect(base.pulled == 7)
      let (elements, failure) = await rest(of: &iterator)
      #expect(elements == kept)
      #expect(failure == nil)
    }
  }

  @Test(
    "a limit of 0 is no buffer: the base is asked only by the consumer's next(), and nothing is dropped",
    arguments: [AsyncBufferSequencePolicy.bounded(0), .bufferingLatest(0), .bufferingOldest(0)])
  func limitZeroPassesThrough(policy: AsyncBufferSequencePolicy) async throws {
    let clock = TestClock()
    try await clock.lockstep { () async throws in
      let base = PulledNumbers(count: 4)
      var iterator = base.buffer(policy: policy).makeAsyncIterator()
      #expect(try await iterator.next() == 0)
      await clock.advance(by: .zero)
      #expect(base.pulled == 1)
      let (elements, failure) = await rest(of: &iterator)
      #expect(elements == [1, 2, 3])
      #expect(failure == nil)
    }
  }

  @Test(
    "the base's error comes after the elements buffered before it, then nil",
    arguments: [
      AsyncBufferSequencePolicy.bounded(5), .unbounded, .bufferingLatest(5), .bufferingOldest(5), .bounded(0),
    ])
  func errorAfterBufferedElements(policy: AsyncBufferSequencePolicy) async throws {
    let clock = TestClock()
    try await clock.lockstep { () async throws in
      let base = PulledNumbers(count: 4, fails: true)
      var iterator = base.buffer(policy: policy).makeAsyncIterator()
      #expect(try await iterator.next() == 0)
      await clock.advance(by: .zero)  // the base threw meanwhile, unless there is no buffer
      let (elements, failure) = await rest(of: &iterator)
      #expect(elements == [1, 2, 3])
      #expect(failure == .boom)
      #expect(try await iterator.next() == nil)
    }
  }

  @Test("an error while the consumer waits is thrown at once")
  func errorWhileWaiting() async throws {
    let base = ControlledSequence<Int>()
    var iterator = base.buffer(policy: .bounded(2)).makeAsyncIterator()
    base.send(1)
    #expect(try await iterator.next() == 1)
    base.fail()
    await #expect(throws: Boom.boom) { try await iterator.next() }
    #expect(try await iterator.next() == nil)
  }

  @Test("an empty base finishes the sequence", arguments: [AsyncBufferSequencePolicy.bounded(1), .unbounded])
  func emptyBase(policy: AsyncBufferSequencePolicy) async throws {
    var iterator = PulledNumbers(count: 0).buffer(policy: policy).makeAsyncIterator()
    #expect(try await iterator.next() == nil)
    #expect(try await iterator.next() == nil)
  }

  @Test("cancelling the consumer cancels the base's task and next() returns nil")
  func consumerCancellation() async throws {
    let base = ControlledSequence<Int>()
    let started = Signal()
    let consumer = Task { () async throws -> [Int?] in
      var iterator = base.buffer(policy: .unbounded).makeAsyncIterator()
      let first = try await iterator.next()
      started.ready()
      let second = try await iterator.next()
      return [first, second]
    }
    base.send(1)
    await started.wait()
    consumer.cancel()
    #expect(await base.ending() == true)
    #expect(try await consumer.value == [1, nil])
  }

  @Test("cancelling the consumer stops a base task that waits for room in a full bounded buffer")
  func cancellationStopsWaitingProducer() async throws {
    let clock = TestClock()
    try await clock.lockstep { () async throws in
      let base = ControlledSequence<Int>()
      for value in 1...5 { base.send(value) }
      let consumer = Task { () async throws -> [Int?] in
        var iterator = base.buffer(policy: .bounded(1)).makeAsyncIterator()
        let first = try await iterator.next()
        await waitForCancellation()
        return [first, try await iterator.next()]
      }
      await clock.advance(by: .zero)  // 1 taken, 2 buffered, the base task waits for room
      consumer.cancel()
      #expect(await base.ending() == true)
      #expect(try await consumer.value == [1, nil])
    }
  }

  @Test("dropping the iterator cancels the base's task")
  func droppingIterator() async throws {
    let base = ControlledSequence<Int>()
    base.send(1)
    base.send(2)
    for try await value in base.buffer(policy: .bounded(4)) {
      #expect(value == 1)
      break
    }
    #expect(await base.ending() == true)
  }

  @Test("a main-actor consumer is resumed on the main actor")
  @MainActor func mainActorConsumer() async throws {
    var total = 0
    for try await value in PulledNumbers(count: 10).buffer(policy: .bounded(2)) {
      MainActor.assertIsolated()
      total += value
    }
    #expect(total == 45)
  }
  @Test(
    "under real concurrency every element arrives once, in order",
    arguments: [AsyncBufferSequencePolicy.bounded(1), .bounded(16), .unbounded])
  func inOrderUnderConcurrency(policy: AsyncBufferSequencePolicy) async throws {
    var received: [Int] = []
    received.reserveCapacity(20_000)
    for try await value in PulledNumbers(count: 20_000).buffer(policy: policy) { received.append(value) }
    #expect(received == Array(0..<20_000))
  }

  /// The diagrams of Buffer.md: a consumer that takes 2.5 ticks per element, behind each policy.
  @Test(
    "Buffer.md: a consumer slower than the base",
    arguments: [
      (AsyncBufferSequencePolicy.bounded(1), "--a--b-c--[d|]"),
      (.unbounded, "--a--b-c--[d|]"),
      (.bufferingLatest(1), "--a--c-d|"),
      (.bufferingOldest(1), "--a--b-d|"),
    ])
  func guideDiagrams(policy: AsyncBufferSequencePolicy, expected: String) async {
    let output = await marbles("abcd----|") { inputs, clock in
      inputs[0].buffer(policy: policy).map { value in
        try? await clock.sleep(for: .milliseconds(2500))
        return value
      }
    }
    #expect(output == expected)
  }
}
