import InternalRippleUtilities
import Testing

@testable import Ripple

/// Counts the live `SubjectPayload` elements of one test.
final class SubjectPayloadCount: Sendable {
  let count = _Mutex(0)
  var value: Int { count.withLock { $0 } }
}

/// An element that counts its live instances, to see buffers freed.
final class SubjectPayload: Sendable {
  let value: Int
  let live: SubjectPayloadCount

  init(_ value: Int, in live: SubjectPayloadCount) {
    self.value = value
    self.live = live
    live.count.withLock { $0 += 1 }
  }

  deinit { live.count.withLock { $0 -= 1 } }
}

/// Takes everything up to the end from an iterator.
func drainAll<I: AsyncIteratorProtocol>(_ iterator: inout I) async throws(I.Failure) -> [I.Element] {
  var elements: [I.Element] = []
  while let element = try await iterator.next(isolation: #isolation) { elements.append(element) }
  return elements
}

/// An actor that sets a current-value subject's value from its own isolation.
actor Setter {
  func set(_ subject: AsyncCurrentValueSubject<Int>, to value: Int) { subject.value = value }
}

// Timelines of the subjects' edges, by plain ordering: `send` is synchronous and an iterator joins when it is made,
// so what an iterator gets does not depend on when its task runs.
@Suite("subjects", .timeLimit(.minutes(1)))
struct SubjectTests {
  @Test("a late iterator of a passthrough subject gets only what is sent after it was made")
  func lateIterator() async {
    let subject = AsyncPassthroughSubject<Int>()
    var early = subject.makeAsyncIterator()
    subject.send(1)
    var late = subject.makeAsyncIterator()
    subject.send(2)
    subject.send(.finished)
    #expect(await drainAll(&early) == [1, 2])
    #expect(await drainAll(&late) == [2])
  }

  @Test("an iterator waiting in next() in another task gets every element, then the end")
  func waitingIterator() async {
    let subject = AsyncPassthroughSubject<Int>()
    let iterator = subject.makeAsyncIterator()
    let consumer = Task {
      var iterator = iterator
      return await drainAll(&iterator)
    }
    for value in 0..<100 { subject.send(value) }
    subject.send(.finished)
    #expect(await consumer.value == Array(0..<100))
  }

  @Test("after finish, send does nothing and a new iterator ends at once")
  func sendAfterFinish() async {
    let subject = AsyncPassthroughSubject<Int>()
    var iterator = subject.makeAsyncIterator()
    subject.send(1)
    subject.send(.finished)
    subject.send(2)
    #expect(await drainAll(&iterator) == [1])
    #expect(await iterator.next() == nil)
    var late = subject.makeAsyncIterator()
    #expect(await late.next() == nil)
  }

  @Test("a failure is thrown once, after the buffer, then nil; the first termination counts")
  func failure() async throws {
    let subject = AsyncThrowingPassthroughSubject<Int, Boom>()
    var iterator = subject.makeAsyncIterator()
    subject.send(1)
    subject.send(.failure(.boom))
    subject.send(.finished)
    #expect(try await iterator.next() == 1)
    await #expect(throws: Boom.boom) { try await iterator.next() }
    #expect(try await iterator.next() == nil)
    var late = subject.makeAsyncIterator()
    await #expect(throws: Boom.boom) { try await late.next() }
  }

  @Test("a current-value iterator gets the value first, then each value set or sent")
  func currentValue() async {
    let subject = AsyncCurrentValueSubject(0)
    var iterator = subject.makeAsyncIterator()
    subject.value = 1
    subject.send(2)
    #expect(subject.value == 2)
    var late = subject.makeAsyncIterator()
    subject.send(.finished)
    subject.value = 3
    #expect(subject.value == 2)
    #expect(await drainAll(&iterator) == [0, 1, 2])
    #expect(await drainAll(&late) == [2])
    var afterEnd = subject.makeAsyncIterator()
    #expect(await afterEnd.next() == nil)
  }

  @Test("a value set from two actors reaches the iterator in the order it was set")
  func valueFromTwoActors() async {
    let subject = AsyncCurrentValueSubject(0)
    var iterator = subject.makeAsyncIterator()
    let first = Setter()
    let second = Setter()
    await first.set(subject, to: 1)
    await second.set(subject, to: 2)
    await first.set(subject, to: 3)
    #expect(subject.value == 3)
    subject.send(.finished)
    #expect(await drainAll(&iterator) == [0, 1, 2, 3])
  }

  @Test("a throwing current-value subject fails its iterators; one made after gets no value")
  func throwingCurrentValue() async throws {
    let subject = AsyncThrowingCurrentValueSubject<Int, Boom>(5)
    var iterator = subject.makeAsyncIterator()
    subject.send(.failure(.boom))
    #expect(try await iterator.next() == 5)
    await #expect(throws: Boom.boom) { try await iterator.next() }
    var late = subject.makeAsyncIterator()
    await #expect(throws: Boom.boom) { try await late.next() }
    #expect(subject.value == 5)
  }

  @Test(
    "a replay iterator gets the last bufferSize elements, all when fewer were sent",
    arguments: [(0, [Int]()), (2, [3, 4]), (5, [0, 1, 2, 3, 4]), (9, [0, 1, 2, 3, 4])])
  func replay(size: Int, expected: [Int]) async {
    let subject = AsyncReplaySubject<Int>(bufferSize: size)
    for value in 0..<5 { subject.send(value) }
    var iterator = subject.makeAsyncIterator()
    subject.send(5)
    subject.send(.finished)
    #expect(await drainAll(&iterator) == expected + [5])
    // After the end: the replay, then the end.
    var late = subject.makeAsyncIterator()
    #expect(await drainAll(&late) == Array((expected + [5]).suffix(size)))
  }

  @Test("a throwing replay subject replays, then throws, to an iterator made after the failure")
  func throwingReplay() async throws {
    let subject = AsyncThrowingReplaySubject<Int, Boom>(bufferSize: 2)
    for value in 0..<3 { subject.send(value) }
    subject.send(.failure(.boom))
    var iterator = subject.makeAsyncIterator()
    #expect(try await iterator.next() == 1)
    #expect(try await iterator.next() == 2)
    await #expect(throws: Boom.boom) { try await iterator.next() }
    #expect(try await iterator.next() == nil)
  }

  @Test("bufferingNewest(1) gives a slow consumer only the newest value")
  func coalescing() async {
    let subject = AsyncCurrentValueSubject(0, bufferingPolicy: .bufferingNewest(1))
    var iterator = subject.makeAsyncIterator()
    #expect(await iterator.next() == 0)
    for value in 1...10 { subject.value = value }
    #expect(await iterator.next() == 10)
    subject.send(.finished)
    #expect(await iterator.next() == nil)
  }

  @Test("cancelling an iterator mid-buffer ends it only, and frees its buffer at once")
  func cancellationMidBuffer() async {
    let subject = AsyncPassthroughSubject<SubjectPayload>()
    let live = SubjectPayloadCount()
    let cancelled = subject.makeAsyncIterator()
    var other = subject.makeAsyncIterator()
    let started = Latch()
    let stop = Latch()
    let consumer = Task {
      var iterator = cancelled
      let first = await iterator.next()?.value
      started.open()
      await stop.wait()
      // Cancelled while busy outside next(): it leaves at its next call.
      let afterCancel = await iterator.next()?.value
      return (first, afterCancel)
    }
    for value in 0..<5 { subject.send(SubjectPayload(value, in: live)) }
    await started.wait()
    consumer.cancel()
    stop.open()
    let (first, afterCancel) = await consumer.value
    #expect(first == 0)
    #expect(afterCancel == nil)
    // Its buffer went with it: only the other iterator's five remain.
    #expect(live.value == 5)
    #expect(await other.next()?.value == 0)
    subject.send(.finished)
    #expect(await drainAll(&other).map(\.value) == [1, 2, 3, 4])
  }

  @Test("cancelling a task waiting in next() ends its iterator with nil; the others go on")
  func cancellationWhileWaiting() async {
    let subject = AsyncPassthroughSubject<Int>()
    let iterator = subject.makeAsyncIterator()
    var other = subject.makeAsyncIterator()
    let consumer = Task {
      var iterator = iterator
      return await iterator.next()
    }
    consumer.cancel()
    #expect(await consumer.value == nil)
    subject.send(1)
    #expect(await other.next() == 1)
  }

  @Test("dropping the last reference to a subject finishes its iterators after their buffers")
  func droppedSubject() async {
    let live = SubjectPayloadCount()
    var subject: AsyncPassthroughSubject<SubjectPayload>? = AsyncPassthroughSubject()
    var iterator = subject!.makeAsyncIterator()
    weak let weakSubject = subject
    subject!.send(SubjectPayload(1, in: live))
    subject = nil
    #expect(weakSubject == nil)
    #expect(await iterator.next()?.value == 1)
    #expect(await iterator.next() == nil)
  }

  @Test("a subject's dropped iterators and elements are all freed")
  func noLeaks() async {
    let live = SubjectPayloadCount()
    do {
      let subject = AsyncReplaySubject<SubjectPayload>(bufferSize: 2)
      var iterators = (0..<3).map { _ in subject.makeAsyncIterator() }
      for value in 0..<10 { subject.send(SubjectPayload(value, in: live)) }
      _ = await iterators[0].next()
      iterators.removeAll()
      // Only the replay remains.
      #expect(live.value == 2)
      #expect(subject.storage.machine.withLock { $0.sides.liveCount == 0 })
    }
    #expect(live.value == 0)
  }

  @Test("a subject is usable through AsyncSubject")
  func protocolUse() async {
    func forward(_ values: [Int], to subject: some AsyncSubject<Int, Never>) {
      for value in values { subject.send(value) }
      subject.send(.finished)
    }
    let subject = AsyncReplaySubject<Int>(bufferSize: 10)
    forward([1, 2, 3], to: subject)
    var collected: [Int] = []
    for await value in subject { collected.append(value) }
    #expect(collected == [1, 2, 3])
  }
}
