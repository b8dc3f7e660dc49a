import InternalRippleUtilities
import RippleTesting
import Synchronization
import Testing

@testable import Ripple

/// What the tasks of a lockstep test did, in order; read between `advance(by: .zero)` steps.
private final class Events<Value: Sendable>: Sendable {
  private let values = _Mutex<[Value]>([])

  func record(_ value: Value) { values.withLock { $0.append(value) } }

  var all: [Value] { values.withLock { $0 } }
}

/// Every test that needs to know what is waiting runs in a lockstep scope: `advance(by: .zero)` returns once every
/// task has run as far as it can, so "still suspended" is an observation, not a guess.
@Suite("channel", .timeLimit(.minutes(3)))
struct ChannelTests {
  @Test("send waits until a consumer has taken the element")
  func sendWaitsForConsumer() async {
    let clock = TestClock()
    await clock.lockstep {
      let channel = AsyncChannel<Int>()
      let events = Events<String>()
      Task {
        await channel.send(1)
        events.record("sent")
      }
      await clock.advance(by: .zero)
      #expect(events.all == [])
      var iterator = channel.makeAsyncIterator()
      #expect(await iterator.next() == 1)
      await clock.advance(by: .zero)
      #expect(events.all == ["sent"])
    }
  }

  @Test("a consumer that waits takes the element at once and the sender returns")
  func waitingConsumerTakesAtOnce() async {
    let clock = TestClock()
    await clock.lockstep {
      let channel = AsyncChannel<Int>()
      let received = Task {
        var iterator = channel.makeAsyncIterator()
        return await iterator.next()
      }
      await clock.advance(by: .zero)
      await channel.send(7)
      #expect(await received.value == 7)
    }
  }

  @Test("waiting senders are served in the order they began waiting")
  func sendersInOrder() async {
    let clock = TestClock()
    await clock.lockstep {
      let channel = AsyncChannel<Int>()
      let events = Events<Int>()
      for value in 1...4 {
        Task {
          await channel.send(value)
          events.record(value)
        }
        await clock.advance(by: .zero)
      }
      var iterator = channel.makeAsyncIterator()
      var received: [Int] = []
      for _ in 1...4 { received.append(await iterator.next()!) }
      await clock.advance(by: .zero)
      #expect(received == [1, 2, 3, 4])
      #expect(events.all == [1, 2, 3, 4])
    }
  }

  @Test("waiting consumers are served in the order they began waiting, one element each")
  func consumersInOrder() async {
    let clock = TestClock()
    await clock.lockstep {
      let channel = AsyncChannel<Int>()
      let events = Events<String>()
      for consumer in ["a", "b", "c"] {
        Task {
          var iterator = channel.makeAsyncIterator()
          let value = await iterator.next()
          events.record("\(consumer)\(value.map(String.init) ?? "nil")")
        }
        await clock.advance(by: .zero)
      }
      for value in [1, 2, 3] { await channel.send(value) }
      await clock.advance(by: .zero)
      #expect(events.all == ["a1", "b2", "c3"])
    }
  }

  @Test("finish resumes every waiting sender, dropping its element, and later sends return at once")
  func finishResumesSenders() async {
    let clock = TestClock()
    await clock.lockstep {
      let channel = AsyncChannel<Int>()
      let events = Events<Int>()
      for value in 1...3 {
        Task {
          await channel.send(value)
          events.record(value)
        }
      }
      await clock.advance(by: .zero)
      #expect(events.all == [])
      channel.finish()
      await clock.advance(by: .zero)
      #expect(events.all.sorted() == [1, 2, 3])
      await channel.send(4)
      var iterator = channel.makeAsyncIterator()
      #expect(await iterator.next() == nil)
      #expect(await iterator.next() == nil)
    }
  }

