import InternalRippleUtilities
import Synchronization
import Testing

@testable import Ripple

// The multi-producer single-consumer channel's state machine driven as a plain value: every event in every state it
// can meet, with no task, no clock and no lock. The consumer's side of the gauge is played by the test, as the
// consumer's `returned(weight:)` does it. Only the tests that need a waiting consumer make a continuation, in the
// test's own task, and resume it before they return.

private typealias Machine = _MPSCChannelStateMachine<Int, Boom>
private typealias Producer = Machine.Producer

/// A test's machine, its gauge, a log of what the actions did, and the consumer's batch and progress.
private struct Harness: ~Copyable {
  var machine: Machine
  let gauge: _MPSCConsumerGauge
  let log = EffectLog()
  var batch = _Queue<Int>()
  var returned = 0

  init(low: Int, high: Int, waterLevel: Machine.WaterLevel? = nil) {
    gauge = _MPSCConsumerGauge()
    machine = Machine(low: low, high: high, waterLevel: waterLevel, gauge: gauge)
  }

  /// A producer that logs `"name result"` when resumed.
  func producer(_ name: String) -> Producer {
    let log = log
    return .callback { result in
      switch result {
      case .success: log.record("\(name) more")
      case .failure(let error as Boom): log.record("\(name) \(error)")
      case .failure(is CancellationError): log.record("\(name) cancelled")
      case .failure(is MultiProducerSingleConsumerAsyncChannelAlreadyFinishedError): log.record("\(name) finished")
      case .failure(let error): log.record("\(name) \(error)")
      }
    }
  }

  /// A termination callback that logs `"terminated name"`.
  func onTermination(_ name: String) -> Machine.OnTermination {
    let log = log
    return { log.record("terminated \(name)") }
  }

  /// Sends `value` and says what the send answered: "more", or "wait <token>".
  mutating func send(_ value: Int) -> String { run(machine.sent(value)) }

  mutating func send(contentsOf values: [Int]) -> String { run(machine.sent(contentsOf: values)) }

  /// The consumer returns `count` elements of its batch (each of weight 1 unless `weight` says otherwise), as
  /// `next()` does; reports to the machine when the gauge says so. Returns the elements.
  @discardableResult
  mutating func consume(_ count: Int, weight: (Int) -> Int = { _ in 1 }) -> [Int] {
    var values: [Int] = []
    for _ in 0..<count {
      let value = batch.popFirst()!
      values.append(value)
      returned += weight(value)
      if gauge.consumerReturned(total: returned) {
        log.record("report")
        log.record(run(machine.resumePointReached(returned: returned)))
      }
    }
    return values
  }

  /// The consumer's batch is empty: it asks for the next one.
  mutating func requestBatch(cancelled: Bool = false) -> String {
    precondition(batch.isEmpty || cancelled)
    if cancelled { batch = _Queue() }
    return run(machine.batchRequested(into: &batch, returned: returned, cancelled: cancelled))
  }

