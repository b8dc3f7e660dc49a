import Dispatch
import InternalRippleUtilities
import Ripple
import Testing

// Parity checks: the scenarios that sideeffect-io/AsyncExtensions' own test suite plays against its subjects, its
// buffered channels and `multicast`, and the Combine semantics of the same types, replayed against Ripple's public
// API in our own words. Each test names the behaviour it pins. At the end: the mismatches an outside review found and
// Ripple fixed (multicast's reconnection, the buffered channel's second consumer), and the differences Ripple keeps,
// pinned as its guides state them.

/// The error the parity scenarios fail with.
struct ParityError: Error, Equatable {
  let code: Int
}

/// An element that reports its own deallocation, to check what a subject keeps.
private final class Tracked: Sendable {
  let onDeinit: @Sendable () -> Void

  init(onDeinit: @escaping @Sendable () -> Void) {
    self.onDeinit = onDeinit
  }

  deinit { onDeinit() }
}

/// A flag set from a deinitialiser.
private final class Released: Sendable {
  private let state = _Mutex(false)

  var value: Bool { state.withLock { $0 } }

  func set() { state.withLock { $0 = true } }
}

/// What an iterator gives until its end, without a consumer task: its elements and the error it threw, if any.
private func parityDrain<Iterator: AsyncIteratorProtocol>(
  _ iterator: Iterator
) async -> (values: [Iterator.Element], error: ParityError?) {
  var iterator = iterator
  var values: [Iterator.Element] = []
  do {
    while let value = try await iterator.next() { values.append(value) }
    return (values, nil)
  } catch {
    return (values, error as? ParityError)
  }
}

/// Ends the current task's iteration from inside the loop, as a `task.cancel()` issued while the body runs does.
private func cancelCurrentTask() {
  withUnsafeCurrentTask { $0?.cancel() }
}

/// Sends `element`, then checks that nothing keeps it: the subject has no iterator, or is terminated.
private func isReleasedAfterSend<Subject: AsyncSubject>(_ subject: Subject) -> Bool where Subject.Element == Tracked {
  let released = Released()
  subject.send(Tracked { released.set() })
  return withExtendedLifetime(subject) { released.value }
}

@Suite("AsyncExtensions parity: subjects, buffered channels, multicast", .timeLimit(.minutes(1)))
struct AsyncExtensionsParitySubjectsTests {
  // MARK: - Passthrough

  @Test("passthrough: every iterator made before the sends gets each element, in order")
  func passthroughSendReachesEveryIterator() async {
    let subject = AsyncPassthroughSubject<Int>()
    let first = subject.makeAsyncIterator()
    let second = subject.makeAsyncIterator()
    let firstConsumer = Task { await parityDrain(first).values }
    let secondConsumer = Task { await parityDrain(second).values }
    subject.send(1)
    subject.send(2)
    subject.send(3)
    subject.send(.finished)
    #expect(await firstConsumer.value == [1, 2, 3])
    #expect(await secondConsumer.value == [1, 2, 3])
  }

  @Test("passthrough: .finished ends every iterator, and an iterator made after it ends at once")
  func passthroughFinishEndsIteratorsAndLateOnes() async {
    let subject = AsyncPassthroughSubject<Int>()
    let first = subject.makeAsyncIterator()
    let second = subject.makeAsyncIterator()
    let firstConsumer = Task { await parityDrain(first).values }
    let secondConsumer = Task { await parityDrain(second).values }
    subject.send(1)
    subject.send(.finished)
    #expect(await firstConsumer.value == [1])
    #expect(await secondConsumer.value == [1])
    var late = subject.makeAsyncIterator()
    #expect(await late.next() == nil)
  }

  @Test("passthrough (Combine): an element sent while no iterator exists is dropped")
  func passthroughDropsWithoutIterator() async {
    let subject = AsyncPassthroughSubject<Int>()
    subject.send(1)
    let iterator = subject.makeAsyncIterator()
    subject.send(2)
    subject.send(.finished)
    #expect(await parityDrain(iterator).values == [2])
  }

  @Test("passthrough: cancelling the consuming task ends its iteration even with elements buffered")
  func passthroughCancelledTaskEndsIteration() async {
    let subject = AsyncPassthroughSubject<Int>()
    var iterator = subject.makeAsyncIterator()
    subject.send(1)
    subject.send(2)
    let consumer = Task {
      var received: [Int] = []
      while let element = await iterator.next() {
        received.append(element)
        cancelCurrentTask()
      }
      return received
    }
    #expect(await consumer.value == [1])
  }

