import Testing

@testable import Ripple
@testable import RippleTesting

/// `timeout`'s behaviour, and the diagrams of `Timeout.md`, run.
@Suite("timeout", .timeLimit(.minutes(1)))
struct TimeoutTests {
  @Test(
    "Timeout.md: three ticks, finishing or throwing a custom error",
    arguments: [
      // Times out three ticks after `b`.
      ("a-b---c|", "a-b--|", "a-b--^"),
      // Nothing ever comes: three ticks after the first next().
      ("------", "---|", "---^"),
      // An empty base, an immediate failure, a failure after elements.
      ("|", "|", "|"),
      ("^", "^", "^"),
      ("ab^", "ab^", "ab^"),
      // The base finishes while the timer is pending.
      ("a-|", "a-|", "a-|"),
    ])
  func diagrams(input: String, finishing: String, throwing: String) async {
    #expect(await marbles(input) { $0[0].timeout(.seconds(3), clock: $1) } == finishing)
    let custom = await marbles(input) { inputs, clock in
      inputs[0].timeout(.seconds(3), clock: clock, customError: { MarbleError() })
    }
    #expect(custom == throwing)
  }

  @Test("Timeout.md: cancelling the consumer while the timer is pending ends it at once and cancels the base")
  func cancelledWhileTimerPending() async {
    let probe = CancellationProbe()
    let clock = TestClock()
    await clock.lockstep {
      let consumer = Task { () -> String in
        var iterator = probe.timeout(.seconds(3), clock: clock).makeAsyncIterator()
        let value = await iterator.next()
        return "\(value ?? "nil") at \(clock.now)"
      }
      await clock.advance(by: .seconds(1))
      consumer.cancel()
      #expect(await consumer.value == "nil at 1.0 seconds")
      await probe.waitForCancellation()
      // The timer stopped too: nothing sleeps on the clock any more.
      await clock.advance(by: .zero)
      #expect(!clock.hasScheduledSleepers)
    }
  }

  @Test(
    "a busy consumer: a base that stays silent times out, and what was taken from it comes first",
    arguments: [
      // 2 waits for the consumer; the base stays silent and times out at 3 s.
      (2, ["1 at 0.0 seconds", "2 at 10.0 seconds", "nil at 10.0 seconds"]),
      // 2…17 fill the queue: the base is no longer asked, nothing is timed until the consumer takes 2 at 10 s.
      (18, ["1 at 0.0 seconds"] + (2...18).map { "\($0) at 10.0 seconds" } + ["nil at 13.0 seconds"]),
    ])
  func busyConsumer(count: Int, expected: [String]) async {
    let clock = TestClock()
    let (stream, input) = AsyncStream.makeStream(of: Int.self)
    let log = await clock.lockstep { () -> [String] in
      let consumer = Task { () -> [String] in
        var iterator = stream.timeout(.seconds(3), clock: clock).makeAsyncIterator()
        var log: [String] = []
        while true {
          let value = await iterator.next()
          log.append("\(value.map(String.init) ?? "nil") at \(clock.now)")
          guard let value else { return log }
          // Busy for ten seconds after the first element.
          if value == 1 { try? await clock.sleep(for: .seconds(10)) }
        }
      }
      for value in 1...count { input.yield(value) }
      await clock.run()
      return await consumer.value
    }
    #expect(log == expected)
  }

  @Test("a base that cannot fail and a custom error: the sequence throws the custom error's type")
  func typedCustomError() async {
    struct Stalled: Error, Equatable {}
    let clock = TestClock()
    let thrown = await clock.lockstep { () -> Stalled? in
      let consumer = Task { () -> Stalled? in
        let (stream, _) = AsyncStream.makeStream(of: Int.self)
        do throws(Stalled) {
          for try await _ in stream.timeout(.seconds(2), clock: clock, customError: { Stalled() }) {}
          return nil
        } catch {
          return error
        }
      }
      await clock.run()
      return await consumer.value
    }
    #expect(thrown == Stalled())
  }

  @Test("AsyncTimeoutSequence's doc comment: a, b, then finished at 5 s")
  func docComment() async {
    let output = await marbles("a-b----c") { inputs, clock in
      inputs[0].timeout(.seconds(3), clock: clock)
    }
    #expect(output == "a-b--|")
  }

  @Test("Timeout.md's example: no reply within five seconds throws NoReply")
  func guideExample() async {
    let clock = TestClock()
    let (stream, input) = AsyncStream.makeStream(of: Reply.self)
    let outcome = await clock.lockstep { () -> String in
      let consumer = Task { () -> String in
        var count = 0
        do throws(NoReply) {
          for try await _ in replies(from: ReplyConnection(replies: stream), clock: clock) { count += 1 }
          return "finished after \(count)"
        } catch {
          return "NoReply after \(count) at \(clock.now)"
        }
      }
      input.yield(Reply())
      await clock.run()
      return await consumer.value
    }
    #expect(outcome == "NoReply after 1 at 5.0 seconds")
  }
}

// Timeout.md's example, with stand-ins for its connection.

private struct Reply: Sendable {}

private struct ReplyConnection {
  let replies: AsyncStream<Reply>
}

private struct NoReply: Error {}

private func replies(
  from connection: ReplyConnection, clock: some Clock<Duration>
) -> some AsyncSequence<Reply, NoReply> {
  connection.replies  // an AsyncStream<Reply>: it cannot fail
    .timeout(.seconds(5), clock: clock, customError: { NoReply() })
}
