import Testing

@testable import Ripple

// `_ChannelStateMachine` (`AsyncChannel`, `AsyncThrowingChannel`) driven as a plain value: the test calls the events
// in order and runs each action as `_ChannelStorage` does, on parked continuations (Support/Parked.swift). Map:
// - open, send: `sendRequested` → resumeConsumer (a consumer waits) or suspend(id); `senderWaits` → handOff (a
//   consumer came meanwhile), queued, or resumeProducer (cancelled, or ended meanwhile); `senderCancelled` →
//   resumeProducer while queued, else none.
// - open, next: `nextReady` → take (a sender waits) or suspend(id); `nextRequested` → handOff, queued, or nil when
//   cancelled; `consumerCancelled` → nil while queued, else none.
// - `finished` → resumeAll with nil; `failed` → resumeAll with the error to the waiting consumers, or kept for the
//   next `next()` (failed → finished); both once.
// - ended: sends return at once (none / resumeProducer), `next()` returns nil.

private typealias Machine = _ChannelStateMachine<Int, Boom>

/// Parked senders (`s0`…) and consumers (`c0`…) of one test.
private struct Parties {
  let senders: Parked<Void>
  let consumers: Parked<Result<Int?, Boom>>

  static func park(senders: Int = 0, consumers: Int = 0) async -> Parties {
    Parties(senders: await .park(senders), consumers: await .park(consumers))
  }

  func sender(_ index: Int) -> Machine.Producer { senders[index] }
  func consumer(_ index: Int) -> Machine.Consumer { consumers[index] }

  /// Runs `action` as the storage does and says what it did.
  func run(_ action: Machine.Action) -> String {
    switch action {
    case .none:
      return "none"
    case .suspend(let id):
      return "suspend \(id)"
    case .resumeProducer(let producer):
      producer.resume()
      return "s\(senders.index(of: producer)!) returns"
    case .resumeConsumer(let consumer, let result):
      consumer.resume(returning: result)
      return "c\(consumers.index(of: consumer)!) \(describe(result))"
    case .handOff(let element, let producer, let consumer):
      producer.resume()
      consumer.resume(returning: .success(element))
      return "s\(senders.index(of: producer)!) → c\(consumers.index(of: consumer)!) \(element)"
    case .take(let element, let producer):
      producer.resume()
      return "take \(element) from s\(senders.index(of: producer)!)"
    case .returnResult(let result):
      return "return \(describe(result))"
    case .resumeAll(let producers, let consumers, let result):
      for producer in producers { producer.resume() }
      for consumer in consumers { consumer.resume(returning: result) }
      let names =
        producers.map { "s\(senders.index(of: $0)!)" } + consumers.map { "c\(self.consumers.index(of: $0)!)" }
      return "all \(describe(result)): " + names.joined(separator: " ")
    }
  }
}

private func describe(_ result: Result<Int?, Boom>) -> String {
  switch result {
  case .success(let value?): "\(value)"
  case .success(nil): "nil"
  case .failure(let error): "\(error)"
  }
}

@Suite("the channel's state machine", .timeLimit(.minutes(1)))
struct ChannelStateMachineTests {
  @Test("a send with a consumer waiting hands its element over without suspending")
  func sendToWaitingConsumer() async {
    let parties = await Parties.park(consumers: 1)
    var machine = Machine()
    #expect(parties.run(machine.nextReady()) == "suspend 1")
    #expect(parties.run(machine.nextRequested(id: 1, parties.consumer(0), cancelled: false)) == "none")
    #expect(parties.run(machine.sendRequested(7)) == "c0 7")
    #expect(await parties.consumers.values() == [.success(7)])
  }

  @Test("a send with nobody waiting suspends; the next() that comes takes its element and resumes it")
  func consumerTakesFromWaitingSender() async {
    let parties = await Parties.park(senders: 1)
    var machine = Machine()
    #expect(parties.run(machine.sendRequested(7)) == "suspend 1")
    #expect(parties.run(machine.senderWaits(id: 1, 7, parties.sender(0), cancelled: false)) == "none")
    #expect(parties.run(machine.nextReady()) == "take 7 from s0")
    _ = await parties.senders.values()
  }