  @Test("passthrough: cancelling a consumer that waits in next() resumes it with nil")
  func passthroughCancelledWaitingConsumer() async {
    let subject = AsyncPassthroughSubject<Int>()
    var iterator = subject.makeAsyncIterator()
    let consumer = Task { await iterator.next() }
    consumer.cancel()
    #expect(await consumer.value == nil)
    // The subject itself goes on: a new iterator still gets what is sent.
    let other = subject.makeAsyncIterator()
    subject.send(7)
    subject.send(.finished)
    #expect(await parityDrain(other).values == [7])
  }

  @Test("passthrough: two tasks sending at once reach both iterators, nothing lost or duplicated")
  func passthroughConcurrentSenders() async {
    let subject = AsyncPassthroughSubject<Int>()
    let first = subject.makeAsyncIterator()
    let second = subject.makeAsyncIterator()
    let firstConsumer = Task { await parityDrain(first).values }
    let secondConsumer = Task { await parityDrain(second).values }
    let low = Task { for index in 0...1000 { subject.send(index) } }
    let high = Task { for index in 1001...2000 { subject.send(index) } }
    await low.value
    await high.value
    subject.send(.finished)
    #expect(await firstConsumer.value.sorted() == Array(0...2000))
    #expect(await secondConsumer.value.sorted() == Array(0...2000))
  }

  // MARK: - Current value

  @Test("current value: init stores the value")
  func currentValueInitStoresValue() {
    let subject = AsyncCurrentValueSubject<Int>(42)
    #expect(subject.value == 42)
  }

  @Test("current value (Combine too): every new iterator gets the current value first")
  func currentValueNewIteratorsGetCurrent() async {
    let subject = AsyncCurrentValueSubject<Int>(1)
    var first = subject.makeAsyncIterator()
    var second = subject.makeAsyncIterator()
    #expect(await first.next() == 1)
    #expect(await second.next() == 1)
    subject.send(2)
    var late = subject.makeAsyncIterator()
    #expect(await late.next() == 2)
  }

  @Test("current value: send(_:) and the value setter both reach every iterator")
  func currentValueSendAndSetterReachIterators() async {
    let subject = AsyncCurrentValueSubject<Int>(1)
    let first = subject.makeAsyncIterator()
    let second = subject.makeAsyncIterator()
    let firstConsumer = Task { await parityDrain(first).values }
    let secondConsumer = Task { await parityDrain(second).values }
    subject.send(2)
    subject.value = 3
    #expect(subject.value == 3)
    subject.send(.finished)
    #expect(await firstConsumer.value == [1, 2, 3])
    #expect(await secondConsumer.value == [1, 2, 3])
  }

  @Test("current value (Combine too): after .finished a new iterator ends at once, without the value")
  func currentValueFinishEndsLateIterator() async {
    let subject = AsyncCurrentValueSubject<Int>(1)
    let first = subject.makeAsyncIterator()
    let consumer = Task { await parityDrain(first).values }
    subject.send(.finished)
    #expect(await consumer.value == [1])
    var late = subject.makeAsyncIterator()
    #expect(await late.next() == nil)
  }

  @Test("current value: cancelling the consuming task ends its iteration")
  func currentValueCancelledTaskEndsIteration() async {
    let subject = AsyncCurrentValueSubject<Int>(1)
    var iterator = subject.makeAsyncIterator()
    subject.send(2)
    let consumer = Task {
      var received: [Int] = []
      while let element = await iterator.next() {
        received.append(element)
        cancelCurrentTask()
      }
      return received
    }
    #expect(await consumer.value == [1])
  }

  @Test("current value: concurrent senders reach both iterators after the initial value")
  func currentValueConcurrentSenders() async {
    let subject = AsyncCurrentValueSubject<Int>(0)
    let first = subject.makeAsyncIterator()
    let second = subject.makeAsyncIterator()
    let firstConsumer = Task { await parityDrain(first).values }
    let secondConsumer = Task { await parityDrain(second).values }
    let low = Task { for index in 1...1000 { subject.send(index) } }
    let high = Task { for index in 1001...2000 { subject.send(index) } }
    await low.value
    await high.value
    subject.send(.finished)
    #expect(await firstConsumer.value.sorted() == Array(0...2000))
    #expect(await secondConsumer.value.sorted() == Array(0...2000))
  }

  @Test("current value (AsyncExtensions): send and assignment after .finished change nothing")
  func currentValueIgnoresSendsAfterFinish() {
    let subject = AsyncCurrentValueSubject<Int>(0)
    subject.send(1)
    subject.send(.finished)
    subject.send(2)
    subject.value = 3
    #expect(subject.value == 1)
  }

