import Observation

@testable import Calculator
@testable import CalculatorTerminal
@testable import Ripple
@testable import RippleTesting

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

/// The models of one engine on a `TestClock`, and a task that reports each outcome the first one shows, at the
/// instant it shows it: use it inside `clock.lockstep`, where every edit and every advance returns only once
/// the engine has reacted.
///
/// It watches the model as a view would, with `Observed`; an outcome equal to the one shown before it is no
/// change, so it is not reported again.
@MainActor
final class Session {
  let clock: TestClock
  let models: [CalculatorModel]
  private var watcher: Task<Void, Never>?

  /// The model edits go to.
  var model: CalculatorModel { models[0] }

  init(
    _ design: CalculatorDesign, delay: Duration? = nil, debounce: Duration = CalculatorDesign.defaultDebounceInterval,
    clock: TestClock,
    onOutcome: @escaping @MainActor (Outcome) -> Void
  ) {
    var options = CalcOptions()
    options.engine = .design(design)
    options.delay = delay
    options.debounce = debounce
    self.clock = clock
    let models = options.makeScreens(clock: clock).map(\.model)
    self.models = models
    watcher = Task {
      for await case let outcome? in Observed({ models[0].outcome }) { onOutcome(outcome) }
    }
  }

  /// Sets `field` to `value` and lets every task react.
  func set(_ field: Edit.Field, to value: Int?) async {
    switch field {
    case .a: model.a = value
    case .b: model.b = value
    }
    await clock.advance(by: .zero)
  }

  /// Lets `duration` pass.
  func wait(_ duration: Duration) async {
    await clock.advance(by: duration)
  }

  /// Lets every calculation in flight end.
  func finish() async {
    await clock.run()
  }

  /// Stops reporting outcomes.
  func stop() {
    watcher?.cancel()
  }
}

/// What `play` records.
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

/// Types `edits` into a fresh model of `design` on a `TestClock`, lets every calculation finish, and returns what
/// the model showed.
///
/// It runs in `TestClock.lockstep`, which moves time only after the engine has reacted to each edit and each
/// wake-up, so the times are exact for every engine.
@MainActor
func play(
  _ edits: [Edit], on design: CalculatorDesign, delay: Duration? = nil,
  debounce: Duration = CalculatorDesign.defaultDebounceInterval
) async
  -> Shown
{
  let clock = TestClock()
  return await clock.lockstep {
    let log = OutcomeLog()
    let session = Session(design, delay: delay, debounce: debounce, clock: clock) { outcome in
      log.shown.outcomes.append((clock.now.offset, log.editsMade, outcome))
    }
    await clock.advance(by: .zero)
    for edit in edits {
      if edit.at > clock.now.offset { await session.wait(edit.at - clock.now.offset) }
      // Counted before the engine reacts: outcomes shown while `set` waits come after this edit.
      log.editsMade += 1
      await session.set(edit.field, to: edit.value)
    }
    await session.finish()
    session.stop()
    log.shown.finalStatus = session.model.status
    return log.shown
  }
}