  @Test("a consumer that came between a sender's request and its wait: handOff")
  func senderWaitsFindsConsumer() async {
    let parties = await Parties.park(senders: 1, consumers: 1)
    var machine = Machine()
    #expect(parties.run(machine.sendRequested(7)) == "suspend 1")
    #expect(parties.run(machine.nextReady()) == "suspend 2")
    #expect(parties.run(machine.nextRequested(id: 2, parties.consumer(0), cancelled: false)) == "none")
    #expect(parties.run(machine.senderWaits(id: 1, 7, parties.sender(0), cancelled: false)) == "s0 → c0 7")
    #expect(await parties.consumers.values() == [.success(7)])
  }

  @Test("a sender that came between a consumer's request and its wait: handOff")
  func nextRequestedFindsSender() async {
    let parties = await Parties.park(senders: 1, consumers: 1)
    var machine = Machine()
    #expect(parties.run(machine.nextReady()) == "suspend 1")
    #expect(parties.run(machine.sendRequested(7)) == "suspend 2")
    #expect(parties.run(machine.senderWaits(id: 2, 7, parties.sender(0), cancelled: false)) == "none")
    #expect(parties.run(machine.nextRequested(id: 1, parties.consumer(0), cancelled: false)) == "s0 → c0 7")
    #expect(await parties.consumers.values() == [.success(7)])
  }

  @Test("senders and consumers are each served first come, first served")
  func fifo() async {
    let parties = await Parties.park(senders: 2, consumers: 2)
    var machine = Machine()
    #expect(parties.run(machine.sendRequested(1)) == "suspend 1")
    #expect(parties.run(machine.senderWaits(id: 1, 1, parties.sender(0), cancelled: false)) == "none")
    #expect(parties.run(machine.sendRequested(2)) == "suspend 2")
    #expect(parties.run(machine.senderWaits(id: 2, 2, parties.sender(1), cancelled: false)) == "none")
    #expect(parties.run(machine.nextReady()) == "take 1 from s0")
    #expect(parties.run(machine.nextReady()) == "take 2 from s1")
    #expect(parties.run(machine.nextReady()) == "suspend 3")
    #expect(parties.run(machine.nextRequested(id: 3, parties.consumer(0), cancelled: false)) == "none")
    #expect(parties.run(machine.nextReady()) == "suspend 4")
    #expect(parties.run(machine.nextRequested(id: 4, parties.consumer(1), cancelled: false)) == "none")
    #expect(parties.run(machine.sendRequested(3)) == "c0 3")
    #expect(parties.run(machine.sendRequested(4)) == "c1 4")
    #expect(await parties.consumers.values() == [.success(3), .success(4)])
  }

  @Test("a cancelled sender: resumed when it waits, dropped from the queue; its element is lost")
  func senderCancellation() async {
    let parties = await Parties.park(senders: 2, consumers: 1)
    var machine = Machine()
    #expect(parties.run(machine.sendRequested(1)) == "suspend 1")
    #expect(parties.run(machine.senderWaits(id: 1, 1, parties.sender(0), cancelled: true)) == "s0 returns")
    #expect(parties.run(machine.sendRequested(2)) == "suspend 2")
    #expect(parties.run(machine.senderWaits(id: 2, 2, parties.sender(1), cancelled: false)) == "none")
    #expect(parties.run(machine.senderCancelled(id: 2)) == "s1 returns")
    #expect(parties.run(machine.senderCancelled(id: 2)) == "none")
    #expect(parties.run(machine.nextReady()) == "suspend 3")
    #expect(parties.run(machine.nextRequested(id: 3, parties.consumer(0), cancelled: false)) == "none")
    #expect(parties.run(machine.finished()) == "all nil: c0")
    #expect(await parties.consumers.values() == [.success(nil)])
  }

  @Test("a cancelled consumer: nil when it waits, dropped from the queue; it takes nothing")
  func consumerCancellation() async {
    let parties = await Parties.park(consumers: 2)
    var machine = Machine()
    #expect(parties.run(machine.nextReady()) == "suspend 1")
    #expect(parties.run(machine.nextRequested(id: 1, parties.consumer(0), cancelled: true)) == "c0 nil")
    #expect(parties.run(machine.nextReady()) == "suspend 2")
    #expect(parties.run(machine.nextRequested(id: 2, parties.consumer(1), cancelled: false)) == "none")
    #expect(parties.run(machine.consumerCancelled(id: 2)) == "c1 nil")
    #expect(parties.run(machine.consumerCancelled(id: 2)) == "none")
    #expect(parties.run(machine.sendRequested(7)) == "suspend 3", "the sender finds no consumer")
    #expect(await parties.consumers.values() == [.success(nil), .success(nil)])
  }

