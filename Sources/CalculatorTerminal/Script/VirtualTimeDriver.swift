import Calculator
@_spi(Testing) import Ripple
import RippleTesting

/// Plays edits into a calculator model on a `TestClock`, moving time only when the engine has reacted, so what
/// the model shows — and when — is exact.
///
/// The model runs on the main actor, where no test executor can reach its tasks, so the driver waits instead
/// for the exact event each reaction ends in: the calculation's sleep on the clock, the engine's `Observed`
/// iterators reading the edit or handing it on (``ObservedActivityCounter``), the debounce timer's sleep, or
/// the outcome itself. It knows which event to wait
/// for because it mirrors each design: the pipeline drops empty fields and repeats, the debounce restarts its
/// interval on every input, `task` and `shared` restart on every complete input. `calc --clock virtual` and
/// the model's tests both drive models with it.
@MainActor
final class VirtualTimeDriver {
  /// A field of the form.
  enum Field: String, Hashable, Sendable { case a, b }

  let clock: TestClock
  /// The models showing the calculation: one, or for `shared` two panels on one shared calculation.
  let models: [CalculatorModel]
  /// The model edits go to.
  var model: CalculatorModel { models[0] }

  /// Called whenever what the model shows may have changed — right after an edit and after each outcome the
  /// driver waited for — at the instant it happened; `calc` prints status changes from here.
  var onChange: (@MainActor () -> Void)?

  private let engine: CalcOptions.Engine
  private let delay: Duration
  private let interval: Duration
  private let activity = ObservedActivityCounter()
  private let starts = CalculationStarts()
  /// The reads of the pipeline's iterators once they have read the last edit.
  private var expectedReads = 0
  /// The waits of the debounce's iterator once the debounce has taken in the last edit.
  private var expectedWaits = 0
  /// The pipeline's view of each field after `compacted().removeDuplicates()`: its last number.
  private var lastNumbers: [Field: Int] = [:]
  /// The pipeline's fields whose number waits in `combineLatest` for the other field's first number; until
  /// then that field's iterator does not read again.
  private var held: Set<Field> = []
  /// The instant the debounce's timer sleeps until, when it sleeps.
  private var timerDeadline: TestClock.Instant?
  /// The input the debounce holds and when it settles.
  private var pending: (input: Input, deadline: TestClock.Instant)?
  /// The calculation asleep on the clock, if any.
  private var calculation: (input: Input, deadline: TestClock.Instant)?

  /// Creates the models `options` ask for on a fresh clock, and waits until the engine has taken in the empty
  /// form.
  init(options: CalcOptions) async {
    let clock = TestClock()
    let calculator = starts.recording(.live(delay: options.effectiveDelay, clock: clock)) { clock.sleepsStarted }
    // The engine's tasks inherit the binding, so its `Observed` iterators report to `activity`.
    models = _OperatorTasks.$observedActivity.withValue(activity.report) {
      options.makeModels(calculator: calculator, clock: clock)
    }
    let (engine, delay, interval) = (options.engine, options.effectiveDelay, options.debounce)
    self.clock = clock
    self.engine = engine
    self.delay = delay
    self.interval = interval
    // The engine's iterators read the empty form first.
    switch engine {
    case .pipeline: await pipelineRead(mark: Mark(sleeps: 0, calculations: 0))
    case .debounce: await debouncedRead(mark: Mark(sleeps: 0, calculations: 0))
    case .task, .shared: break
    }
  }

  /// The time since the start.
  var now: Duration { clock.now.offset }

  /// Sets `field` to `value` at the current instant, and waits for the engine's reaction.
  func set(_ field: Field, to value: Int?) async {
    let before = model.input
    let mark = Mark(sleeps: clock.sleepsStarted, calculations: starts.mark())
    switch field {
    case .a: model.a = value
    case .b: model.b = value
    }
    let input = model.input
    guard input != before else { return }
    onChange?()
    switch engine {
    case .task, .shared: await calculationStarted(for: input, mark: mark)
    case .pipeline: await pipelineRead(mark: mark)
    case .debounce: await debouncedRead(mark: mark)
    }
  }

  /// Moves time forward by `duration`, stopping at every wake-up on the way to wait for its effect.
  func wait(_ duration: Duration) async {
    let target = clock.now.advanced(by: duration)
    while let next = clock.nextDeadline, next <= target {
      await step(to: next)
    }
    await clock.advance(to: target)
  }