  /// Runs an action as the storage does, logging its effects; returns what it tells the caller.
  func run(_ action: consuming Machine.Action) -> String {
    switch consume action {
    case .none:
      return "none"
    case .returnSendResult(let token, let consumer):
      if let consumer { log.record("consumer woken"); consumer.resume() }
      return token.map { "wait \($0)" } ?? "more"
    case .returnSendResultResumingProducers(let token, let consumer, let producers):
      if let consumer { log.record("consumer woken"); consumer.resume() }
      for producer in producers { producer.resume(failing: nil) }
      return token.map { "wait \($0)" } ?? "more"
    case .throwAlreadyFinished:
      return "throws finished"
    case .resumeProducer(let producer, let error):
      producer.resume(failing: error)
      return "resume one"
    case .resumeProducers(let producers):
      for producer in producers { producer.resume(failing: nil) }
      return "resume \(producers.count)"
    case .finish(let consumer, let producers):
      if let consumer { log.record("consumer woken"); consumer.resume() }
      for producer in producers {
        producer.resume(failing: MultiProducerSingleConsumerAsyncChannelAlreadyFinishedError())
      }
      return "finish"
    case .terminate(let consumer, let producers, let callbacks, let dropped):
      if let consumer { log.record("consumer woken"); consumer.resume() }
      for producer in producers {
        producer.resume(failing: MultiProducerSingleConsumerAsyncChannelAlreadyFinishedError())
      }
      for callback in callbacks { callback() }
      return "terminate, dropping \(dropped.count)"
    case .serveBatch(let level, let producers):
      for producer in producers { producer.resume(failing: nil) }
      return level == batch.count ? "serve \(batch.count)" : "serve \(batch.count) at level \(level)"
    case .suspendConsumer(let producers):
      for producer in producers { producer.resume(failing: nil) }
      return "suspend consumer"
    case .returnEnd(let failure, let callbacks):
      for callback in callbacks { callback() }
      return failure.map { "end \($0)" } ?? "end nil"
    case .resumeConsumer(let consumer):
      log.record("consumer woken")
      consumer.resume()
      return "resume consumer"
    case .callOnTermination(let callback):
      callback()
      return "call on termination"
    }
  }

  var resumeAt: Int { gauge.resumeAt.load(ordering: .sequentiallyConsistent) }
}

/// What the actions did, in order.
private final class EffectLog: Sendable {
  private let entries = _Mutex<[String]>([])

  func record(_ entry: String) { entries.withLock { $0.append(entry) } }

  /// The entries so far, emptying the log.
  func take() -> [String] {
    entries.withLock { entries in
      defer { entries = [] }; return entries
    }
  }
}

@Suite("MPSC channel state machine")
struct MPSCChannelStateMachineTests {
  // MARK: Sends and the high watermark

  @Test("a send below high says produce more; one that makes the level high hands out a token")
  func sendAtHigh() {
    var h = Harness(low: 2, high: 4)
    #expect([h.send(1), h.send(2), h.send(3)] == ["more", "more", "more"])
    #expect(h.send(4) == "wait 1")
    #expect(h.send(5) == "wait 2")
    #expect(h.machine.buffer.count == 5)
    #expect(h.machine.sentLevel == 5)
  }

  @Test("the level is the sum of waterLevelForElement over the elements")
  func weightedLevel() {
    var h = Harness(low: 3, high: 10, waterLevel: { $0 })
    #expect(h.send(6) == "more")
    #expect(h.send(3) == "more")
    #expect(h.send(1) == "wait 1")
    #expect(h.machine.sentLevel == 10)
    #expect(h.requestBatch() == "serve 3 at level 10")
    #expect(h.machine.bufferLevel == 0)
  }

  @Test("sent(contentsOf:) buffers the whole sequence and decides once, after it")
  func sendContentsOf() {
    var h = Harness(low: 2, high: 4)
    #expect(h.send(contentsOf: [1, 2, 3, 4, 5, 6]) == "wait 1")
    #expect(h.machine.buffer.count == 6)
    #expect(h.send(contentsOf: []) == "wait 2")
  }

  @Test("the level counts what the consumer took in its batch and has not returned, not what it returned")
  func levelCountsUnreturned() {
    // Issue #28 2a: the consumer took 1, 2, 3 in one batch and returned 1 (without the lock): the level is 2, and
    // a send makes it 3, below high. The send learns the consumer's progress from the gauge.
    var h = Harness(low: 2, high: 4)
    _ = [h.send(1), h.send(2), h.send(3)]
    #expect(h.requestBatch() == "serve 3")
    #expect(h.machine.buffer.isEmpty)
    #expect(h.consume(1) == [1])
    #expect(h.machine.returnedLevel == 0)  // not reported: the send below reads it
    #expect(h.send(4) == "more")
    #expect(h.machine.returnedLevel == 1)
    #expect(h.send(5) == "wait 1")  // 2, 3, 4, 5 outstanding
  }

