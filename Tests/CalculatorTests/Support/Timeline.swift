import Observation

@testable import Calculator
@testable import Ripple
@testable import RippleTesting

/// The four engines, as tests create them.
enum EngineKind: String, CaseIterable, CustomStringConvertible, Sendable {
  case pipeline, debounce, task, shared

  var description: String { rawValue }

  /// The calculator delay the design uses by default.
  var defaultDelay: Duration {
    switch self {
    case .pipeline, .debounce: .zero
    case .task, .shared: .seconds(1)
    }
  }
}

/// One edit of the form at a moment of the timeline.
struct Edit: Sendable, CustomStringConvertible {
  enum Field: Sendable { case a, b }

  var at: Duration
  var field: Field
  var value: Int?

  static func a(_ value: Int?, at seconds: Double = 0) -> Edit { Edit(at: .seconds(seconds), field: .a, value: value) }
  static func b(_ value: Int?, at seconds: Double = 0) -> Edit { Edit(at: .seconds(seconds), field: .b, value: value) }

  var description: String { "\(field) = \(value.map(String.init) ?? "nil") at \(at)" }
}

/// What a model showed: each outcome with the clock time it appeared, and the final status.
struct Shown: Sendable {
  /// Each outcome, when it appeared, and how many edits had been made by then.
  var outcomes: [(at: Duration, editsMade: Int, outcome: Outcome)] = []
  var finalStatus: CalculatorStatus = .waiting

  /// The sums (or errors) shown, with their times in seconds, for compact expectations.
  var timeline: [String] {
    outcomes.map { at, _, outcome in
      let seconds = Double(at.components.seconds) + Double(at.components.attoseconds) / 1e18
      switch outcome.value {
      case .success(let sum): return "\(sum) at \(seconds)"
      case .failure(let error): return "\(error) at \(seconds)"
      }
    }
  }
}

/// Collects outcomes from a model's hook.
@MainActor final class OutcomeLog {
  var shown = Shown()
  var editsMade = 0
}

/// Suspends until `condition` holds for `model`, re-checking after every change it reads.
@MainActor
func waitUntil(_ model: CalculatorModel, _ condition: @escaping @MainActor (CalculatorModel) -> Bool) async {
  for await satisfied in Observed({ condition(model) }) where satisfied {
    return
  }
}

/// Types `edits` into a fresh model of `kind` on a `TestClock`, lets every calculation finish, and returns what
/// the model showed.
///
/// The model lives on the main actor, beyond the reach of a lockstep scope, so before moving time the test
/// waits for the engine's reaction to each edit, as an exact event: the calculation's sleep on the clock
/// (`task`, `shared`), the debounce's timer (`debounce`, which must therefore be idle at each edit: space its
/// edits at least `debounce` apart) or the outcome itself (`pipeline`).
@MainActor
func play(
  _ edits: [Edit], on kind: EngineKind, delay: Duration? = nil, debounce: Duration = .seconds(1)
) async
  -> Shown
{
  let clock = TestClock()
  let delay = delay ?? kind.defaultDelay
  let calculator = SlowCalculator.live(delay: delay, clock: clock)
  let log = OutcomeLog()
  let shared = SharedCalculation(calculator: calculator)
  let engine: CalculatorEngine =
    switch kind {
    case .pipeline: .pipeline
    case .debounce: .debounce(interval: debounce)
    case .task: .task
    case .shared: .shared(shared)
    }
  let model = CalculatorModel(engine: engine, calculator: calculator, clock: clock)
  let record: @MainActor (Outcome) -> Void = { outcome in
    log.shown.outcomes.append((clock.now.offset, log.editsMade, outcome))
  }
  model.onOutcome = record
  shared.onOutcome = record
  /// Wakes each sleeper due by `target` in turn, waiting for the calculation each wake ends.
  func drive(until target: Duration?) async {
    while let next = clock.nextSleeperDeadline, target.map({ next.offset <= $0 }) ?? true {
      await clock.advance(to: next)
      if model.status == .computing, !clock.hasScheduledSleepers {
        await waitUntil(model) { $0.status != .computing }
      }
    }
    if let target { await clock.advance(to: TestClock.Instant(offset: target)) }
  }
  for edit in edits {
    await drive(until: edit.at)
    let before = model.input
    switch edit.field {
    case .a: model.a = edit.value
    case .b: model.b = edit.value
    }
    log.editsMade += 1
    guard model.input != before, model.input.operands != nil else { continue }
    switch kind {
    case .task, .shared:
      if delay > .zero {
        await clock.waitForSleeper(until: clock.now.advanced(by: delay))
      } else {
        await waitUntil(model) { $0.status != .computing }
      }
    case .pipeline:
      await waitUntil(model) { $0.status != .computing }
    case .debounce:
      // Exact only when the debounce was idle, so scripts for it space their edits at least `debounce` apart.
      await clock.waitForSleeper(until: clock.now.advanced(by: debounce))
    }
  }
  await drive(until: nil)
  log.shown.finalStatus = model.status
  return log.shown
}
