import Synchronization

@testable import RippleTesting

/// A base for `retry`'s diagrams: each iteration plays the next of several marble diagrams, counting its ticks from
/// the instant of its first `next()` (the last diagram plays for every later iteration).
///
/// A ``MarbleInput`` counts from the clock's zero, so an iteration started again at tick 3 would deliver its first
/// three ticks at once; a retried source starts over in time too.
struct AttemptsInput: AsyncSequence, Sendable {
  typealias Element = String
  typealias Failure = MarbleError

  let attempts: [MarbleDiagram]
  let clock: TestClock
  let tick: Duration
  private let counter: Counter

  init(_ attempts: [String], clock: TestClock, tick: Duration = .seconds(1)) {
    self.attempts = attempts.map { MarbleDiagram(stringLiteral: $0) }
    self.clock = clock
    self.tick = tick
    counter = Counter()
  }

  /// How many iterations were made so far.
  var iterationCount: Int { counter.value.withLock { $0 } }

  func makeAsyncIterator() -> Iterator {
    let index = counter.value.withLock { count in
      defer { count += 1 }
      return count
    }
    let diagram = attempts[Swift.min(index, attempts.count - 1)]
    return Iterator(
      events: diagram.ticks.enumerated().flatMap { tick, events in events.map { (tick, $0) } }, clock: clock, tick: tick
    )
  }

  final class Counter: Sendable {
    let value = Mutex(0)
  }

  struct Iterator: AsyncIteratorProtocol {
    let events: [(tick: Int, event: MarbleDiagram.Event)]
    let clock: TestClock
    let tick: Duration
    var start: TestClock.Instant?
    var index = 0

    init(events: [(tick: Int, event: MarbleDiagram.Event)], clock: TestClock, tick: Duration) {
      self.events = events
      self.clock = clock
      self.tick = tick
    }

    mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws(MarbleError) -> String? {
      let start = self.start ?? clock.now
      self.start = start
      guard index < events.count else {
        // After the last event of a diagram without a terminator: wait without end, as a MarbleInput does.
        try? await clock.sleepUntilCancelled()
        return nil
      }
      let (tick, event) = events[index]
      do {
        try await clock.sleep(until: start.advanced(by: self.tick * tick))
      } catch {
        index = events.count
        return nil
      }
      index += 1
      switch event {
      case .value(let value): return value
      case .finish:
        index = events.count
        return nil
      case .failure:
        index = events.count
        throw MarbleError()
      }
    }
  }
}