  @Test("a send wakes the waiting consumer when it buffered something, and an empty send does not")
  func sendWakesConsumer() async {
    var h = Harness(low: 2, high: 4)
    #expect(h.requestBatch() == "suspend consumer")
    await withUnsafeContinuation { (consumer: UnsafeContinuation<Void, Never>) in
      #expect(h.run(h.machine.nextRequested(consumer, cancelled: false)) == "none")
      #expect(h.machine.consumer != nil)
      #expect(h.send(contentsOf: []) == "more")
      #expect(h.log.take() == [])
      #expect(h.send(1) == "more")
      #expect(h.log.take() == ["consumer woken"])
    }
    #expect(h.machine.consumer == nil)
    #expect(h.send(2) == "more")
    #expect(h.log.take() == [])
  }

  @Test("sends throw the already-finished error once a source finished, or the consumer went away")
  func sendAfterEnd() {
    var finished = Harness(low: 2, high: 4)
    _ = finished.run(finished.machine.finished(nil))
    #expect(finished.send(1) == "throws finished")
    #expect(finished.send(contentsOf: [1]) == "throws finished")
    var gone = Harness(low: 2, high: 4)
    _ = gone.run(gone.machine.consumerTerminated())
    #expect(gone.send(1) == "throws finished")
  }

  // MARK: Waiting producers

  @Test("waiting producers resume, in the order they began waiting, at the return that takes the level below low")
  func resumeBelowLow() {
    var h = Harness(low: 2, high: 4)
    _ = [h.send(1), h.send(2), h.send(3)]
    #expect(h.send(4) == "wait 1")
    // The point: the level (4 - returned) is below 2 once 3 are returned.
    #expect(h.resumeAt == 3)
    #expect(h.run(h.machine.producerWaits(token: 1, h.producer("a"))) == "none")
    #expect(h.requestBatch() == "serve 4")
    h.consume(1)
    #expect(h.send(5) == "wait 2")  // level 4 again
    #expect(h.run(h.machine.producerWaits(token: 2, h.producer("b"))) == "none")
    h.consume(2)  // level 2, at the published point 3 returned: the sends moved it on, and the consumer is told
    #expect(h.log.take() == ["report", "none"])
    #expect(h.resumeAt == 4)
    h.consume(1)  // 4 returned, level 1
    #expect(h.log.take() == ["report", "a more", "b more", "resume 2"])
    #expect(h.machine.drainedThrough == 2)
    #expect(h.resumeAt == .max)
    #expect(h.machine.suspended.isEmpty)
  }

  @Test("a producer whose token was drained before it registered resumes at once")
  func registerAfterDrain() {
    var h = Harness(low: 2, high: 4)
    #expect(h.send(contentsOf: [1, 2, 3, 4]) == "wait 1")
    #expect(h.requestBatch() == "serve 4")
    h.consume(3)
    #expect(h.log.take() == ["report", "none"])  // drained: nobody was waiting yet
    #expect(h.machine.drainedThrough == 1)
    #expect(h.run(h.machine.producerWaits(token: 1, h.producer("a"))) == "resume one")
    #expect(h.log.take() == ["a more"])
  }

  @Test("another producer's send below high drains no token: the level never fell below low (issue #28 2b)")
  func sendBelowHighDrainsNothing() {
    var h = Harness(low: 2, high: 4)
    #expect(h.send(contentsOf: [1, 2, 3]) == "more")
    #expect(h.send(4) == "wait 1")  // a
    #expect(h.requestBatch() == "serve 4")
    h.consume(1)  // level 3
    #expect(h.send(5) == "wait 2")  // b, level 4
    #expect(h.run(h.machine.producerWaits(token: 2, h.producer("b"))) == "none")
    h.consume(2)  // level 2
    #expect(h.send(6) == "more")  // c, level 3
    #expect(h.run(h.machine.producerWaits(token: 1, h.producer("a"))) == "none")
    #expect(h.log.take() == ["report", "none"])  // the consumer passed the first point; sends had moved it
    h.consume(1)  // level 2, at the point the consumer was told: moved on again by c's send
    #expect(h.log.take() == ["report", "none"])
    #expect(h.requestBatch() == "serve 2")
    #expect(h.log.take() == [])
    h.consume(1)  // level 1
    #expect(h.log.take() == ["report", "b more", "a more", "resume 2"])
  }

