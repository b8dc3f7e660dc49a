import InternalRippleUtilities
import Testing

@testable import Ripple

/// Plays a subject's timeline, one character of `sends` per tick (a letter is sent, `|` finishes, `^` fails), with
/// an iterator made at each tick of `joins` (before that tick's send). After each tick every iterator takes what it
/// has without waiting, so each line shows when it got what: `-` nothing, a letter, `[ab]` several, `|` or `^` its
/// end. `send` is synchronous, so the timeline needs no clock.
func subjectTimeline(
  _ sends: String, joins: [Int], ticks: Int? = nil,
  storage: _SubjectStorage<String, Boom>
) async -> [String] {
  let sends = Array(sends)
  var sides: [_SubjectSide<String, Boom>?] = joins.map { _ in nil }
  var ended = joins.map { _ in false }
  var lines = joins.map { _ in "" }
  for tick in 0..<(ticks ?? sends.count) {
    for (index, join) in joins.enumerated() where join == tick { sides[index] = _SubjectSide(storage) }
    if tick < sends.count {
      switch sends[tick] {
      case "-": break
      case "|": storage.send(.finished)
      case "^": storage.send(.failure(.boom))
      case let letter: storage.send(String(letter))
      }
    }
    for index in joins.indices {
      guard let side = sides[index], !ended[index] else {
        lines[index] += "-"
        continue
      }
      var events: [String] = []
      while available(side) > 0 {
        events.append((try? await side.next(isolation: nil)) ?? "?")
      }
      if terminated(storage) {
        do {
          events.append(try await side.next(isolation: nil) == nil ? "|" : "?")
        } catch {
          events.append("^")
        }
        ended[index] = true
      }
      lines[index] += events.isEmpty ? "-" : events.count == 1 ? events[0] : "[" + events.joined() + "]"
    }
  }
  return lines
}

/// How many elements a side can take without waiting.
private func available<Failure>(_ side: _SubjectSide<String, Failure>) -> Int {
  side.batch.count
    + side.storage.machine.withLock { machine in
      machine.isLive(side.id) ? machine.sides[side.id.index]!.buffer.count : 0
    }
}

private func terminated<Failure>(_ storage: _SubjectStorage<String, Failure>) -> Bool {
  storage.machine.withLock { machine in
    if case .terminated = machine.state { return true }
    return false
  }
}

/// The timelines of `Subjects.md`, run. Change both together.
@Suite("Subject diagrams", .timeLimit(.minutes(1)))
struct SubjectDiagramTests {
  @Test("Subjects.md: passthrough")
  func passthrough() async {
    let subject = AsyncThrowingPassthroughSubject<String, Boom>()
    let lines = await subjectTimeline("a-b-c-d-|", joins: [0, 3, 9], ticks: 10, storage: subject.storage)
    #expect(lines == ["a-b-c-d-|-", "----c-d-|-", "---------|"])
  }

  @Test("Subjects.md: current value")
  func currentValue() async {
    let subject = AsyncThrowingCurrentValueSubject<String, Boom>("a")
    let lines = await subjectTimeline("-b-c-^", joins: [0, 2, 6], ticks: 7, storage: subject.storage)
    #expect(lines == ["ab-c-^-", "--bc-^-", "------^"])
  }

  @Test("Subjects.md: replay")
  func replay() async {
    let subject = AsyncThrowingReplaySubject<String, Boom>(bufferSize: 2)
    let lines = await subjectTimeline("a-b-c-d-|", joins: [0, 5, 9], ticks: 10, storage: subject.storage)
    #expect(lines == ["a-b-c-d-|-", "-----[bc]d-|-", "---------[cd|]"])
  }
}

/// The timeline of `BufferedChannel.md`, run: one consumer made at tick `join` takes, after each tick, what it can
/// without waiting.
@Suite("Buffered channel diagrams", .timeLimit(.minutes(1)))
struct BufferedChannelDiagramTests {
  @Test("BufferedChannel.md")
  func consumerJoinsLate() async {
    let channel = AsyncBufferedChannel<String>()
    let sends = Array("a-b---c-|")
    var consumer: _BufferedChannelConsumer<String, Never>?
    var line = ""
    var ended = false
    for tick in sends.indices {
      if tick == 3 { consumer = _BufferedChannelConsumer(channel.storage) }
      switch sends[tick] {
      case "-": break
      case "|": channel.finish()
      case let letter: channel.send(String(letter))
      }
      guard let consumer, !ended else {
        line += "-"
        continue
      }
      var events: [String] = []
      let (buffered, finished) = channel.storage.machine.withLock { machine in
        if case .ended = machine.state { return (machine.buffer.count, true) }
        return (machine.buffer.count, false)
      }
      for _ in 0..<buffered {
        events.append(await consumer.next(isolation: nil) ?? "?")
      }
      if finished {
        events.append(await consumer.next(isolation: nil) == nil ? "|" : "?")
        ended = true
      }
      line += events.isEmpty ? "-" : events.count == 1 ? events[0] : "[" + events.joined() + "]"
    }
    #expect(line == "---[ab]--c-|")
  }
}

/// The timeline of `Multicast.md`, run: a replay subject of 1, connected at tick 0; a probe iterator of the subject
/// waits for each element the connection forwards, so that every tick is complete before the iterators take what
/// they can without waiting.
@Suite("Multicast diagrams", .timeLimit(.minutes(1)))
struct MulticastDiagramTests {
  @Test("Multicast.md")
  func replayOne() async {
    let base = AsyncBufferedChannel<String>()
    let subject = AsyncReplaySubject<String>(bufferSize: 1)
    let shared = base.multicast(subject).autoconnect()
    var probe = subject.makeAsyncIterator()
    let sends = Array("a-b-c-|")
    let joins = [0, 3]
    var iterators: [AsyncMulticastSequence<AsyncBufferedChannel<String>, AsyncReplaySubject<String>>.Iterator?] = [
      nil, nil,
    ]
    var lines = ["", ""]
    var ended = [false, false]
    shared.connect()
    for tick in sends.indices {
      for (index, join) in joins.enumerated() where join == tick { iterators[index] = shared.makeAsyncIterator() }
      switch sends[tick] {
      case "-": break
      case "|":
        base.finish()
        #expect(await probe.next() == nil)
      case let letter:
        base.send(String(letter))
        #expect(await probe.next() == String(letter))
      }
      for index in joins.indices {
        guard var iterator = iterators[index], !ended[index] else {
          lines[index] += "-"
          continue
        }
        var events: [String] = []
        for _ in 0..<available(iterator.iterator.side) { events.append(await iterator.next() ?? "?") }
        if terminated(subject.storage) {
          events.append(await iterator.next() == nil ? "|" : "?")
          ended[index] = true
        }
        iterators[index] = iterator
        lines[index] += events.isEmpty ? "-" : events.count == 1 ? events[0] : "[" + events.joined() + "]"
      }
    }
    #expect(lines == ["a-b-c-|", "---bc-|"])
  }
}