  @Test(
    "throwing current value (AsyncExtensions): send and assignment after a termination change nothing",
    arguments: [Termination<any Error>.finished, .failure(ParityError(code: 1))])
  func throwingCurrentValueIgnoresSendsAfterTermination(_ termination: Termination<any Error>) {
    let subject = AsyncThrowingCurrentValueSubject<Int, any Error>(0)
    subject.send(1)
    subject.send(termination)
    subject.send(2)
    subject.value = 3
    #expect(subject.value == 1)
  }

  // MARK: - Replay

  @Test("replay: a new iterator gets the last bufferSize elements, then what is sent")
  func replayReplaysLastElements() async {
    let subject = AsyncReplaySubject<Int>(bufferSize: 5)
    for element in 1...6 { subject.send(element) }
    let first = subject.makeAsyncIterator()
    let second = subject.makeAsyncIterator()
    subject.send(7)
    subject.send(.finished)
    #expect(await parityDrain(first).values == [2, 3, 4, 5, 6, 7])
    #expect(await parityDrain(second).values == [2, 3, 4, 5, 6, 7])
  }

  @Test("replay: an element sent before the iterators, then live ones, reach both")
  func replayThenLive() async {
    let subject = AsyncReplaySubject<Int>(bufferSize: 5)
    subject.send(1)
    let first = subject.makeAsyncIterator()
    let second = subject.makeAsyncIterator()
    let firstConsumer = Task { await parityDrain(first).values }
    let secondConsumer = Task { await parityDrain(second).values }
    subject.send(2)
    subject.send(3)
    subject.send(.finished)
    #expect(await firstConsumer.value == [1, 2, 3])
    #expect(await secondConsumer.value == [1, 2, 3])
  }

  @Test("replay: iterators alive at .finished take their buffer, then end")
  func replayFinishEndsExistingIterators() async {
    let subject = AsyncReplaySubject<Int>(bufferSize: 1)
    subject.send(1)
    let first = subject.makeAsyncIterator()
    let second = subject.makeAsyncIterator()
    subject.send(.finished)
    #expect(await parityDrain(first).values == [1])
    #expect(await parityDrain(second).values == [1])
  }

  @Test("replay: cancelling the consuming task ends its iteration")
  func replayCancelledTaskEndsIteration() async {
    let subject = AsyncReplaySubject<Int>(bufferSize: 1)
    subject.send(1)
    var iterator = subject.makeAsyncIterator()
    subject.send(2)
    let consumer = Task {
      var received: [Int] = []
      while let element = await iterator.next() {
        received.append(element)
        cancelCurrentTask()
      }
      return received
    }
    #expect(await consumer.value == [1])
  }

  @Test("replay of 0: concurrent senders reach both iterators")
  func replayZeroConcurrentSenders() async {
    let subject = AsyncReplaySubject<Int>(bufferSize: 0)
    let first = subject.makeAsyncIterator()
    let second = subject.makeAsyncIterator()
    let firstConsumer = Task { await parityDrain(first).values }
    let secondConsumer = Task { await parityDrain(second).values }
    let low = Task { for index in 0...1000 { subject.send(index) } }
    let high = Task { for index in 1001...2000 { subject.send(index) } }
    await low.value
    await high.value
    subject.send(.finished)
    #expect(await firstConsumer.value.sorted() == Array(0...2000))
    #expect(await secondConsumer.value.sorted() == Array(0...2000))
  }

  @Test("replay: an iterator made while another thread sends still ends with that element")
  func replayIteratorRacingSend() async {
    for _ in 0..<200 {
      let subject = AsyncReplaySubject<Int>(bufferSize: 2)
      subject.send(0)
      let made = RacedIterator<AsyncReplaySubject<Int>.Iterator>()
      DispatchQueue.concurrentPerform(iterations: 2) { index in
        if index == 0 {
          made.iterator = subject.makeAsyncIterator()
        } else {
          subject.send(1)
        }
      }
      subject.send(.finished)
      let iterator = made.iterator!
      let received = await parityDrain(iterator).values
      #expect(received.last == 1)
      if received.last != 1 { return }
    }
  }

  @Test("replay: an iterator made while another thread finishes the subject ends without waiting")
  func replayIteratorRacingFinish() async {
    for _ in 0..<200 {
      let subject = AsyncReplaySubject<Int>(bufferSize: 2)
      subject.send(0)
      let made = RacedIterator<AsyncReplaySubject<Int>.Iterator>()
      DispatchQueue.concurrentPerform(iterations: 2) { index in
        if index == 0 {
          made.iterator = subject.makeAsyncIterator()
        } else {
          subject.send(.finished)
        }
      }
      // No further send: the iteration must end by itself (the suite's time limit catches a hang).
      let iterator = made.iterator!
      let received = await parityDrain(iterator).values
      #expect(received.count <= 1)
    }
  }

  // MARK: - Termination

