import InternalRippleUtilities
import Ripple
import RippleTesting
import Synchronization
import Testing

private typealias IntChannel = MultiProducerSingleConsumerAsyncChannel<Int, Never>
private typealias AlreadyFinished = MultiProducerSingleConsumerAsyncChannelAlreadyFinishedError

/// What the parties of a test did, in order.
private final class ChannelLog: Sendable {
  private let entries = _Mutex<[String]>([])

  func record(_ entry: String) { entries.withLock { $0.append(entry) } }

  var all: [String] { entries.withLock { $0 } }
}

private struct ChannelBoom: Error, Equatable {}

private func describe(_ error: any Error) -> String {
  switch error {
  case is CancellationError: "cancelled"
  case is AlreadyFinished: "finished"
  default: "\(error)"
  }
}

private func describe(_ result: Result<Void, any Error>) -> String {
  switch result {
  case .success: "more"
  case .failure(let error): describe(error)
  }
}

/// The handle of a send that reached the high watermark, or `nil` for `.produceMore`.
private func handle(_ result: consuming IntChannel.Source.SendResult) -> IntChannel.Source.SendResult.CallbackHandle? {
  switch consume result {
  case .produceMore: nil
  case .enqueueCallback(let handle): handle
  }
}

/// The synchronous send. In async code `try source.send(value)` picks the async overload, as it does with
/// swift-async-algorithms: a synchronous caller gets this one without help.
private func sendNow<Element, Failure>(
  _ value: sending Element, to source: inout MultiProducerSingleConsumerAsyncChannel<Element, Failure>.Source
) throws(AlreadyFinished) -> MultiProducerSingleConsumerAsyncChannel<Element, Failure>.Source.SendResult {
  try source.send(value)
}

private func sendNow(
  contentsOf values: sending [Int], to source: inout IntChannel.Source
) throws(AlreadyFinished) -> IntChannel.Source.SendResult {
  try source.send(contentsOf: values)
}

private func makeChannel(low: Int, high: Int) -> sending IntChannel.ChannelAndStream {
  IntChannel.makeChannel(of: Int.self, backpressureStrategy: .watermark(low: low, high: high))
}

/// Starts a task that owns `source`, sends `values` with the async `send(_:)`, logs "sent n" after each, and returns
/// "done" or what ended it. The source goes away with the task.
private func produce(
  _ values: [Int], into source: consuming sending IntChannel.Source, log: ChannelLog
) -> Task<String, Never> {
  var source = source
  return Task {
    do {
      for value in values {
        try await source.send(value)
        log.record("sent \(value)")
      }
      return "done"
    } catch {
      return describe(error)
    }
  }
}

/// Starts a task that owns `channel` and returns its next `count` results; `cancellingFirst` cancels the task
/// before the first `next()`.
private func consume(
  _ count: Int, of channel: consuming sending IntChannel, cancellingFirst: Bool = false
) -> Task<[Int?], Never> {
  var channel = channel
  return Task {
    if cancellingFirst { withUnsafeCurrentTask { $0?.cancel() } }
    var results: [Int?] = []
    for _ in 0..<count { results.append(await channel.next()) }
    return results
  }
}

@Suite("multi-producer single-consumer channel", .timeLimit(.minutes(1)))
struct MPSCChannelTests {
  @Test(
    "a sync send says produce more below the high watermark and enqueue exactly at it",
    arguments: [(low: 1, high: 1), (2, 4), (0, 3), (5, 10), (10, 10)])
  func syncSendAtHigh(low: Int, high: Int) throws {
    let channelAndSource = makeChannel(low: low, high: high)
    var source = consume channelAndSource.source
    for value in 1..<high {
      #expect(handle(try source.send(value)) == nil)
    }
    #expect(handle(try source.send(high)) != nil)
    #expect(handle(try source.send(high + 1)) != nil)
  }