  @Test("a token cancelled before its producer registers fails the registration; a waiting one fails at once")
  func producerCancelled() {
    var h = Harness(low: 1, high: 1)
    #expect(h.send(1) == "wait 1")
    #expect(h.send(2) == "wait 2")
    #expect(h.run(h.machine.producerCancelled(token: 1)) == "none")
    #expect(h.machine.cancelledTokens == [1])
    #expect(h.run(h.machine.producerWaits(token: 1, h.producer("a"))) == "resume one")
    #expect(h.log.take() == ["a cancelled"])
    #expect(h.run(h.machine.producerWaits(token: 2, h.producer("b"))) == "none")
    #expect(h.run(h.machine.producerCancelled(token: 2)) == "resume one")
    #expect(h.log.take() == ["b cancelled"])
    // A token already resumed (or never handed out) is ignored.
    #expect(h.run(h.machine.producerCancelled(token: 2)) == "none")
    #expect(h.run(h.machine.producerCancelled(token: 9)) == "none")
    #expect(h.machine.cancelledTokens.isEmpty)
  }

  @Test("a producer registering after the channel ended fails with the already-finished error")
  func registerAfterEnd() {
    var h = Harness(low: 1, high: 1)
    #expect(h.send(1) == "wait 1")
    _ = h.run(h.machine.finished(nil))
    #expect(h.run(h.machine.producerWaits(token: 1, h.producer("a"))) == "resume one")
    #expect(h.log.take() == ["a finished"])
  }

  @Test("an empty send at a high watermark of 0 hands out a token that is drained already: the level is below low")
  func emptySendAtHighZero() {
    var h = Harness(low: 0, high: 0)
    #expect(h.send(contentsOf: []) == "wait 1")
    #expect(h.machine.drainedThrough == 1)
    #expect(h.resumeAt == .max)
    #expect(h.run(h.machine.producerWaits(token: 1, h.producer("a"))) == "resume one")
    #expect(h.log.take() == ["a more"])
    // A non-empty send there waits until the consumer has returned everything.
    #expect(h.send(1) == "wait 2")
    #expect(h.run(h.machine.producerWaits(token: 2, h.producer("b"))) == "none")
    #expect(h.resumeAt == 1)
    #expect(h.requestBatch() == "serve 1")
    h.consume(1)
    #expect(h.log.take() == ["report", "b more", "resume 1"])
  }

  @Test("the consumer's batch request reports what it returned, which may drain the tokens, also with nothing to take")
  func batchRequestDrains() {
    var h = Harness(low: 2, high: 2)
    #expect(h.send(contentsOf: [1, 2]) == "wait 1")
    #expect(h.run(h.machine.producerWaits(token: 1, h.producer("a"))) == "none")
    #expect(h.requestBatch() == "serve 2")
    // The consumer returns both without meeting the point (as if it had read the gauge before it was published),
    // then asks for more: the request itself takes the level (0) in.
    h.batch = _Queue()
    h.returned = 2
    h.gauge.returned.store(2, ordering: .sequentiallyConsistent)
    #expect(h.requestBatch() == "suspend consumer")
    #expect(h.log.take() == ["a more"])
  }

  // MARK: Finishing

  @Test("finish keeps the buffered elements, fails the waiting producers, wakes the consumer and withdraws the point")
  func finish() async {
    var h = Harness(low: 1, high: 2)
    #expect(h.send(contentsOf: [1, 2]) == "wait 1")
    #expect(h.run(h.machine.producerWaits(token: 1, h.producer("a"))) == "none")
    #expect(h.send(3) == "wait 2")
    #expect(h.resumeAt != .max)
    #expect(h.run(h.machine.finished(Boom.boom)) == "finish")
    #expect(h.log.take() == ["a finished"])
    #expect(h.resumeAt == .max)
    #expect(h.machine.issuedTokens.isEmpty)
    #expect(h.run(h.machine.finished(nil)) == "none")
    #expect(h.requestBatch() == "serve 3")
    h.consume(3)
    #expect(h.requestBatch() == "end boom")
    #expect(h.requestBatch() == "end nil")

    var waiting = Harness(low: 1, high: 2)
    #expect(waiting.requestBatch() == "suspend consumer")
    await withUnsafeContinuation { (consumer: UnsafeContinuation<Void, Never>) in
      #expect(waiting.run(waiting.machine.nextRequested(consumer, cancelled: false)) == "none")
      #expect(waiting.run(waiting.machine.finished(nil)) == "finish")
    }
    #expect(waiting.log.take() == ["consumer woken"])
    #expect(waiting.requestBatch() == "end nil")
  }

