@_spi(Testing) import Ripple
import Synchronization

// A minimal stand-in for RippleTesting's `TestClock` and `marbles`, with the same names and shapes, until
// those land: one serial executor runs every task of a run, in lockstep with a manual clock.

/// The error `^` in a diagram produces.
struct MarbleError: Error, Equatable {}

/// A clock that moves only when told to; sleepers resume in deadline order.
final class TestClock: Clock, Sendable {
  /// A point on the clock: the time since it started.
  struct Instant: InstantProtocol {
    var offset: Duration

    func advanced(by duration: Duration) -> Self { Self(offset: offset + duration) }
    func duration(to other: Self) -> Duration { other.offset - offset }
    static func < (lhs: Self, rhs: Self) -> Bool { lhs.offset < rhs.offset }
  }

  private struct Sleeper {
    let id: Int
    let deadline: Instant
    let continuation: UnsafeContinuation<Void, any Error>
  }

  private struct State {
    var now: Instant
    var nextID = 0
    var sleepers: [Sleeper] = []
  }

  private let state: Mutex<State>

  init(now: Instant = Instant(offset: .zero)) {
    state = Mutex(State(now: now))
  }

  var now: Instant { state.withLock { $0.now } }
  var minimumResolution: Duration { .zero }

  func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try Task.checkCancellation()
    let id = state.withLock { state in
      state.nextID += 1
      return state.nextID
    }
    try await withTaskCancellationHandler {
      try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Void, any Error>) in
        let due = state.withLock { state in
          if deadline <= state.now { return true }
          state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
          return false
        }
        if due { continuation.resume() }
      }
    } onCancel: {
      let sleeper = state.withLock { state in
        state.sleepers.firstIndex { $0.id == id }.map { state.sleepers.remove(at: $0) }
      }
      sleeper?.continuation.resume(throwing: CancellationError())
    }
  }

  /// Moves the clock to `instant` and wakes every sleeper due by then, earliest first.
  func advance(to instant: Instant) {
    let due = state.withLock { state in
      state.now = instant
      let due = state.sleepers.filter { $0.deadline <= instant }.sorted { $0.deadline < $1.deadline }
      state.sleepers.removeAll { $0.deadline <= instant }
      return due
    }
    for sleeper in due { sleeper.continuation.resume() }
  }
}

/// A base sequence a diagram drives; it records whether its iteration was cancelled.
struct MarbleInput: AsyncSequence, Sendable {
  typealias Element = String
  typealias Failure = MarbleError

  enum Event: Sendable {
    case value(String)
    case finish
    case failure
  }

  fileprivate final class Channel: Sendable {
    struct State {
      var buffer: [Event] = []
      var waiting: UnsafeContinuation<Event?, Never>?
      var cancelled = false
    }
    let state = Mutex(State())
  }

  private let channel = Channel()

  /// Whether a task iterating this input was cancelled while waiting.
  var wasCancelled: Bool { channel.state.withLock { $0.cancelled } }

  func send(_ event: Event) {
    let waiting = channel.state.withLock { state in
      guard let waiting = state.waiting else {
        state.buffer.append(event)
        return nil as UnsafeContinuation<Event?, Never>?
      }
      state.waiting = nil
      return waiting
    }
    waiting?.resume(returning: event)
  }

  func makeAsyncIterator() -> Iterator { Iterator(channel: channel) }

  struct Iterator: AsyncIteratorProtocol {
    fileprivate let channel: Channel
    private var done = false

    fileprivate init(channel: Channel) { self.channel = channel }

    mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws(MarbleError) -> String? {
      guard !done else { return nil }
      let channel = self.channel
      let event = await withTaskCancellationHandler {
        await withUnsafeContinuation(isolation: actor) { (continuation: UnsafeContinuation<Event?, Never>) in
          let ready: Event?? = channel.state.withLock { state in
            if state.cancelled { return .some(nil) }
            if !state.buffer.isEmpty { return .some(state.buffer.removeFirst()) }
            state.waiting = continuation
            return .none
          }
          if case .some(let event) = ready { continuation.resume(returning: event) }
        }
      } onCancel: {
        let waiting = channel.state.withLock { state in
          state.cancelled = true
          defer { state.waiting = nil }
          return state.waiting
        }
        waiting?.resume(returning: nil)
      }
      switch event {
      case .value(let value): return value
      case .failure:
        done = true
        throw MarbleError()
      case .finish, nil:
        done = true
        return nil
      }
    }