  @Test(
    "throwing passthrough and current value keep the first termination, for live and late iterators",
    arguments: [
      (Termination<any Error>.finished, Termination<any Error>.finished, ParityError?.none),
      (.finished, .failure(ParityError(code: 2)), nil),
      (.failure(ParityError(code: 1)), .finished, ParityError(code: 1)),
      (.failure(ParityError(code: 1)), .failure(ParityError(code: 2)), ParityError(code: 1)),
    ])
  func firstTerminationWins(
    _ first: Termination<any Error>, _ second: Termination<any Error>, _ expected: ParityError?
  ) async {
    func play<Subject: AsyncSubject>(_ subject: Subject, initial: [Int]) async
    where Subject.Element == Int, Subject.Failure == any Error {
      let existing = subject.makeAsyncIterator()
      subject.send(1)
      subject.send(first)
      subject.send(2)
      subject.send(second)
      let late = subject.makeAsyncIterator()
      let existingResult = await parityDrain(existing)
      let lateResult = await parityDrain(late)
      #expect(existingResult.values == initial + [1])
      #expect(existingResult.error == expected)
      #expect(lateResult.values == [])
      #expect(lateResult.error == expected)
    }
    await play(AsyncThrowingPassthroughSubject<Int, any Error>(), initial: [])
    await play(AsyncThrowingCurrentValueSubject<Int, any Error>(0), initial: [0])
  }

  @Test(
    "throwing passthrough and current value: racing terminations, live and late iterators agree",
    arguments: [Termination<any Error>.finished, .failure(ParityError(code: 2))])
  func concurrentTerminationsAgree(_ competing: Termination<any Error>) async {
    func play<Subject: AsyncSubject>(_ make: () -> Subject, initial: [Int]) async
    where Subject.Element == Int, Subject.Failure == any Error {
      for _ in 0..<100 {
        let subject = make()
        let existing = subject.makeAsyncIterator()
        subject.send(1)
        DispatchQueue.concurrentPerform(iterations: 2) { index in
          if index == 0 { subject.send(.failure(ParityError(code: 1))) } else { subject.send(competing) }
        }
        let late = subject.makeAsyncIterator()
        let existingResult = await parityDrain(existing)
        let lateResult = await parityDrain(late)
        #expect(existingResult.values == initial + [1])
        #expect(lateResult.values == [])
        #expect(existingResult.error == lateResult.error)
        if case .finished = competing {
          #expect(existingResult.error == nil || existingResult.error == ParityError(code: 1))
        } else {
          #expect(existingResult.error != nil)
        }
      }
    }
    await play({ AsyncThrowingPassthroughSubject<Int, any Error>() }, initial: [])
    await play({ AsyncThrowingCurrentValueSubject<Int, any Error>(0) }, initial: [0])
  }

  // MARK: - Lifetime