  @Test("the last source going away finishes the channel; a source made after the end does not count")
  func sourcesCount() {
    var h = Harness(low: 1, high: 2)
    let first = h.machine.sourceInitialized()
    let second = h.machine.sourceInitialized()
    #expect(second == first + 1)
    #expect(h.run(h.machine.sourceDeinitialized()) == "none")
    #expect(h.run(h.machine.sourceDeinitialized()) == "finish")
    _ = h.machine.sourceInitialized()
    #expect(h.machine.activeSources == 0)
    #expect(h.run(h.machine.sourceDeinitialized()) == "none")
  }

  // MARK: The consumer

  @Test("a batch request swaps the whole buffer into the consumer's batch")
  func batchSwap() {
    var h = Harness(low: 2, high: 8)
    _ = h.send(contentsOf: [1, 2, 3])
    #expect(h.requestBatch() == "serve 3")
    #expect(h.machine.buffer.isEmpty)
    #expect(h.consume(3) == [1, 2, 3])
    _ = h.send(4)
    #expect(h.requestBatch() == "serve 1")
  }

  @Test("the consumer registering to wait re-checks: a send or an end in between resumes it at once")
  func nextRequestedRechecks() async {
    var h = Harness(low: 2, high: 8)
    #expect(h.requestBatch() == "suspend consumer")
    _ = h.send(1)
    await withUnsafeContinuation { (consumer: UnsafeContinuation<Void, Never>) in
      #expect(h.run(h.machine.nextRequested(consumer, cancelled: false)) == "resume consumer")
    }
    #expect(h.requestBatch() == "serve 1")
    h.consume(1)
    _ = h.run(h.machine.finished(nil))
    await withUnsafeContinuation { (consumer: UnsafeContinuation<Void, Never>) in
      #expect(h.run(h.machine.nextRequested(consumer, cancelled: false)) == "resume consumer")
    }
    #expect(h.log.take() == ["consumer woken", "consumer woken"])
  }

  @Test("a consumer cancelled while it registers, or while it waits, ends the channel for everyone")
  func consumerCancelled() async {
    var h = Harness(low: 1, high: 1)
    h.machine.setOnTermination(source: 1, h.onTermination("a")).assertNone()
    #expect(h.requestBatch() == "suspend consumer")
    await withUnsafeContinuation { (consumer: UnsafeContinuation<Void, Never>) in
      #expect(h.run(h.machine.nextRequested(consumer, cancelled: true)) == "terminate, dropping 0")
    }
    #expect(h.log.take() == ["consumer woken", "terminated a"])
    #expect(h.run(h.machine.consumerCancelled()) == "none")

    var waiting = Harness(low: 1, high: 1)
    #expect(waiting.requestBatch() == "suspend consumer")
    await withUnsafeContinuation { (consumer: UnsafeContinuation<Void, Never>) in
      #expect(waiting.run(waiting.machine.nextRequested(consumer, cancelled: false)) == "none")
      #expect(waiting.run(waiting.machine.consumerCancelled()) == "terminate, dropping 0")
    }
    #expect(waiting.log.take() == ["consumer woken"])
    #expect(waiting.send(1) == "throws finished")
  }