    mutating func next() async throws(MarbleError) -> String? { try await next(isolation: nil) }
  }
}

/// A task executor that runs jobs only when told to, one at a time.
final class ManualExecutor: TaskExecutor, Sendable {
  private let jobs = Mutex<[UnownedJob]>([])

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    jobs.withLock { $0.append(job) }
  }

  /// Runs jobs until none is left.
  func runUntilIdle() {
    while let job = jobs.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) {
      job.runSynchronously(on: asUnownedTaskExecutor())
    }
  }
}

/// What a run's consumer saw, and when.
private final class Recorder: Sendable {
  private let state = Mutex((events: [(tick: Int, symbol: String)](), finished: false, stopped: false))

  var events: [(tick: Int, symbol: String)] { state.withLock { $0.events } }
  var isFinished: Bool { state.withLock { $0.finished } }

  func record(_ tick: Int, _ symbol: String) {
    state.withLock { state in
      if !state.stopped { state.events.append((tick, symbol)) }
    }
  }

  /// Ignores what comes after: the driver is about to cancel the consumer.
  func stop() {
    state.withLock { $0.stopped = true }
  }

  func finish() {
    state.withLock { $0.finished = true }
  }
}

/// Moves a value into a task; the driver hands it over once, before the task runs.
private struct Handoff<Value>: @unchecked Sendable {
  let value: Value
}

private func parse(_ diagram: String) -> [[MarbleInput.Event]] {
  var ticks: [[MarbleInput.Event]] = []
  var group: [MarbleInput.Event]?
  for character in diagram {
    let event: MarbleInput.Event?
    switch character {
    case "-": event = nil
    case "|": event = .finish
    case "^": event = .failure
    case "[":
      group = []
      continue
    case "]":
      ticks.append(group ?? [])
      group = nil
      continue
    default: event = .value(String(character))
    }
    if group != nil {
      group?.append(event!)
    } else {
      ticks.append(event.map { [$0] } ?? [])
    }
  }
  return ticks
}

/// Runs `pipeline` over inputs that follow the diagrams, one tick at a time, and draws what it emits.
///
/// Each tick: the clock moves to it and every job runs; then each input's events for the tick are sent,
/// each followed by running every job.
func marbles<Output: AsyncSequence>(
  _ inputs: String..., tick: Duration = .seconds(1),
  _ pipeline: (_ inputs: [MarbleInput], _ clock: TestClock) -> Output
) async -> String where Output.Element == String {
  let diagrams = inputs.map(parse)
  let clock = TestClock()
  let executor = ManualExecutor()
  let marbleInputs = diagrams.map { _ in MarbleInput() }
  var iterator = pipeline(marbleInputs, clock).makeAsyncIterator()
  // Erased here, so the task below captures no generic type.
  let next = Handoff { () async -> Result<String?, any Error> in
    do { return .success(try await iterator.next(isolation: nil)) } catch { return .failure(error) }
  }
  let recorder = Recorder()
  let lastTick = (diagrams.map(\.count).max() ?? 0) + 20
  _OperatorTasks.$executor.withValue(executor) {
    let consumer = Task(executorPreference: executor) {
      while true {
        let result = await next.value()
        let at = Int(clock.now.offset / tick)
        switch result {
        case .success(let value?):
          recorder.record(at, value)
          continue
        case .success(nil): recorder.record(at, "|")
        case .failure: recorder.record(at, "^")
        }
        break
      }
      recorder.finish()
    }
    executor.runUntilIdle()
    for index in 0...lastTick {
      clock.advance(to: TestClock.Instant(offset: tick * index))
      executor.runUntilIdle()
      for (input, diagram) in zip(marbleInputs, diagrams) where index < diagram.count {
        for event in diagram[index] {
          input.send(event)
          executor.runUntilIdle()
        }
      }
      if recorder.isFinished { break }
    }
    recorder.stop()
    consumer.cancel()
    executor.runUntilIdle()
  }
  let events = recorder.events
  let length = max((events.map(\.tick).max() ?? -1) + 1, diagrams.map(\.count).max() ?? 0)
  var drawing = ""
  for index in 0..<length {
    let symbols = events.filter { $0.tick == index }.map(\.symbol)
    switch symbols.count {
    case 0: drawing += "-"
    case 1: drawing += symbols[0]
    default: drawing += "[" + symbols.joined() + "]"
    }
  }
  return drawing
}