  @Test("finish resumes every waiting sender and every waiting consumer with nil, once")
  func finishResumesEveryone() async {
    let parties = await Parties.park(senders: 2, consumers: 2)
    var machine = Machine()
    #expect(parties.run(machine.sendRequested(1)) == "suspend 1")
    #expect(parties.run(machine.senderWaits(id: 1, 1, parties.sender(0), cancelled: false)) == "none")
    #expect(parties.run(machine.sendRequested(2)) == "suspend 2")
    #expect(parties.run(machine.senderWaits(id: 2, 2, parties.sender(1), cancelled: false)) == "none")
    #expect(parties.run(machine.finished()) == "all nil: s0 s1")
    #expect(parties.run(machine.finished()) == "none")
    #expect(parties.run(machine.failed(.boom)) == "none")
    #expect(parties.run(machine.nextReady()) == "return nil")
    #expect(parties.run(machine.nextRequested(id: 3, parties.consumer(0), cancelled: false)) == "c0 nil")
    #expect(parties.run(machine.nextRequested(id: 4, parties.consumer(1), cancelled: true)) == "c1 nil")
    #expect(await parties.consumers.values() == [.success(nil), .success(nil)])
  }

  @Test("after the end a send returns at once: none before its wait, resumeProducer at it")
  func sendAfterEnd() async {
    let parties = await Parties.park(senders: 1)
    var machine = Machine()
    #expect(parties.run(machine.sendRequested(1)) == "suspend 1")
    #expect(parties.run(machine.finished()) == "all nil: ")
    #expect(parties.run(machine.senderWaits(id: 1, 1, parties.sender(0), cancelled: false)) == "s0 returns")
    #expect(parties.run(machine.sendRequested(2)) == "none")
    _ = await parties.senders.values()
  }

  @Test("fail with consumers waiting: they throw, the senders return, the channel is finished")
  func failWithWaitingConsumers() async {
    let parties = await Parties.park(consumers: 3)
    var machine = Machine()
    #expect(parties.run(machine.nextReady()) == "suspend 1")
    #expect(parties.run(machine.nextRequested(id: 1, parties.consumer(0), cancelled: false)) == "none")
    #expect(parties.run(machine.nextReady()) == "suspend 2")
    #expect(parties.run(machine.nextRequested(id: 2, parties.consumer(1), cancelled: false)) == "none")
    #expect(parties.run(machine.failed(.boom)) == "all boom: c0 c1")
    #expect(parties.run(machine.nextRequested(id: 3, parties.consumer(2), cancelled: false)) == "c2 nil")
    #expect(await parties.consumers.values() == [.failure(.boom), .failure(.boom), .success(nil)])
  }

  @Test("fail with nobody waiting: the senders return, the next next() throws, once; then nil")
  func failKeptForNextConsumer() async {
    let parties = await Parties.park(senders: 1, consumers: 1)
    var machine = Machine()
    #expect(parties.run(machine.sendRequested(1)) == "suspend 1")
    #expect(parties.run(machine.senderWaits(id: 1, 1, parties.sender(0), cancelled: false)) == "none")
    #expect(parties.run(machine.failed(.boom)) == "all boom: s0")
    #expect(parties.run(machine.sendRequested(2)) == "none")
    #expect(parties.run(machine.nextReady()) == "return boom")
    #expect(parties.run(machine.nextReady()) == "return nil")
    #expect(parties.run(machine.nextRequested(id: 2, parties.consumer(0), cancelled: false)) == "c0 nil")
    #expect(await parties.consumers.values() == [.success(nil)])
  }

  @Test("fail with nobody waiting: a consumer registering after its request throws the error, once")
  func failFoundByWaitingConsumer() async {
    let parties = await Parties.park(consumers: 2)
    var machine = Machine()
    #expect(parties.run(machine.nextReady()) == "suspend 1")
    #expect(parties.run(machine.failed(.boom)) == "all boom: ")
    #expect(parties.run(machine.nextRequested(id: 1, parties.consumer(0), cancelled: false)) == "c0 boom")
    #expect(parties.run(machine.nextRequested(id: 2, parties.consumer(1), cancelled: false)) == "c1 nil")
    #expect(await parties.consumers.values() == [.failure(.boom), .success(nil)])
  }
}