  @Test("a cancelled batch request ends the channel: buffer dropped, producers failed, callbacks called")
  func cancelledBatchRequest() {
    var h = Harness(low: 1, high: 2)
    h.machine.setOnTermination(source: 1, h.onTermination("a")).assertNone()
    #expect(h.send(contentsOf: [1, 2]) == "wait 1")
    #expect(h.run(h.machine.producerWaits(token: 1, h.producer("p"))) == "none")
    #expect(h.requestBatch(cancelled: true) == "terminate, dropping 2")
    #expect(h.log.take() == ["p finished", "terminated a"])
    #expect(h.resumeAt == .max)
    #expect(h.requestBatch(cancelled: true) == "end nil")
    #expect(h.requestBatch() == "end nil")
  }

  @Test("the consumer going away after the end resumes only a consumer that waits")
  func consumerTerminatedAfterEnd() async {
    var h = Harness(low: 1, high: 2)
    #expect(h.run(h.machine.consumerTerminated()) == "terminate, dropping 0")
    #expect(h.run(h.machine.consumerTerminated()) == "none")
    await withUnsafeContinuation { (consumer: UnsafeContinuation<Void, Never>) in
      #expect(h.run(h.machine.consumerTerminated(resuming: consumer)) == "resume consumer")
    }
  }

  @Test("the channel's deinit ends it unless elements() made a sequence; the sequence's unless it made an iterator")
  func lifetimes() {
    var channelOnly = Harness(low: 1, high: 2)
    #expect(channelOnly.run(channelOnly.machine.channelDeinitialized()) == "terminate, dropping 0")

    var sequence = Harness(low: 1, high: 2)
    sequence.machine.sequenceMade = true
    #expect(sequence.run(sequence.machine.channelDeinitialized()) == "none")
    #expect(sequence.run(sequence.machine.sequenceDeinitialized()) == "terminate, dropping 0")

    var iterator = Harness(low: 1, high: 2)
    iterator.machine.sequenceMade = true
    iterator.machine.iteratorInitialized()
    let iteratorMade = iterator.machine.iteratorMade
    #expect(iteratorMade)
    #expect(iterator.run(iterator.machine.channelDeinitialized()) == "none")
    #expect(iterator.run(iterator.machine.sequenceDeinitialized()) == "none")
    #expect(iterator.send(1) == "more")
  }

  @Test("termination callbacks: one per source, replaced or removed; set after the end, called at once")
  func terminationCallbacks() {
    var h = Harness(low: 1, high: 2)
    h.machine.setOnTermination(source: 1, h.onTermination("first")).assertNone()
    h.machine.setOnTermination(source: 1, h.onTermination("replaced")).assertNone()
    h.machine.setOnTermination(source: 2, h.onTermination("removed")).assertNone()
    h.machine.setOnTermination(source: 2, nil).assertNone()
    h.machine.setOnTermination(source: 3, h.onTermination("third")).assertNone()
    _ = h.run(h.machine.finished(nil))
    #expect(h.log.take() == [])
    #expect(h.requestBatch() == "end nil")
    #expect(h.log.take() == ["terminated replaced", "terminated third"])
    #expect(h.run(h.machine.setOnTermination(source: 4, h.onTermination("late"))) == "call on termination")
    #expect(h.log.take() == ["terminated late"])
    #expect(h.run(h.machine.setOnTermination(source: 4, nil)) == "none")
  }

  #if os(macOS) || os(Linux) || os(FreeBSD) || os(Windows)  // where Swift Testing runs exit tests
  @Test("a second iterator is a precondition failure")
  func secondIterator() async {
    await #expect(processExitsWith: .failure) {
      var machine = Machine(low: 1, high: 2, waterLevel: nil, gauge: _MPSCConsumerGauge())
      machine.iteratorInitialized()
      machine.iteratorInitialized()
    }
  }
  #endif
}

extension _MPSCChannelStateMachine.Action {
  /// Fails the test unless the action is `.none`.
  fileprivate consuming func assertNone(sourceLocation: SourceLocation = #_sourceLocation) {
    guard case .none = consume self else {
      Issue.record("expected no action", sourceLocation: sourceLocation)
      return
    }
  }
}
