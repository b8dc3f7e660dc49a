import InternalRippleUtilities
import Ripple

/// Runs `pipeline` over inputs written as marble diagrams, in lockstep with a ``TestClock``, and returns
/// the output as a diagram.
///
/// Use it to pin down the timing of an operator or of a whole pipeline in one line. Each input diagram
/// becomes a ``MarbleInput`` producing its values at their ticks (one tick lasting `tick`); `pipeline`
/// builds the sequence under test from them and the clock; the output diagram has one column per tick,
/// with the values that arrived during that tick (`[ab]` for several), `|` where the output finished and
/// `^` where it threw (any error).
///
/// ```swift
/// let output = await marbles("abcd----e---f-g----|") { inputs, clock in
///   inputs[0].debounce(for: .seconds(3), clock: clock)
/// }
/// print(output)  // ------d----e-----g-|
/// #expect(output == "------d----e-----g-|")
/// ```
///
/// **How it runs.** The inputs, the pipeline, the tasks its operators start and the consumer of the output
/// all run on one serial executor (see ``TestClock/lockstep(isolation:_:)``). The clock starts at zero; whenever
/// nothing is left to run, it advances one tick (waking the sleepers due on the way, in deadline order), so
/// every run of a test gives the same diagram. A value that arrives between ticks counts for the tick it
/// arrived in.
///
/// **How it ends.** At the output's finish or failure — the diagram ends with that column. Otherwise when
/// the clock has nothing left to do after the last tick of the longest input (every task is waiting for
/// something other than time), or 10,000 ticks after the longest input's last tick: the diagram then has no
/// terminator and reaches the later of the longest input's last tick and the output's last value. The task
/// consuming the output is then cancelled, and the run waits once more for quiescence (without waiting for a
/// pipeline that ignores cancellation).
///
/// An input that is not a valid diagram gives an output of the form `invalid input 1: unclosed group at
/// character 3`, which matches no diagram; use ``marbleDiagram(_:tick:_:)`` to get a thrown error instead.
/// It may be called from any isolation (a `@MainActor` test too): `pipeline` runs nonisolated, so it cannot
/// use actor-isolated state; code on an actor with an executor of its own is not run in lockstep.
public func marbles<Output: AsyncSequence>(
  _ inputs: String...,
  tick: Duration = .seconds(1),
  _ pipeline: sending (_ inputs: [MarbleInput], _ clock: TestClock) -> Output
) async -> String where Output.Element == String {
  do {
    return try await _runMarbles(inputs, tick: tick, pipeline).description
  } catch {
    return error.description
  }
}

/// Runs `pipeline` like ``marbles(_:tick:_:)`` and returns the output as a ``MarbleDiagram``.
///
/// Use it for a readable report when a timing test fails:
///
/// ```swift
/// let output = try await marbleDiagram("a-b|") { inputs, _ in inputs[0] }
/// #expect(output.difference(from: "a-b|") == nil)
/// print(output)  // a-b|
/// ```
///
/// It throws ``MarbleDiagram/ParseError`` when an input is not a valid diagram (its reason names the input,
/// counting from 1); it runs and ends exactly as ``marbles(_:tick:_:)`` does.
public func marbleDiagram<Output: AsyncSequence>(
  _ inputs: String...,
  tick: Duration = .seconds(1),
  _ pipeline: sending (_ inputs: [MarbleInput], _ clock: TestClock) -> Output
) async throws(MarbleDiagram.ParseError) -> MarbleDiagram where Output.Element == String {
  try await _runMarbles(inputs, tick: tick, pipeline)
}

/// How many ticks past the longest input's last tick a run may last while something keeps sleeping.
let _marbleTickLimit = 10_000

