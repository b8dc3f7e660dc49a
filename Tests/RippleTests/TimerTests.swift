import RippleTesting
import Testing

@testable import Ripple

@Suite("AsyncTimerSequence", .timeLimit(.minutes(1)))
struct TimerTests {
  @Test("ticks every interval after the first next(), each the clock's now at its deadline")
  func ticksEveryInterval() async {
    let clock = TestClock()
    let ticks = await clock.lockstep {
      let consumer = Task {
        var seen: [TestClock.Instant] = []
        for await instant in AsyncTimerSequence(interval: .seconds(2), clock: clock) {
          seen.append(instant)
          if seen.count == 3 { break }
        }
        return seen
      }
      await clock.advance(by: .seconds(7))
      return await consumer.value
    }
    #expect(ticks.map(\.offset) == [.seconds(2), .seconds(4), .seconds(6)])
  }

  @Test("Timer.md: deadlines do not drift with the consumer's work; a late consumer gets the missed tick at once")
  func noDrift() async {
    let clock = TestClock()
    let ticks = await clock.lockstep {
      let consumer = Task {
        var seen: [Duration] = []
        var iterator = AsyncTimerSequence(interval: .seconds(1), clock: clock).makeAsyncIterator()
        while seen.count < 4, let instant = await iterator.next() {
          seen.append(instant.offset)
          // Work that takes 1.5 s after the first tick: the second deadline (2 s) passes meanwhile.
          if seen.count == 1 { try? await clock.sleep(for: .milliseconds(1500)) }
        }
        return seen
      }
      await clock.advance(by: .seconds(5))
      return await consumer.value
    }
    #expect(ticks == [.seconds(1), .milliseconds(2500), .seconds(3), .seconds(4)])
  }

  @Test(".repeating(every:clock:) is the same timer where an AsyncSequence is expected")
  func repeatingShorthand() async {
    let clock = TestClock()
    func firstTick<Ticks: AsyncSequence<TestClock.Instant, Never>>(of ticks: Ticks) async -> TestClock.Instant? {
      var iterator = ticks.makeAsyncIterator()
      return await iterator.next(isolation: nil)
    }
    let tick = await clock.lockstep {
      let consumer = Task { await firstTick(of: .repeating(every: .milliseconds(250), clock: clock)) }
      await clock.advance(by: .seconds(1))
      return await consumer.value
    }
    #expect(tick?.offset == .milliseconds(250))
  }

  @Test("cancelling the consuming task ends it at once, while it sleeps, and for good")
  func cancellation() async {
    let clock = TestClock()
    let outcome = await clock.lockstep {
      let started = Signal()
      let consumer = Task {
        var iterator = AsyncTimerSequence(interval: .seconds(60), clock: clock).makeAsyncIterator()
        started.ready()
        let first = await iterator.next()
        let second = await iterator.next()
        return (first == nil, second == nil)
      }
      await started.wait()
      await clock.advance(by: .seconds(1))  // the consumer sleeps toward 60 s
      consumer.cancel()
      return await consumer.value
    }
    #expect(outcome == (true, true))
    #expect(clock.now.offset == .seconds(1))
  }
}
