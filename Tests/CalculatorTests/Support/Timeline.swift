import Observation

@testable import Calculator
@testable import CalculatorTerminal
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
/// `VirtualTimeDriver` (the driver of `calc --clock virtual`) moves time only after the engine has reacted to
/// each edit and each wake-up, so the times are exact for every engine.
@MainActor
func play(
  _ edits: [Edit], on kind: EngineKind, delay: Duration? = nil, debounce: Duration = .seconds(1)
) async
  -> Shown
{
  var options = CalcOptions()
  options.engine = CalcOptions.Engine(rawValue: kind.rawValue)!
  options.delay = delay
  options.debounce = debounce
  let driver = await VirtualTimeDriver(options: options)
  let log = OutcomeLog()
  let clock = driver.clock
  let record: @MainActor (Outcome) -> Void = { outcome in
    log.shown.outcomes.append((clock.now.offset, log.editsMade, outcome))
  }
  if case .shared(let shared) = driver.model.engine {
    shared.onOutcome = record
  } else {
    driver.model.onOutcome = record
  }
  for edit in edits {
    if edit.at > driver.now { await driver.wait(edit.at - driver.now) }
    // Counted before the engine reacts: outcomes shown while `set` waits come after this edit.
    log.editsMade += 1
    switch edit.field {
    case .a: await driver.set(.a, to: edit.value)
    case .b: await driver.set(.b, to: edit.value)
    }
  }
  await driver.finish()
  log.shown.finalStatus = driver.model.status
  return log.shown
}
