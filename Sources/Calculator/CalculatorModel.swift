import Observation
import Ripple

/// The slow calculator's state — two number fields, the last result, whether a calculation is in flight, the
/// last error — driven by one of the four designs (``CalculatorEngine``).
///
/// Use it as the model of a form (SwiftUI, or `calc` in the terminal): bind the fields to ``a`` and ``b``, show
/// ``status`` or ``result``. Every engine agrees on the final result and never shows a result older than one
/// already shown; they differ in timing, as the designs do.
///
/// ```swift
/// let model = CalculatorModel(engine: .task, calculator: .live(delay: .seconds(1)))
/// model.b = 30
/// model.a = 12
/// // model.status: .computing, then .result(42) a second later
/// ```
///
/// Releasing the model cancels every task it started. The calculator is the dependency a preview or test
/// substitutes (``SlowCalculator/instant``, ``SlowCalculator/failing(_:)``); `clock` times the debounce.
@MainActor @Observable
public final class CalculatorModel {
  /// The design this model runs.
  public let engine: CalculatorEngine
  @ObservationIgnored let calculator: SlowCalculator
  @ObservationIgnored let clock: AnyClock
  /// The model's own tasks; releasing the model releases the slots, which cancels them.
  @ObservationIgnored let engineTask = TaskSlot()
  @ObservationIgnored let calculation = TaskSlot()
  @ObservationIgnored let activity = ActivityCounter()

  private var ownInput = Input()
  private var ownOutcome: Outcome?

  /// Creates a model running `engine`.
  ///
  /// - Parameters:
  ///   - engine: The design.
  ///   - calculator: The slow service (for ``CalculatorEngine/shared(_:)`` the shared object's own is used).
  ///   - clock: The clock the debounce waits on.
  public init(engine: CalculatorEngine, calculator: SlowCalculator, clock: some Clock<Duration> = ContinuousClock()) {
    self.engine = engine
    self.calculator = calculator
    self.clock = AnyClock(clock)
    switch engine {
    case .pipeline: startPipeline()
    case .debounce(let interval): startDebounce(interval: interval)
    case .task, .shared: break
    }
  }

  /// Both fields.
  public var input: Input {
    get {
      if case .shared(let shared) = engine { return shared.input }
      return ownInput
    }
    set {
      if case .shared(let shared) = engine {
        shared.input = newValue
        return
      }
      guard newValue != ownInput else { return }
      ownInput = newValue
      if case .task = engine { restartCalculation() }
    }
  }

  /// The first field's number, `nil` while it holds none.
  public var a: Int? {
    get { input.a }
    set { input.a = newValue }
  }

  /// The second field's number, `nil` while it holds none.
  public var b: Int? {
    get { input.b }
    set { input.b = newValue }
  }

  /// The latest calculation's outcome, for whichever input it was.
  public var outcome: Outcome? {
    if case .shared(let shared) = engine { return shared.outcome }
    return ownOutcome
  }

  /// What the result area shows for the current input.
  public var status: CalculatorStatus {
    CalculatorStatus.of(input, latest: outcome)
  }

  /// The last sum calculated, kept visible while a newer input is computing.
  public var result: Int? {
    if case .success(let sum) = outcome?.value { return sum }
    return nil
  }

  /// Whether the current input's calculation is in flight (or, for the debounce, waiting to start).
  public var isCalculating: Bool { status == .computing }

  /// The current input's error, if its calculation failed.
  public var error: CalculatorError? {
    if case .error(let error) = status { return error }
    return nil
  }

  /// Called with every outcome the model shows, for tests that check the whole history.
  @ObservationIgnored var onOutcome: (@MainActor (Outcome) -> Void)?

  /// The engines report each outcome here; outcomes come newest-last, so the latest always wins.
  func record(_ outcome: Outcome) {
    ownOutcome = outcome
    onOutcome?(outcome)
  }
}