  /// Moves time until nothing sleeps on the clock any more: every calculation in flight has ended.
  func finish() async {
    while let next = clock.nextDeadline {
      await step(to: next)
    }
  }

  // MARK: Reactions

  /// Where the clock's sleeps and the model's calculations stood when a reaction began.
  private struct Mark {
    var sleeps: Int
    var calculations: Int
  }

  /// Advances to `instant`, the earliest deadline, and waits for what the sleepers woken there do.
  private func step(to instant: TestClock.Instant) async {
    let mark = Mark(sleeps: clock.sleepsStarted, calculations: starts.mark())
    await clock.advance(to: instant)
    var settled: Input?
    if timerDeadline == instant {
      timerDeadline = nil
      if let pending, pending.deadline == instant {
        settled = pending.input
        self.pending = nil
      } else if let pending {
        // An input came while the timer slept: it sleeps again, until the newest input's deadline.
        timerDeadline = pending.deadline
        await clock.waitForSleeper(until: pending.deadline, startedAfter: mark.sleeps)
      }
    }
    if let calculation, calculation.deadline == instant {
      self.calculation = nil
      // A debounce settling at the same instant replaces the calculation, which then shows nothing.
      if settled == nil {
        await waitUntilShown(calculation.input)
      }
    }
    if let settled {
      await calculationStarted(for: settled, mark: mark)
    }
  }

  /// The pipeline's iterators (`a` and `b`, each watching the whole input) read the form; waits until they
  /// have, and for the calculation of the pair that `combineLatest` makes, if any.
  ///
  /// An iterator reads unless its number is held in `combineLatest`; an empty field or a repeated number is
  /// dropped; a new number makes a pair once both fields have had one, which releases a held field to read in
  /// turn. Reads, not waits, are what the driver can count here: a held iterator does not wait again until the
  /// pair forms. Waiting for the read is enough, because whatever happens to the value after it no longer
  /// depends on the form.
  private func pipelineRead(mark: Mark) async {
    var reading = [Field.a, .b].filter { !held.contains($0) }
    var pair: Input?
    while !reading.isEmpty {
      let field = reading.removeFirst()
      let other: Field = field == .a ? .b : .a
      let value = field == .a ? model.a : model.b
      expectedReads += 1
      guard let value, value != lastNumbers[field] else { continue }
      lastNumbers[field] = value
      guard lastNumbers[other] != nil else {
        held.insert(field)
        continue
      }
      pair = Input(a: lastNumbers[.a], b: lastNumbers[.b])
      if held.remove(other) != nil { reading.append(other) }
    }
    await activity.wait(reads: expectedReads)
    if let pair { await calculationStarted(for: pair, mark: mark) }
  }

  /// The debounce's iterator reads the form: once the debounce has it, it settles an interval from now, and a
  /// timer that was idle sleeps until then.
  private func debouncedRead(mark: Mark) async {
    expectedWaits += 1
    await activity.wait(waits: expectedWaits)
    let deadline = clock.now.advanced(by: interval)
    pending = (model.input, deadline)
    if timerDeadline == nil {
      timerDeadline = deadline
      await clock.waitForSleeper(until: deadline, startedAfter: mark.sleeps)
    }
  }

  /// A calculation of `input` starts now (replacing any in flight): wait until it sleeps, or, without a
  /// delay, until its outcome shows.
  private func calculationStarted(for input: Input, mark: Mark) async {
    guard input.operands != nil else {
      calculation = nil
      return
    }
    guard delay > .zero else {
      calculation = nil
      await waitUntilShown(input)
      return
    }
    let deadline = clock.now.advanced(by: delay)
    calculation = (input, deadline)
    // This calculation's own sleep: an earlier one, cancelled by it, may sleep until the same instant.
    let sleepsBefore = await starts.wait(for: input, from: mark.calculations)
    await clock.waitForSleeper(until: deadline, startedAfter: sleepsBefore)
    onChange?()  // computing, for a debounce that settled just now
  }

  /// Suspends until the model shows an outcome for `input`.
  private func waitUntilShown(_ input: Input) async {
    let model = self.model
    for await shown in Observed({ model.outcome?.input == input }) where shown {
      onChange?()
      return
    }
  }
}