  @Test("finish ends every waiting consumer with nil, and later next() calls return nil")
  func finishEndsConsumers() async {
    let clock = TestClock()
    await clock.lockstep {
      let channel = AsyncChannel<Int>()
      let consumers = (0..<3).map { _ in
        Task {
          var iterator = channel.makeAsyncIterator()
          return await iterator.next()
        }
      }
      await clock.advance(by: .zero)
      channel.finish()
      channel.finish()
      for consumer in consumers { #expect(await consumer.value == nil) }
      for await _ in channel { Issue.record("a finished channel produced an element") }
    }
  }

  @Test("fail throws the error in every waiting consumer, then next() returns nil; senders return")
  func failWithWaitingConsumers() async throws {
    let clock = TestClock()
    try await clock.lockstep { () async throws in
      let channel = AsyncThrowingChannel<Int, Boom>()
      let events = Events<String>()
      for consumer in ["a", "b"] {
        Task {
          var iterator = channel.makeAsyncIterator()
          do throws(Boom) {
            _ = try await iterator.next()
            events.record("\(consumer) returned")
          } catch {
            events.record("\(consumer) threw")
          }
        }
        await clock.advance(by: .zero)
      }
      channel.fail(.boom)
      await clock.advance(by: .zero)
      #expect(events.all == ["a threw", "b threw"])
      var iterator = channel.makeAsyncIterator()
      #expect(try await iterator.next() == nil)
    }
  }

  @Test("fail with no consumer waiting: the next next() throws, later ones return nil; waiting senders return")
  func failWithoutWaitingConsumer() async throws {
    let clock = TestClock()
    try await clock.lockstep { () async throws in
      let channel = AsyncThrowingChannel<Int, Boom>()
      let events = Events<Int>()
      Task {
        await channel.send(1)
        events.record(1)
      }
      await clock.advance(by: .zero)
      channel.fail(.boom)
      channel.finish()  // ended already: the error stays the outcome
      channel.fail(.boom)
      await clock.advance(by: .zero)
      #expect(events.all == [1])
      await channel.send(2)
      var iterator = channel.makeAsyncIterator()
      await #expect(throws: Boom.boom) { try await iterator.next() }
      #expect(try await iterator.next() == nil)
      var other = channel.makeAsyncIterator()
      #expect(try await other.next() == nil)
    }
  }

  @Test("fail after finish does nothing")
  func failAfterFinish() async throws {
    let channel = AsyncThrowingChannel<Int, any Error>()
    channel.finish()
    channel.fail(Boom.boom)
    var iterator = channel.makeAsyncIterator()
    #expect(try await iterator.next() == nil)
  }

  @Test("a cancelled send returns at once and its element is never delivered")
  func cancelledSend() async {
    let clock = TestClock()
    await clock.lockstep {
      let channel = AsyncChannel<Int>()
      let events = Events<String>()
      let cancelled = Task {
        await channel.send(1)
        events.record("cancelled sender returned")
      }
      await clock.advance(by: .zero)
      Task {
        await channel.send(2)
        events.record("sender 2 returned")
      }
      await clock.advance(by: .zero)
      cancelled.cancel()
      await clock.advance(by: .zero)
      #expect(events.all == ["cancelled sender returned"])
      var iterator = channel.makeAsyncIterator()
      #expect(await iterator.next() == 2)
    }
  }

  @Test("a send in a cancelled task delivers nothing, even to a waiting consumer")
  func sendInCancelledTask() async {
    let clock = TestClock()
    await clock.lockstep {
      let channel = AsyncChannel<Int>()
      let received = Task {
        var iterator = channel.makeAsyncIterator()
        return await iterator.next()
      }
      await clock.advance(by: .zero)
      let sender = Task {
        await waitForCancellation()
        await channel.send(1)
      }
      sender.cancel()
      await sender.value
      await channel.send(2)
      #expect(await received.value == 2)
    }
  }

  @Test("a cancelled next() returns nil and takes no element; the channel goes on")
  func cancelledNext() async {
    let clock = TestClock()
    await clock.lockstep {
      let channel = AsyncChannel<Int>()
      let first = Task {
        var iterator = channel.makeAsyncIterator()
        return await iterator.next()
      }
      await clock.advance(by: .zero)
      let second = Task {
        var iterator = channel.makeAsyncIterator()
        return await iterator.next()
      }
      await clock.advance(by: .zero)
      first.cancel()
      #expect(await first.value == nil)
      await channel.send(5)
      #expect(await second.value == 5)
    }
  }

  @Test("a next() in a cancelled task does not take a waiting sender's element")
  func nextInCancelledTask() async {
    let clock = TestClock()
    await clock.lockstep {
      let channel = AsyncChannel<Int>()
      Task { await channel.send(1) }
      await clock.advance(by: .zero)
      let consumer = Task {
        await waitForCancellation()
        var iterator = channel.makeAsyncIterator()
        return await iterator.next()
      }
      consumer.cancel()
      #expect(await consumer.value == nil)
      var iterator = channel.makeAsyncIterator()
      #expect(await iterator.next() == 1)
    }
  }

  @Test("dropping an iterator ends nothing: a new iterator takes the next elements")
  func droppingIterator() async {
    let clock = TestClock()
    await clock.lockstep {
      let channel = AsyncChannel<Int>()
      Task {
        for value in 1...3 { await channel.send(value) }
        channel.finish()
      }
      for await value in channel {
        #expect(value == 1)
        break
      }
      var rest: [Int] = []
      for await value in channel { rest.append(value) }
      #expect(rest == [2, 3])
    }
  }

  @Test("the throwing channel throws its typed error", arguments: [true, false])
  func typedFailure(consumerWaits: Bool) async {
    let clock = TestClock()
    await clock.lockstep {
      let channel = AsyncThrowingChannel<String, Boom>()
      let outcome = Task { () -> Result<[String], Boom> in
        var seen: [String] = []
        do throws(Boom) {
          for try await line in channel { seen.append(line) }
          return .success(seen)
        } catch {
          return .failure(error)
        }
      }
      await channel.send("a")
      if consumerWaits { await clock.advance(by: .zero) }
      channel.fail(.boom)
      #expect(await outcome.value == .failure(.boom))
    }
  }

  @Test("a main-actor consumer is resumed on the main actor")
  @MainActor func mainActorConsumer() async {
    let channel = AsyncChannel<Int>()
    Task.detached {
      for value in 1...3 { await channel.send(value) }
      channel.finish()
    }
    var total = 0
    for await value in channel {
      MainActor.assertIsolated()
      total += value
    }
    #expect(total == 6)
  }

  @Test("under several producers and consumers every element is delivered exactly once, each producer's in order")
  func exactlyOnceUnderConcurrency() async {
    let producers = 4
    let perProducer = 5_000
    let channel = AsyncChannel<Int>()
    let received = await withTaskGroup(of: [Int].self) { group in
      for _ in 0..<3 {
        group.addTask {
          var seen: [Int] = []
          for await value in channel { seen.append(value) }
          return seen
        }
      }
      group.addTask {
        await withTaskGroup(of: Void.self) { senders in
          for producer in 0..<producers {
            senders.addTask {
              for index in 0..<perProducer { await channel.send(producer * perProducer + index) }
            }
          }
        }
        channel.finish()
        return []
      }
      var all: [[Int]] = []
      for await seen in group { all.append(seen) }
      return all
    }
    #expect(received.flatMap { $0 }.sorted() == Array(0..<(producers * perProducer)))
    for seen in received {
      for producer in 0..<producers {
        let own = seen.filter { $0 / perProducer == producer }
        #expect(own == own.sorted(), "a consumer saw producer \(producer)'s elements out of order")
      }
    }
  }
  @Test("AsyncChannel's doc comment: prints a, b, c")
  func channelDocComment() async {
    let events = Events<String>()
    @Sendable func print(_ value: Any) { events.record("\(value)") }

    // Sources/Ripple/Buffering/Channel/AsyncChannel.swift, verbatim
    let channel = AsyncChannel<String>()
    Task {
      for line in ["a", "b", "c"] { await channel.send(line) }  // each waits for the loop below
      channel.finish()
    }
    for await line in channel { print(line) }
    // Prints a, b, c.

    #expect(events.all == ["a", "b", "c"])
  }

  @Test("AsyncThrowingChannel's doc comment: prints 200, then timeout")
  func throwingChannelDocComment() async {
    let events = Events<String>()
    @Sendable func print(_ value: Any) { events.record("\(value)") }

    // Sources/Ripple/Buffering/Channel/AsyncThrowingChannel.swift, verbatim
    let responses = AsyncThrowingChannel<Int, any Error>()
    Task {
      await responses.send(200)
      responses.fail(HTTPError.timeout)
    }
    do {
      for try await status in responses { print(status) }
    } catch {
      print(error)
    }
    // Prints 200, then timeout.

    #expect(events.all == ["200", "timeout"])
  }
}

/// The error of the throwing channel's doc example.
private enum HTTPError: Error {
  case timeout
}