  @Test(
    "an enqueued callback fires exactly when the consumer drains below the low watermark",
    arguments: [(low: 2, high: 4), (1, 4), (4, 4), (0, 3)])
  func callbackBelowLow(low: Int, high: Int) async throws {
    var channelAndSource = makeChannel(low: low, high: high)
    var channel = channelAndSource.takeChannel()
    var source = consume channelAndSource.source
    let log = ChannelLog()
    for value in 1..<high { _ = try sendNow(value, to: &source) }
    var callback = try #require(handle(try sendNow(high, to: &source)))
    callback.enqueueCallback { log.record(describe($0)) }
    // Below `low` means fewer than `low` left, at least "none left" for a low watermark of 0.
    let drained = high - Swift.max(low, 1) + 1
    for taken in 1...high {
      #expect(await channel.next() == taken)
      #expect(log.all == (taken >= drained ? ["more"] : []), "after \(taken) taken")
    }
  }

  @Test("the level counts what the consumer took in its batch and has not returned, not what it returned")
  func levelCountsTheBatchLeft() async throws {
    // Issue #28 2a, as the audit wrote it: the consumer takes 1, 2, 3 in one batch and returns 1, so the level is
    // 2 before the send of 4 and 3 after it, below `high`: that send is told to produce more.
    var channelAndSource = makeChannel(low: 2, high: 4)
    var channel = channelAndSource.takeChannel()
    var source = consume channelAndSource.source
    let log = ChannelLog()
    for value in 1...3 { source.send(value) { log.record("\(value) \(describe($0))") } }
    #expect(await channel.next() == 1)
    source.send(4) { log.record("4 \(describe($0))") }
    #expect(log.all == ["1 more", "2 more", "3 more", "4 more"])
    #expect(await channel.next() == 2)
    #expect(await channel.next() == 3)
    #expect(log.all == ["1 more", "2 more", "3 more", "4 more"])
  }

