import Observation
import Ripple

/// Design 2, the Combine original: wait until the input has been still for an interval, then calculate it
/// (<doc:TheFourDesigns#2-The-debounced-pipeline-the-Combine-original>).
///
/// ```swift
/// let model = CalculatorModel(engine: .debounce(interval: .seconds(1), calculator: .instant))
/// model.a = 1
/// model.b = 2
/// // model.status: .settling, then .result(3) a second later
/// ```
///
/// Typing continuously calculates nothing until the typing pauses. The pipeline runs in a task the engine starts
/// when it is created and cancels when it is released; a newer settled input cancels the calculation in flight.
@MainActor @Observable
public final class DebounceEngine: CalculatorEngine {
  /// Both fields; see ``CalculatorEngine/input``.
  public var input = Input()
  /// The latest calculation's outcome; see ``CalculatorEngine/outcome``.
  public private(set) var outcome: Outcome?
  /// The input whose calculation started last: until it is the current one, the input settles.
  private var settledInput: Input?
  @ObservationIgnored private var pipeline: Task<Void, Never>?

  /// Creates the engine and starts its pipeline, which calculates an input that stayed unchanged for `interval`
  /// on `clock` with `calculator`.
  public init(
    interval: Duration = CalculatorDesign.defaultDebounceInterval, calculator: SlowCalculator,
    clock: some Clock<Duration> = ContinuousClock()
  ) {
    pipeline = Task { [weak self] in
      let outcomes = Observed.untilFinished { [weak self] in self.map { .next($0.input) } ?? .finish }
        .debounce(for: interval, clock: clock)
        .mapLatest { [weak self] input in
          // The transform runs on the main actor, where it was written; a superseded one reports nothing.
          if !Task.isCancelled { self?.settledInput = input }
          return await Outcome.calculate(input, with: calculator)
        }
      for await case let outcome? in outcomes {
        self?.outcome = outcome
      }
    }
  }

  deinit {
    pipeline?.cancel()
  }

  /// ``CalculatorStatus/settling`` while the input waits to settle, otherwise as ``CalculatorEngine/status``.
  public var status: CalculatorStatus {
    let status = CalculatorStatus.of(input, latest: outcome)
    return status == .computing && settledInput != input ? .settling : status
  }
}

extension CalculatorEngine where Self == DebounceEngine {
  /// A ``DebounceEngine``; see ``DebounceEngine/init(interval:calculator:clock:)``.
  public static func debounce(
    interval: Duration = CalculatorDesign.defaultDebounceInterval, calculator: SlowCalculator,
    clock: some Clock<Duration> = ContinuousClock()
  ) -> DebounceEngine {
    DebounceEngine(interval: interval, calculator: calculator, clock: clock)
  }
}