func _runMarbles<Output: AsyncSequence>(
  _ texts: [String],
  tick: Duration,
  _ pipeline: sending (_ inputs: [MarbleInput], _ clock: TestClock) -> Output
) async throws(MarbleDiagram.ParseError) -> MarbleDiagram where Output.Element == String {
  precondition(tick > .zero, "a tick must last longer than zero")
  var diagrams: [MarbleDiagram] = []
  for (index, text) in texts.enumerated() {
    do {
      diagrams.append(try MarbleDiagram(parsing: text))
    } catch {
      throw MarbleDiagram.ParseError(reason: "invalid input \(index + 1): \(error.reason)", offset: error.offset)
    }
  }
  let longest = diagrams.map(\.ticks.count).max() ?? 0
  let clock = TestClock()
  let recorder = _MarbleRecorder(clock: clock, tick: tick)
  await clock.lockstep {
    let inputs = diagrams.map { MarbleInput($0, clock: clock, tick: tick) }
    let output = pipeline(inputs, clock)
    let consumption = _Handoff { await recorder.consume(output) }
    let consumer = Task {
      await consumption.take()()
    }
    var elapsed = 0
    while true {
      await clock.advance(by: .zero)  // until nothing is left to run
      if recorder.isTerminated { break }
      let hasWork = clock.hasScheduledSleepers || elapsed < longest - 1
      guard hasWork, elapsed < max(longest - 1, 0) + _marbleTickLimit else { break }
      await clock.advance(by: tick)
      elapsed += 1
    }
    recorder.close()
    consumer.cancel()
  }
  return recorder.diagram(minimumLength: longest)
}

/// Carries the consumption of the output sequence, which need not be `Sendable`, into the consumer task.
///
/// The driver builds the sequence and hands it over without touching it again, so the consumer task is its
/// only user. The closure erases the sequence's type, which the task must not capture.
private final class _Handoff: @unchecked Sendable {
  // @unchecked: written once before the handoff, taken once after it, by one task at a time.
  private var operation: (() async -> Void)?

  init(_ operation: @escaping () async -> Void) {
    self.operation = operation
  }

  func take() -> () async -> Void {
    defer { operation = nil }
    return operation!
  }
}

/// Writes down what the output of a marble run produces, at the tick it arrives.
final class _MarbleRecorder: Sendable {
  private struct State {
    var ticks: [[MarbleDiagram.Event]] = []
    var isTerminated = false
    /// Set when the run is over: whatever comes later (while the output winds down) is ignored.
    var isClosed = false
  }

  private let clock: TestClock
  private let tick: Duration
  private let state = _Mutex(State())

  init(clock: TestClock, tick: Duration) {
    self.clock = clock
    self.tick = tick
  }

  var isTerminated: Bool {
    state.withLock { $0.isTerminated }
  }

  /// Iterates `output` to its end, recording every event.
  func consume<Output: AsyncSequence>(_ output: Output) async where Output.Element == String {
    var iterator = output.makeAsyncIterator()
    do {
      while let value = try await iterator.next(isolation: nil) {
        record(.value(value))
      }
      record(.finish)
    } catch {
      record(.failure)
    }
  }

  func close() {
    state.withLock { $0.isClosed = true }
  }

  /// The recorded diagram: through the terminator, or at least `minimumLength` ticks long.
  func diagram(minimumLength: Int) -> MarbleDiagram {
    var ticks = state.withLock { $0.ticks }
    if !(ticks.last?.contains { $0 == .finish || $0 == .failure } ?? false), ticks.count < minimumLength {
      ticks += Array(repeating: [], count: minimumLength - ticks.count)
    }
    return MarbleDiagram(ticks: ticks)
  }

  private func record(_ event: MarbleDiagram.Event) {
    let column = Self.column(of: clock.now, tick: tick)
    state.withLock { state in
      guard !state.isClosed, !state.isTerminated else { return }
      if state.ticks.count <= column {
        state.ticks += Array(repeating: [], count: column + 1 - state.ticks.count)
      }
      state.ticks[column].append(event)
      if event == .finish || event == .failure { state.isTerminated = true }
    }
  }

  /// The tick `instant` falls in, computed exactly in attoseconds.
  private static func column(of instant: TestClock.Instant, tick: Duration) -> Int {
    Int(attoseconds(instant.offset) / attoseconds(tick))
  }

  private static func attoseconds(_ duration: Duration) -> Int128 {
    let (seconds, attoseconds) = duration.components
    return Int128(seconds) * 1_000_000_000_000_000_000 + Int128(attoseconds)
  }
}