  @Test("a terminated subject keeps nothing sent after its termination")
  func terminatedSubjectsKeepNothing() {
    func terminated<Subject: AsyncSubject>(_ subject: Subject, _ termination: Termination<Subject.Failure>) -> Subject
    where Subject.Element == Tracked {
      subject.send(termination)
      return subject
    }
    #expect(isReleasedAfterSend(terminated(AsyncPassthroughSubject<Tracked>(), .finished)))
    #expect(isReleasedAfterSend(terminated(AsyncCurrentValueSubject(Tracked {}), .finished)))
    #expect(isReleasedAfterSend(terminated(AsyncReplaySubject<Tracked>(bufferSize: 2), .finished)))
    for termination in [Termination<any Error>.finished, .failure(ParityError(code: 1))] {
      #expect(isReleasedAfterSend(terminated(AsyncThrowingPassthroughSubject<Tracked, any Error>(), termination)))
      #expect(
        isReleasedAfterSend(terminated(AsyncThrowingCurrentValueSubject<Tracked, any Error>(Tracked {}), termination)))
      #expect(
        isReleasedAfterSend(terminated(AsyncThrowingReplaySubject<Tracked, any Error>(bufferSize: 2), termination)))
    }
  }

  @Test("a replay subject of 0 with no iterator keeps nothing it is sent")
  func zeroReplayKeepsNothing() {
    #expect(isReleasedAfterSend(AsyncReplaySubject<Tracked>(bufferSize: 0)))
    #expect(isReleasedAfterSend(AsyncThrowingReplaySubject<Tracked, any Error>(bufferSize: 0)))
    #expect(isReleasedAfterSend(AsyncPassthroughSubject<Tracked>()))
  }

  @Test("an abandoned passthrough iterator frees what it had buffered")
  func abandonedIteratorFreesBuffer() {
    func play<Subject: AsyncSubject>(_ subject: Subject) where Subject.Element == Tracked {
      let released = Released()
      var iterator: Subject.AsyncIterator? = subject.makeAsyncIterator()
      subject.send(Tracked { released.set() })
      withExtendedLifetime(iterator) { #expect(!released.value) }
      iterator = nil
      #expect(released.value)
    }
    play(AsyncPassthroughSubject<Tracked>())
    play(AsyncThrowingPassthroughSubject<Tracked, any Error>())
  }

  @Test("an iterator's buffer lives until its last copy goes away")
  func lastIteratorCopyFreesBuffer() {
    func play<Subject: AsyncSubject>(_ subject: Subject) where Subject.Element == Tracked {
      let released = Released()
      var iterator: Subject.AsyncIterator? = subject.makeAsyncIterator()
      var copy = iterator
      subject.send(Tracked { released.set() })
      iterator = nil
      withExtendedLifetime(copy) { #expect(!released.value) }
      copy = nil
      #expect(released.value)
    }
    play(AsyncPassthroughSubject<Tracked>())
    play(AsyncReplaySubject<Tracked>(bufferSize: 0))
    play(AsyncThrowingPassthroughSubject<Tracked, any Error>())
  }

  // MARK: - Delivery around a termination

  @Test(
    "passthrough and current value: an iterator made between the sends and the termination gets the replay, then the end",
    arguments: [Termination<any Error>.finished, .failure(ParityError(code: 61))])
  func iteratorsAroundTermination(_ termination: Termination<any Error>) async {
    func play<Subject: AsyncSubject>(_ subject: Subject, initial: [Int], replayed: [Int]) async
    where Subject.Element == Int, Subject.Failure == any Error {
      let first = subject.makeAsyncIterator()
      subject.send(1)
      subject.send(2)
      let late = subject.makeAsyncIterator()
      subject.send(termination)
      let afterTermination = subject.makeAsyncIterator()
      let expected: ParityError? =
        if case .failure(let error) = termination { error as? ParityError } else { nil }
      let afterResult = await parityDrain(afterTermination)
      #expect(afterResult.values == [])
      #expect(afterResult.error == expected)
      let firstResult = await parityDrain(first)
      #expect(firstResult.values == initial + [1, 2])
      #expect(firstResult.error == expected)
      let lateResult = await parityDrain(late)
      #expect(lateResult.values == replayed)
      #expect(lateResult.error == expected)
    }
    await play(AsyncThrowingPassthroughSubject<Int, any Error>(), initial: [], replayed: [])
    await play(AsyncThrowingCurrentValueSubject<Int, any Error>(0), initial: [0], replayed: [2])
  }

  // MARK: - Ordering under concurrent sends

  @Test("concurrent senders: every iterator sees the same order, each sender's order kept, value and replay agree")
  func concurrentSendOrdering() async {
    func play<Subject: AsyncSubject>(
      _ make: () -> Subject, initial: [Int] = [], replayCount: Int = 0, current: ((Subject) -> Int)? = nil
    ) async where Subject.Element == Int {
      for _ in 0..<50 {
        let subject = make()
        let first = subject.makeAsyncIterator()
        let second = subject.makeAsyncIterator()
        DispatchQueue.concurrentPerform(iterations: 2) { producer in
          for index in 0..<100 { subject.send(producer * 1_000 + index) }
        }
        var late = subject.makeAsyncIterator()
        var replayed: [Int] = []
        for _ in 0..<replayCount {
          if let value = try? await late.next() { replayed.append(value) }
        }
        let stored = current?(subject)
        subject.send(.finished)
        let receivedFirst = await parityDrain(first).values
        let receivedSecond = await parityDrain(second).values
        #expect(receivedFirst == receivedSecond)
        #expect(Array(receivedFirst.prefix(initial.count)) == initial)
        let sent = Array(receivedFirst.dropFirst(initial.count))
        #expect(sent.count == 200)
        for producer in 0..<2 {
          #expect(sent.filter { $0 / 1_000 == producer } == (0..<100).map { producer * 1_000 + $0 })
        }
        if replayCount > 0 { #expect(Array(sent.suffix(replayCount)) == replayed) }
        if let stored { #expect(receivedFirst.last == stored) }
      }
    }
    await play { AsyncPassthroughSubject<Int>() }
    await play { AsyncThrowingPassthroughSubject<Int, any Error>() }
    await play({ AsyncCurrentValueSubject<Int>(-1) }, initial: [-1], replayCount: 1, current: { $0.value })
    await play(
      { AsyncThrowingCurrentValueSubject<Int, any Error>(-1) }, initial: [-1], replayCount: 1, current: { $0.value })
    await play({ AsyncReplaySubject<Int>(bufferSize: 4) }, replayCount: 4)
    await play({ AsyncThrowingReplaySubject<Int, any Error>(bufferSize: 4) }, replayCount: 4)
  }

  // MARK: - Cancellation racing sends

  @Test("a consumer cancelled while a send or a termination races it exits, and its handler may send")
  func cancellationRacingSends() async {
    func play<Subject: AsyncSubject>(_ make: () -> Subject, sends: [@Sendable (Subject) -> Void]) async
    where Subject.Element == Int {
      for send in sends {
        for _ in 0..<100 {
          let subject = make()
          let iterator = subject.makeAsyncIterator()
          let consumer = Task.detached {
            await withTaskCancellationHandler {
              _ = await parityDrain(iterator)
            } onCancel: {
              subject.send(-1)
            }
          }
          DispatchQueue.concurrentPerform(iterations: 2) { index in
            if index == 0 { consumer.cancel() } else { send(subject) }
          }
          await consumer.value
        }
      }
    }
    await play({ AsyncPassthroughSubject<Int>() }, sends: [{ $0.send(1) }, { $0.send(.finished) }])
    await play({ AsyncCurrentValueSubject<Int>(0) }, sends: [{ $0.send(1) }, { $0.send(.finished) }])
    await play({ AsyncReplaySubject<Int>(bufferSize: 1) }, sends: [{ $0.send(1) }, { $0.send(.finished) }])
    let throwingSends: [@Sendable (AsyncThrowingPassthroughSubject<Int, any Error>) -> Void] = [
      { $0.send(1) }, { $0.send(.finished) }, { $0.send(.failure(ParityError(code: 1))) },
    ]
    await play({ AsyncThrowingPassthroughSubject<Int, any Error>() }, sends: throwingSends)
  }

  // MARK: - Buffered channel

  @Test("buffered channel: elements sent before the consumer come out in order, then the end")
  func bufferedChannelFIFO() async {
    let channel = AsyncBufferedChannel<Int>()
    for element in 1...5 { channel.send(element) }
    channel.finish()
    var received: [Int] = []
    for await element in channel { received.append(element) }
    #expect(received == [1, 2, 3, 4, 5])
  }

  @Test("buffered channel: send resumes a consumer waiting in next()")
  func bufferedChannelSendResumesWaiter() async {
    let channel = AsyncBufferedChannel<Int>()
    var iterator = channel.makeAsyncIterator()
    let consumer = Task { await iterator.next() }
    channel.send(1)
    #expect(await consumer.value == 1)
  }

  @Test("buffered channel: two producers, two consumers, every element to exactly one of them")
  func bufferedChannelSeveralProducersAndConsumers() async {
    let channel = AsyncBufferedChannel<Int>()
    let low = Task { for element in 1...24 { channel.send(element) } }
    let high = Task { for element in 25...50 { channel.send(element) } }
    await low.value
    await high.value
    channel.finish()
    let first = Task {
      var received: [Int] = []
      for await element in channel { received.append(element) }
      return received
    }
    let second = Task {
      var received: [Int] = []
      for await element in channel { received.append(element) }
      return received
    }
    let all = await first.value + second.value
    #expect(all.sorted() == Array(1...50))
  }

  @Test("buffered channel: cancelling the consuming task ends its iteration even with elements buffered")
  func bufferedChannelCancelledTaskEndsIteration() async {
    let channel = AsyncBufferedChannel<Int>()
    for element in 1...5 { channel.send(element) }
    let consumer = Task {
      var received: Int?
      for await element in channel {
        received = element
        cancelCurrentTask()
      }
      return received
    }
    #expect(await consumer.value == 1)
  }

  @Test("buffered channel: finish ends waiting consumers, and a later iterator ends at once")
  func bufferedChannelFinishEndsWaiters() async {
    let channel = AsyncBufferedChannel<Int>()
    var first = channel.makeAsyncIterator()
    var second = channel.makeAsyncIterator()
    let firstConsumer = Task { await first.next() }
    let secondConsumer = Task { await second.next() }
    channel.finish()
    #expect(await firstConsumer.value == nil)
    #expect(await secondConsumer.value == nil)
    var late = channel.makeAsyncIterator()
    #expect(await late.next() == nil)
  }

  @Test("buffered channel: a send after finish is not queued")
  func bufferedChannelSendAfterFinish() async {
    let channel = AsyncBufferedChannel<Int>()
    channel.finish()
    channel.send(1)
    var iterator = channel.makeAsyncIterator()
    #expect(await iterator.next() == nil)
  }

  @Test("buffered channel: a cancelled consumer of a finished channel ends at once")
  func bufferedChannelCancelledAfterFinish() async {
    let channel = AsyncBufferedChannel<Int>()
    channel.finish()
    let consumer = Task {
      var count = 0
      for await _ in channel { count += 1 }
      return count
    }
    consumer.cancel()
    #expect(await consumer.value == 0)
  }

  @Test("throwing buffered channel: the failure comes after the elements sent before it")
  func throwingBufferedChannelFailureAfterElements() async {
    let channel = AsyncThrowingBufferedChannel<Int, any Error>()
    channel.send(1)
    channel.fail(ParityError(code: 1701))
    let result = await parityDrain(channel.makeAsyncIterator())
    #expect(result.values == [1])
    #expect(result.error == ParityError(code: 1701))
  }

  @Test("throwing buffered channel: a failure ends waiting consumers and later iterators with the error")
  func throwingBufferedChannelFailureEndsEveryone() async {
    let channel = AsyncThrowingBufferedChannel<Int, any Error>()
    let first = channel.makeAsyncIterator()
    let second = channel.makeAsyncIterator()
    let firstConsumer = Task { await parityDrain(first) }
    let secondConsumer = Task { await parityDrain(second) }
    channel.fail(ParityError(code: 1701))
    #expect(await firstConsumer.value.error == ParityError(code: 1701))
    #expect(await secondConsumer.value.error == ParityError(code: 1701))
    #expect(await parityDrain(channel.makeAsyncIterator()).error == ParityError(code: 1701))
    // A second terminal call changes nothing.
    channel.finish()
    #expect(await parityDrain(channel.makeAsyncIterator()).error == ParityError(code: 1701))
  }

  @Test("throwing buffered channel: finish ends waiting consumers; send after it is not queued")
  func throwingBufferedChannelFinish() async {
    let channel = AsyncThrowingBufferedChannel<Int, any Error>()
    let waiting = channel.makeAsyncIterator()
    let consumer = Task { await parityDrain(waiting) }
    channel.finish()
    channel.send(1)
    let result = await consumer.value
    #expect(result.values == [])
    #expect(result.error == nil)
    #expect(await parityDrain(channel.makeAsyncIterator()).values == [])
  }

  // MARK: - Multicast

  @Test(
    "multicast: iterators made before connect() get every element in order, then the base's end",
    arguments: [ParityError?.none, ParityError(code: 1701)])
  func multicastConcurrentConsumers(_ failure: ParityError?) async {
    for _ in 0..<20 {
      let base = AsyncThrowingStream<Int, any Error> { continuation in
        for element in 0..<100 { continuation.yield(element) }
        continuation.finish(throwing: failure)
      }
      let multicast = base.multicast(AsyncThrowingPassthroughSubject<Int, any Error>())
      let consumers = (0..<8).map { _ in
        let iterator = multicast.makeAsyncIterator()
        return Task { await parityDrain(iterator) }
      }
      multicast.connect()
      for consumer in consumers {
        let result = await consumer.value
        #expect(result.values == Array(0..<100))
        #expect(result.error == failure)
      }
    }
  }

  @Test("multicast: the base is iterated once however many iterators there are")
  func multicastIteratesBaseOnce() async {
    let spy = IterationCountingSequence(element: 1, count: 3)
    let multicast = spy.multicast(AsyncThrowingPassthroughSubject<Int, any Error>())
    let consumers = (0..<3).map { _ in
      let iterator = multicast.makeAsyncIterator()
      return Task { await parityDrain(iterator).values }
    }
    await multicast.connect()?.value
    for consumer in consumers { #expect(await consumer.value == [1, 1, 1]) }
    #expect(spy.iterations == 1)
  }

  @Test("multicast + autoconnect: an element then the base's failure reach the iterating loop")
  func multicastAutoconnectPropagatesFailure() async {
    let base = AsyncThrowingStream<Int, any Error> { continuation in
      continuation.yield(1)
      continuation.finish(throwing: ParityError(code: 7))
    }
    let shared = base.multicast(AsyncThrowingPassthroughSubject<Int, any Error>()).autoconnect()
    var received: [Int] = []
    do {
      for try await element in shared { received.append(element) }
      Issue.record("the iteration should fail")
    } catch {
      #expect(error as? ParityError == ParityError(code: 7))
    }
    #expect(received == [1])
  }

  @Test("multicast + autoconnect: cancelling one waiting iterator leaves the shared base running for the other")
  func multicastCancellingOneSubscriber() async throws {
    let (base, continuation) = AsyncThrowingStream<Int, any Error>.makeStream()
    let shared = base.multicast(AsyncThrowingPassthroughSubject<Int, any Error>()).autoconnect()
    var first = shared.makeAsyncIterator()
    var second = shared.makeAsyncIterator()
    let firstConsumer = Task { try await first.next() }
    firstConsumer.cancel()
    #expect(try await firstConsumer.value == nil)
    let secondConsumer = Task { try await second.next() }
    continuation.yield(42)
    continuation.finish()
    #expect(try await secondConsumer.value == 42)
  }

  // MARK: - Where Ripple once differed, and where it still does

  // Kept differences, pinned as Ripple documents them (Subjects.md, "Comparison with Combine and AsyncExtensions";
  // Docs/Decisions/subjects.md): DESIGN.md's "a new iterator ends at once (a replay subject's after its replay)".

  @Test("replay, unlike AsyncExtensions: after .finished a new iterator gets the replay, then the end")
  func replayLateIteratorAfterFinishGetsReplay() async {
    let subject = AsyncReplaySubject<Int>(bufferSize: 1)
    subject.send(1)
    subject.send(.finished)
    var late = subject.makeAsyncIterator()
    #expect(await late.next() == 1)
    #expect(await late.next() == nil)
  }

  @Test("throwing replay, unlike AsyncExtensions: a late iterator gets the replay, then the first termination")
  func throwingReplayFirstTerminationWins() async {
    let subject = AsyncThrowingReplaySubject<Int, any Error>(bufferSize: 2)
    let existing = subject.makeAsyncIterator()
    subject.send(1)
    subject.send(.failure(ParityError(code: 1)))
    subject.send(2)
    subject.send(.finished)
    let late = subject.makeAsyncIterator()
    let existingResult = await parityDrain(existing)
    let lateResult = await parityDrain(late)
    #expect(existingResult.values == [1])
    #expect(existingResult.error == ParityError(code: 1))
    #expect(lateResult.values == [1])
    #expect(lateResult.error == ParityError(code: 1))
  }

  @Test("current value, as AsyncExtensions and unlike Combine: assigning value after the end changes nothing")
  func currentValueSetterAfterFinish() {
    let subject = AsyncCurrentValueSubject<Int>(0)
    subject.send(.finished)
    subject.send(2)
    #expect(subject.value == 0)
    subject.value = 3
    #expect(subject.value == 0)
  }

  @Test("multicast + autoconnect (Combine and AsyncExtensions): after every iterator left, a new one is served again")
  func multicastAutoconnectServesIteratorAfterAllLeft() async {
    let base = AsyncBufferedChannel<Int>()
    let shared = base.multicast(AsyncPassthroughSubject<Int>()).autoconnect()
    do {
      var first = shared.makeAsyncIterator()
      base.send(1)
      #expect(await first.next() == 1)
    }
    let second = shared.makeAsyncIterator()
    base.send(2)
    base.finish()
    #expect(await parityDrain(second).values == [2])
  }

  @Test("multicast (Combine): cancelling the connection stops the base but does not terminate the subject")
  func multicastCancelledConnectionLeavesSubjectOpen() async {
    let base = AsyncBufferedChannel<Int>()
    let subject = AsyncPassthroughSubject<Int>()
    let multicast = base.multicast(subject)
    let connection = multicast.connect()
    connection?.cancel()
    await connection?.value
    let late = subject.makeAsyncIterator()
    subject.send(5)
    subject.send(.finished)
    #expect(await parityDrain(late).values == [5])
  }

  @Test("buffered channel: a second consumer is served from what the first one has not taken yet")
  func bufferedChannelSecondConsumerServed() async {
    let channel = AsyncBufferedChannel<Int>()
    for element in 1...3 { channel.send(element) }
    var first = channel.makeAsyncIterator()
    #expect(await first.next() == 1)
    var second = channel.makeAsyncIterator()
    channel.finish()
    #expect(await second.next() == 2)
    #expect(await first.next() == 3)
  }
}

/// A base that counts how many iterators were made of it, and gives `element` `count` times to each.
private struct IterationCountingSequence: AsyncSequence, Sendable {
  typealias Element = Int
  typealias Failure = any Error

  let element: Int
  let count: Int
  private let made = IterationCounter()

  init(element: Int, count: Int) {
    self.element = element
    self.count = count
  }

  var iterations: Int { made.count }

  func makeAsyncIterator() -> Iterator {
    made.increment()
    return Iterator(element: element, remaining: count)
  }

  struct Iterator: AsyncIteratorProtocol {
    let element: Int
    var remaining: Int

    mutating func next() async throws -> Int? {
      guard remaining > 0 else { return nil }
      remaining -= 1
      return element
    }
  }
}

private final class IterationCounter: Sendable {
  private let state = _Mutex(0)

  var count: Int { state.withLock { $0 } }

  func increment() { state.withLock { $0 += 1 } }
}

/// Holds an iterator made on a thread of `concurrentPerform`, read once it returned (which orders the two).
// @unchecked: written by one iteration of `concurrentPerform`, read only after `concurrentPerform` returned.
private final class RacedIterator<Iterator>: @unchecked Sendable {
  var iterator: Iterator?
}