  @Test(
    "a waiting producer resumes at the very next() that brings the level below low, in the middle of a batch",
    arguments: [(low: 4, high: 6), (2, 4), (1, 3), (3, 3)])
  func resumesInTheMiddleOfABatch(low: Int, high: Int) async throws {
    // The consumer takes `high - 1` elements in one batch and returns the first; the producer refills the channel
    // to `high` and waits. The level then falls by one per next(), whether the element came from the batch the
    // consumer holds or from a new one: the callback must run in the next() that leaves `low - 1`, no later.
    var channelAndSource = makeChannel(low: low, high: high)
    var channel = channelAndSource.takeChannel()
    var source = consume channelAndSource.source
    let log = ChannelLog()
    for value in 1..<high { #expect(handle(try sendNow(value, to: &source)) == nil) }
    #expect(await channel.next() == 1)
    // Level high - 2: one more send is below high, the next reaches it.
    #expect(handle(try sendNow(high, to: &source)) == nil, "level \(high - 1) is below high")
    var callback = try #require(handle(try sendNow(high + 1, to: &source)), "level \(high) is high")
    callback.enqueueCallback { log.record(describe($0)) }
    var level = high
    for expected in 2...(high + 1) {
      #expect(await channel.next() == expected)
      level -= 1
      #expect(log.all == (level < low ? ["more"] : []), "at level \(level)")
    }
  }

  @Test("a producer registering its callback waits while the level stays at or above low, whatever others send")
  func noResumeAtOrAboveLow() async throws {
    // Issue #28 2b: sources a, b, c at .watermark(low: 2, high: 4). A later send below `high` (c's) must not hand
    // the demand to a producer told to wait before it (a), since the level never went below `low` in between.
    var channelAndSource = makeChannel(low: 2, high: 4)
    var channel = channelAndSource.takeChannel()
    var a = consume channelAndSource.source
    var b = a.makeAdditionalSource()
    var c = a.makeAdditionalSource()
    let log = ChannelLog()
    for value in 1...3 { #expect(handle(try sendNow(value, to: &a)) == nil) }
    var handleA = try #require(handle(try sendNow(4, to: &a)))  // level 4
    #expect(await channel.next() == 1)  // level 3
    var handleB = try #require(handle(try sendNow(5, to: &b)))  // level 4
    handleB.enqueueCallback { log.record("b \(describe($0))") }
    #expect(await channel.next() == 2)
    #expect(await channel.next() == 3)  // level 2: not below low
    #expect(handle(try sendNow(6, to: &c)) == nil)  // level 3, below high: c may produce more
    handleA.enqueueCallback { log.record("a \(describe($0))") }
    #expect(log.all == [])
    #expect(await channel.next() == 4)  // level 2
    #expect(log.all == [])
    #expect(await channel.next() == 5)  // level 1: both resume, in the order they began waiting
    #expect(log.all == ["b more", "a more"])
  }

  @Test("with several producers the level can reach high - 1 plus one send of each, and a send there waits")
  func levelBoundWithSeveralProducers() throws {
    // Each producer may make one send after the level reached high - 1: the one it was allowed by its last
    // produceMore. That is the bound the guide states; here it is reached.
    let channelAndSource = makeChannel(low: 2, high: 4)
    var a = consume channelAndSource.source
    var b = a.makeAdditionalSource()
    var c = a.makeAdditionalSource()
    for value in 1...3 { #expect(handle(try sendNow(value, to: &a)) == nil) }  // level 3 = high - 1
    #expect(handle(try sendNow(4, to: &a)) != nil)  // 4
    #expect(handle(try sendNow(5, to: &b)) != nil)  // 5
    #expect(handle(try sendNow(6, to: &c)) != nil)  // 6 = high - 1 + 3 producers
  }

  @Test(
    "a producer told to wait by an empty send at a high watermark of 0 resumes at once: the level is below low",
    arguments: [false, true])
  func emptySendAtHigh(consumerWaits: Bool) async throws {
    let clock = TestClock()
    try await clock.lockstep { () async throws in
      // A high watermark of 0: even an empty send leaves the level at it, with nothing buffered to wake anyone.
      // The level, 0, is below the low watermark (0 counts as 1) already, so the wait ends as soon as it begins,
      // whether or not the consumer is waiting (and then no send will come to wake it).
      var channelAndSource = makeChannel(low: 0, high: 0)
      let consumer = consume(1, of: channelAndSource.takeChannel())
      if consumerWaits { await clock.advance(by: .zero) }
      var source = consume channelAndSource.source
      let log = ChannelLog()
      var callback = try #require(handle(try sendNow(contentsOf: [], to: &source)))
      callback.enqueueCallback { log.record(describe($0)) }
      #expect(log.all == ["more"])
      source.finish()
      #expect(await consumer.value == [nil])
    }
  }

  @Test("the water level counts what waterLevelForElement says")
  func weightedWatermark() async throws {
    var channelAndSource = MultiProducerSingleConsumerAsyncChannel.makeChannel(
      of: String.self, backpressureStrategy: .watermark(low: 3, high: 10, waterLevelForElement: { $0.count }))
    var channel = channelAndSource.takeChannel()
    var source = consume channelAndSource.source
    let log = ChannelLog()
    let first = try sendNow("abcd", to: &source)
    switch consume first {
    case .produceMore: log.record("more")
    case .enqueueCallback: Issue.record("4 of 10 is below the high watermark")
    }
    let second = try sendNow("efghij", to: &source)
    switch consume second {
    case .produceMore: Issue.record("10 of 10 is the high watermark")
    case .enqueueCallback(var callback): callback.enqueueCallback { log.record("resumed \(describe($0))") }
    }
    #expect(await channel.next() == "abcd")
    #expect(log.all == ["more"])
    #expect(await channel.next() == "efghij")
    #expect(log.all == ["more", "resumed more"])
  }

  @Test("an async send waits at the high watermark and resumes once the consumer drains below the low one")
  func asyncSendWaits() async {
    let clock = TestClock()
    await clock.lockstep {
      var channelAndSource = makeChannel(low: 2, high: 4)
      var channel = channelAndSource.takeChannel()
      let log = ChannelLog()
      let producer = produce([1, 2, 3, 4, 5], into: channelAndSource.source, log: log)
      await clock.advance(by: .zero)
      #expect(log.all == ["sent 1", "sent 2", "sent 3"])
      #expect(await channel.next() == 1)
      #expect(await channel.next() == 2)
      await clock.advance(by: .zero)
      #expect(log.all == ["sent 1", "sent 2", "sent 3"])
      #expect(await channel.next() == 3)
      await clock.advance(by: .zero)
      #expect(log.all == ["sent 1", "sent 2", "sent 3", "sent 4", "sent 5"])
      #expect(await producer.value == "done")
      // The producer's task owned the last source: it went away with the task and finished the channel.
      #expect(await channel.next() == 4)
      #expect(await channel.next() == 5)
      #expect(await channel.next() == nil)
    }
  }

  @Test("a waiting consumer resumes when an element is sent")
  func waitingConsumerResumes() async throws {
    let clock = TestClock()
    try await clock.lockstep { () async throws in
      var channelAndSource = makeChannel(low: 2, high: 4)
      let consumer = consume(2, of: channelAndSource.takeChannel())
      var source = consume channelAndSource.source
      await clock.advance(by: .zero)
      _ = try sendNow(7, to: &source)
      try await source.send(contentsOf: [8, 9])
      #expect(await consumer.value == [7, 8])
    }
  }

  @Test("finish delivers the buffered elements, then nil, and sends after it throw")
  func finishDeliversBuffered() async throws {
    var channelAndSource = makeChannel(low: 2, high: 4)
    var channel = channelAndSource.takeChannel()
    var source = consume channelAndSource.source
    var other = source.makeAdditionalSource()
    let log = ChannelLog()
    other.setOnTerminationCallback { log.record("terminated") }
    try await source.send(contentsOf: [1, 2])
    source.finish()
    do {
      _ = try sendNow(3, to: &other)
      Issue.record("a sync send after finish must throw")
    } catch {}
    do {
      try await other.send(3)
      Issue.record("an async send after finish must throw")
    } catch {
      #expect(describe(error) == "finished")
    }
    other.send(4) { log.record(describe($0)) }
    #expect(log.all == ["finished"])
    #expect(await channel.next() == 1)
    #expect(await channel.next() == 2)
    #expect(log.all == ["finished"])
    #expect(await channel.next() == nil)
    #expect(log.all == ["finished", "terminated"])
    #expect(await channel.next() == nil)
  }

  @Test("finish(throwing:) delivers the buffered elements, then throws once, then nil")
  func finishThrowing() async throws {
    var channelAndSource = MultiProducerSingleConsumerAsyncChannel.makeChannel(
      of: Int.self, throwing: ChannelBoom.self, backpressureStrategy: .watermark(low: 2, high: 4))
    var channel = channelAndSource.takeChannel()
    var source = consume channelAndSource.source
    _ = try sendNow(1, to: &source)
    source.finish(throwing: ChannelBoom())
    #expect(try await channel.next() == 1)
    await #expect(throws: ChannelBoom.self) { try await channel.next() }
    #expect(try await channel.next() == nil)
  }

  @Test("finishing resumes a waiting consumer with nil and fails the waiting producers")
  func finishResumesEveryone() async {
    let clock = TestClock()
    await clock.lockstep {
      var channelAndSource = makeChannel(low: 1, high: 1)
      let consumer = consume(1, of: channelAndSource.takeChannel())
      let source = consume channelAndSource.source
      await clock.advance(by: .zero)
      source.finish()
      #expect(await consumer.value == [nil])
    }
    await clock.lockstep {
      var channelAndSource = makeChannel(low: 1, high: 2)
      var channel = channelAndSource.takeChannel()
      var source = consume channelAndSource.source
      let log = ChannelLog()
      let producer = produce([1, 2, 3], into: source.makeAdditionalSource(), log: log)
      await clock.advance(by: .zero)
      #expect(log.all == ["sent 1"])
      source.finish()
      #expect(await producer.value == "finished")
      #expect(await channel.next() == 1)
      #expect(await channel.next() == 2)
      #expect(await channel.next() == nil)
    }
  }

  @Test("termination callbacks run in the consumer's next() that returns the end, also when finish meets it waiting")
  func terminationInConsumersNext() async {
    // The guide: the callback runs "in the consumer's next() that returns nil or throws after the sources finished
    // and it had returned every element (before that next() returns)" — not inside finish().
    let clock = TestClock()
    await clock.lockstep {
      var channelAndSource = makeChannel(low: 2, high: 4)
      var channel = channelAndSource.takeChannel()
      let source = consume channelAndSource.source
      let log = ChannelLog()
      source.setOnTerminationCallback { log.record("terminated") }
      let consumer = Task {
        let end = await channel.next()
        log.record("next() returned \(String(describing: end))")
      }
      await clock.advance(by: .zero)
      source.finish()
      #expect(log.all == [])
      await consumer.value
      #expect(log.all == ["terminated", "next() returned nil"])
    }
  }

  @Test("the channel finishes when the last source goes away, not before")
  func lastSourceFinishes() async throws {
    var channelAndSource = makeChannel(low: 2, high: 4)
    var channel = channelAndSource.takeChannel()
    var first: IntChannel.Source? = consume channelAndSource.source
    var second: IntChannel.Source? = first!.makeAdditionalSource()
    let log = ChannelLog()
    first!.setOnTerminationCallback { log.record("first") }
    second!.setOnTerminationCallback { log.record("second") }
    _ = try sendNow(1, to: &first!)
    first = nil
    _ = try sendNow(2, to: &second!)
    #expect(await channel.next() == 1)
    #expect(await channel.next() == 2)
    second = nil
    #expect(log.all == [])
    #expect(await channel.next() == nil)
    #expect(Set(log.all) == ["first", "second"])
  }

  @Test("the last source going away resumes a waiting consumer with nil")
  func lastSourceResumesConsumer() async {
    let clock = TestClock()
    await clock.lockstep {
      var channelAndSource = makeChannel(low: 2, high: 4)
      let consumer = consume(1, of: channelAndSource.takeChannel())
      let source = consume channelAndSource.source
      await clock.advance(by: .zero)
      _ = consume source
      #expect(await consumer.value == [nil])
    }
  }

  @Test("a cancelled waiting consumer returns nil and ends the channel for the sources")
  func cancelledWaitingConsumer() async {
    let clock = TestClock()
    await clock.lockstep {
      var channelAndSource = makeChannel(low: 2, high: 4)
      let consumer = consume(1, of: channelAndSource.takeChannel())
      var source = consume channelAndSource.source
      let log = ChannelLog()
      source.setOnTerminationCallback { log.record("terminated") }
      await clock.advance(by: .zero)
      #expect(log.all == [])
      consumer.cancel()
      #expect(await consumer.value == [nil])
      #expect(log.all == ["terminated"])
      do {
        _ = try sendNow(1, to: &source)
        Issue.record("a send after the consumer went away must throw")
      } catch {}
    }
  }

  @Test("a next() in a cancelled task returns nil although elements are buffered, and fails waiting producers")
  func nextInCancelledTask() async {
    let clock = TestClock()
    await clock.lockstep {
      var channelAndSource = makeChannel(low: 1, high: 2)
      var channel = channelAndSource.takeChannel()
      var source = consume channelAndSource.source
      let log = ChannelLog()
      source.setOnTerminationCallback { log.record("terminated") }
      let producer = produce([1, 2, 3], into: source.makeAdditionalSource(), log: log)
      await clock.advance(by: .zero)
      #expect(log.all == ["sent 1"])
      #expect(await channel.next() == 1)
      // 2 is buffered (the consumer holds it in its batch) and the producer waits to send 3; the consumer's task
      // is cancelled before its next().
      let cancelled = consume(2, of: channel, cancellingFirst: true)
      #expect(await cancelled.value == [nil, nil])
      #expect(await producer.value == "finished")
      #expect(log.all == ["sent 1", "terminated"])
    }
  }

  @Test("a cancelled async send that waits throws CancellationError; its element stays sent")
  func cancelledAsyncSend() async {
    let clock = TestClock()
    await clock.lockstep {
      var channelAndSource = makeChannel(low: 1, high: 2)
      var channel = channelAndSource.takeChannel()
      var source = consume channelAndSource.source
      let log = ChannelLog()
      let producer = produce([1, 2, 3], into: source.makeAdditionalSource(), log: log)
      await clock.advance(by: .zero)
      #expect(log.all == ["sent 1"])
      producer.cancel()
      #expect(await producer.value == "cancelled")
      source.finish()
      #expect(await channel.next() == 1)
      #expect(await channel.next() == 2)
      #expect(await channel.next() == nil)
    }
  }

  @Test("cancelCallback fails the callback with CancellationError, whether enqueued before or after")
  func cancelCallback() throws {
    let channelAndSource = makeChannel(low: 1, high: 1)
    var source = consume channelAndSource.source
    let log = ChannelLog()
    var before = try #require(handle(try source.send(1)))
    before.cancelCallback()
    before.enqueueCallback { log.record("before \(describe($0))") }
    var after = try #require(handle(try source.send(2)))
    after.enqueueCallback { log.record("after \(describe($0))") }
    #expect(log.all == ["before cancelled"])
    after.cancelCallback()
    #expect(log.all == ["before cancelled", "after cancelled"])
    after.cancelCallback()
    #expect(log.all.count == 2)
  }

  @Test("send(_:onProduceMore:) calls back at once below the high watermark, else once drained")
  func sendWithCallback() async throws {
    var channelAndSource = makeChannel(low: 1, high: 2)
    var channel = channelAndSource.takeChannel()
    var source = consume channelAndSource.source
    let log = ChannelLog()
    source.send(1) { log.record("1 \(describe($0))") }
    #expect(log.all == ["1 more"])
    source.send(contentsOf: [2, 3]) { log.record("2, 3 \(describe($0))") }
    #expect(log.all == ["1 more"])
    #expect(await channel.next() == 1)
    #expect(await channel.next() == 2)
    #expect(log.all == ["1 more"])
    #expect(await channel.next() == 3)
    #expect(log.all == ["1 more", "2, 3 more"])
  }

  @Test("the channel going away unused fails the waiting producers and calls the termination callbacks")
  func channelDeinit() async throws {
    let clock = TestClock()
    await clock.lockstep {
      var channelAndSource = makeChannel(low: 1, high: 1)
      let channel = channelAndSource.takeChannel()
      var source = consume channelAndSource.source
      let log = ChannelLog()
      source.setOnTerminationCallback { log.record("terminated") }
      let producer = produce([1, 2], into: source.makeAdditionalSource(), log: log)
      await clock.advance(by: .zero)
      #expect(log.all == [])
      _ = consume channel
      #expect(await producer.value == "finished")
      #expect(log.all == ["terminated"])
      source.setOnTerminationCallback { log.record("set after the end") }
      #expect(log.all == ["terminated", "set after the end"])
    }
  }

  @Test("elements() gives every element to for-await, then ends")
  func elementsSequence() async throws {
    var channelAndSource = makeChannel(low: 2, high: 8)
    let channel = channelAndSource.takeChannel()
    var source = consume channelAndSource.source
    try await source.send(contentsOf: [1, 2, 3].async)
    source.finish()
    var received: [Int] = []
    for await value in channel.elements() { received.append(value) }
    #expect(received == [1, 2, 3])
  }

  @Test("dropping the elements() iterator, or the sequence unused, ends the channel")
  func droppingIteratorEnds() async throws {
    let log = ChannelLog()
    do {
      var channelAndSource = makeChannel(low: 2, high: 8)
      let channel = channelAndSource.takeChannel()
      var source = consume channelAndSource.source
      source.setOnTerminationCallback { log.record("iterator") }
      _ = try sendNow(1, to: &source)
      _ = try sendNow(2, to: &source)
      do {
        var iterator = channel.elements().makeAsyncIterator()
        #expect(await iterator.next(isolation: nil) == 1)
        #expect(log.all == [])
      }
      #expect(log.all == ["iterator"])
      #expect(throws: AlreadyFinished.self) { _ = try sendNow(3, to: &source) }
    }
    do {
      var channelAndSource = makeChannel(low: 2, high: 8)
      let channel = channelAndSource.takeChannel()
      let source = consume channelAndSource.source
      source.setOnTerminationCallback { log.record("sequence") }
      do {
        let elements = channel.elements()
        #expect(log.all == ["iterator"])
        _ = elements
      }
      #expect(log.all == ["iterator", "sequence"])
    }
  }

  #if os(macOS) || os(Linux) || os(FreeBSD) || os(Windows)  // where Swift Testing runs exit tests
  @Test("a second iterator of elements() stops the program, saying why")
  func secondIterator() async throws {
    let exit = try await #require(
      processExitsWith: .failure, observing: [\.standardErrorContent],
      performing: {
        var channelAndSource = MultiProducerSingleConsumerAsyncChannel.makeChannel(
          of: Int.self, backpressureStrategy: .watermark(low: 1, high: 2))
        let elements = channelAndSource.takeChannel().elements()
        _ = elements.makeAsyncIterator()
        _ = elements.makeAsyncIterator()
      })
    #if DEBUG  // an optimised build stops without printing a precondition's message
    #expect(String(decoding: exit.standardErrorContent, as: UTF8.self).contains("makeAsyncIterator() was called twice"))
    #endif
    _ = exit
  }
  #endif
}

@Suite("multi-producer single-consumer channel under load", .timeLimit(.minutes(3)))
struct MPSCChannelStressTests {
  @Test(
    "several producers on real threads: every element once, each producer's in order, then the end",
    arguments: [(producers: 4, low: 8, high: 32), (8, 1, 1), (2, 256, 1024)])
  func manyProducers(producers: Int, low: Int, high: Int) async throws {
    let perProducer = Stress.rounds(100_000) / producers
    var channelAndSource = makeChannel(low: low, high: high)
    let channel = channelAndSource.takeChannel()
    var source = consume channelAndSource.source
    let log = ChannelLog()
    source.setOnTerminationCallback { log.record("terminated") }
    var tasks: [Task<String, Never>] = []
    for producer in 0..<producers {
      let values = (0..<perProducer).map { producer * 1_000_000 + $0 }
      tasks.append(produce(values, into: source.makeAdditionalSource(), log: ChannelLog()))
    }
    _ = consume source
    var next = [Int](repeating: 0, count: producers)
    var count = 0
    for await value in channel.elements() {
      let (producer, index) = value.quotientAndRemainder(dividingBy: 1_000_000)
      #expect(index == next[producer], "producer \(producer) out of order")
      next[producer] = index + 1
      count += 1
    }
    #expect(count == producers * perProducer)
    #expect(next == [Int](repeating: perProducer, count: producers))
    for task in tasks { #expect(await task.value == "done") }
    #expect(log.all == ["terminated"])
  }

  @Test(
    "several synchronous producers on real threads: the watermark promises hold at every step",
    arguments: [(producers: 1, low: 2, high: 4), (3, 2, 4), (4, 8, 16), (8, 1, 1), (2, 3, 3)])
  func watermarkPromises(producers: Int, low: Int, high: Int) async throws {
    // Each round a new channel of `Counted` elements, whose weight closure keeps the water level as the channel
    // defines it (the closure runs once when an element is sent, under the lock, and once when it is returned).
    // Checked, for producers that wait whenever told to:
    // - the level never exceeds high - 1 plus one send of each producer (the guide's bound);
    // - a producer resumed with success saw the level fall below low after the send that made it wait (2b);
    // - after each next(), no producer is still waiting while the level is below low (2a).
    // 1,000 rounds per configuration in each run of the suite (5,000 in all); `Scripts/repeat-tests.sh` repeats them.
    let rounds = Stress.rounds(1_000)
    var failedRounds = 0
    var findings: [String: Int] = [:]
    for _ in 0..<rounds {
      let found = await watermarkRound(producers: producers, low: low, high: high, perProducer: 40)
      if !found.isEmpty { failedRounds += 1 }
      for finding in found { findings[finding, default: 0] += 1 }
    }
    #expect(failedRounds == 0, "\(failedRounds) of \(rounds) rounds broke a promise: \(findings)")
  }

  private func watermarkRound(producers: Int, low: Int, high: Int, perProducer: Int) async -> Set<String> {
    let meter = WaterMeter(low: low)
    let findings = ChannelLog()
    var channelAndSource = CountedChannel.makeChannel(
      of: Counted.self,
      backpressureStrategy: .watermark(low: low, high: high, waterLevelForElement: { meter.weigh($0) }))
    var channel = channelAndSource.takeChannel()
    var source = consume channelAndSource.source
    let states = (0..<producers).map { _ in ProducerState() }
    var tasks: [Task<Void, Never>] = []
    for producer in 0..<producers {
      tasks.append(
        produceCounted(
          producer, count: perProducer, into: source.makeAdditionalSource(), meter: meter, state: states[producer],
          findings: findings))
    }
    _ = consume source
    var next = [Int](repeating: 0, count: producers)
    while let element = await channel.next() {
      meter.returnDone()
      if element.index != next[element.producer] { findings.record("out of order") }
      next[element.producer] = element.index + 1
      // The level only rises while this task checks (it alone returns elements): a producer seen waiting with the
      // level below low was waiting at a level below low.
      for state in states where state.isWaiting {
        if meter.level.load(ordering: .sequentiallyConsistent) < Swift.max(low, 1) {
          findings.record("a producer still waits below low after next()")
        }
      }
    }
    for task in tasks { await task.value }
    if next != [Int](repeating: perProducer, count: producers) { findings.record("elements lost") }
    if meter.highest.load(ordering: .sequentiallyConsistent) > high - 1 + producers {
      findings.record("level above high - 1 + producers")
    }
    return Set(findings.all)
  }
}

private typealias CountedChannel = MultiProducerSingleConsumerAsyncChannel<Counted, Never>

/// An element that knows whether the channel has weighed it yet: its first weighing is its send, the second its
/// return.
private final class Counted: Sendable {
  let producer: Int
  let index: Int
  let weighed = Atomic(false)

  init(_ producer: Int, _ index: Int) {
    self.producer = producer
    self.index = index
  }
}

/// The water level as the channel defines it, kept by its `waterLevelForElement` closure: up by one when an element
/// is sent, down by one when it is returned; the highest level seen; and how many returns left it below `low`.
///
/// The closure weighs a returned element before `next()` has finished returning it: a return is *in flight* from
/// then until the consumer calls ``returnDone()``.
private final class WaterMeter: Sendable {
  let low: Int
  let level = Atomic(0)
  let highest = Atomic(0)
  let drains = Atomic(0)
  let returnInFlight = Atomic(false)

  init(low: Int) { self.low = Swift.max(low, 1) }

  func weigh(_ element: borrowing Counted) -> Int {
    if !element.weighed.exchange(true, ordering: .sequentiallyConsistent) {
      let now = level.add(1, ordering: .sequentiallyConsistent).newValue
      var seen = highest.load(ordering: .sequentiallyConsistent)
      while now > seen {
        let (exchanged, original) = highest.compareExchange(
          expected: seen, desired: now, ordering: .sequentiallyConsistent)
        if exchanged { break }
        seen = original
      }
    } else {
      returnInFlight.store(true, ordering: .sequentiallyConsistent)
      if level.subtract(1, ordering: .sequentiallyConsistent).newValue < low {
        drains.add(1, ordering: .sequentiallyConsistent)
      }
    }
    return 1
  }

  func returnDone() { returnInFlight.store(false, ordering: .sequentiallyConsistent) }

  /// The drains a send that starts now may be resumed by: those counted, less one if a return is in flight (the
  /// channel counts it as returned only when `next()` finishes, which may come after the send).
  var drainsBeforeSend: Int {
    let counted = drains.load(ordering: .sequentiallyConsistent)
    return returnInFlight.load(ordering: .sequentiallyConsistent) ? counted - 1 : counted
  }
}

/// Whether a producer is running, registering its callback, or waiting for it.
private final class ProducerState: Sendable {
  private static let running = 0
  private static let registering = 1
  private static let waiting = 2
  private let value = Atomic(running)

  var isWaiting: Bool { value.load(ordering: .sequentiallyConsistent) == Self.waiting }
  func registers() { value.store(Self.registering, ordering: .sequentiallyConsistent) }
  /// After the callback is enqueued: waiting, unless the callback already ran.
  func registered() {
    _ = value.compareExchange(expected: Self.registering, desired: Self.waiting, ordering: .sequentiallyConsistent)
  }
  func resumed() { value.store(Self.running, ordering: .sequentiallyConsistent) }
}

/// Starts a task that owns `source` and sends `count` elements with the synchronous send, waiting for the callback
/// whenever it is told to; it records a resume with success that no return below low preceded.
private func produceCounted(
  _ producer: Int, count: Int, into source: consuming sending CountedChannel.Source, meter: WaterMeter,
  state: ProducerState, findings: ChannelLog
) -> Task<Void, Never> {
  var source = source
  return Task {
    for index in 0..<count {
      // Read before the send: a drain between this read and the send counts for it, so the check can miss a
      // broken promise but never invent one.
      let drainsBefore = meter.drainsBeforeSend
      let result: CountedChannel.Source.SendResult
      do {
        result = try sendNow(Counted(producer, index), to: &source)
      } catch {
        findings.record("a send threw")
        return
      }
      switch consume result {
      case .produceMore:
        continue
      case .enqueueCallback(var callback):
        state.registers()
        await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
          callback.enqueueCallback { result in
            state.resumed()
            if case .success = result, meter.drains.load(ordering: .sequentiallyConsistent) <= drainsBefore {
              findings.record("a producer resumed with no return below low since its send")
            }
            continuation.resume()
          }
          state.registered()
        }
      }
    }
  }
}
