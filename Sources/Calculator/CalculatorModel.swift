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
/// substitutes (``SlowCalculator/instant``, ``SlowCalculator/failing(_:)``); `clock` times the debounce. Every
/// property a view shows is observable: ``status``, ``result``, ``isCalculating`` and ``error`` are computed from
/// the observed ``input`` and ``outcome``. See <doc:TheFourDesigns>.
@MainActor @Observable
public final class CalculatorModel {
  /// The design this model runs, fixed at creation.
  public let engine: CalculatorEngine
  @ObservationIgnored let calculator: SlowCalculator
  @ObservationIgnored let clock: AnyClock
  /// The model's own tasks; releasing the model releases the slots, which cancels them.
  @ObservationIgnored let engineTask = TaskSlot()
  @ObservationIgnored let calculation = TaskSlot()

  /// The fields, stored apart: a view or pipeline that reads one field is not woken by edits of the other.
  private var ownA: Int?
  private var ownB: Int?
  private var ownOutcome: Outcome?
  /// The input whose calculation the debounce engine started last: until it is the current one, the input settles.
  private var debouncedInput: Input?

  /// Creates a model running `engine`.
  ///
  /// The pipeline and debounce engines start their task here; the task and shared engines start one per input.
  ///
  /// ```swift
  /// let model = CalculatorModel(engine: .pipeline, calculator: .instant)  // a preview's model
  /// let tested = CalculatorModel(engine: .debounce(interval: .seconds(1)), calculator: .instant, clock: TestClock())
  /// ```
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
  ///
  /// Setting it to a different value starts the engine's reaction: a restart for the task and shared engines, a
  /// transaction the pipelines observe. For the shared engine it reads and writes the shared object's input.
  public var input: Input {
    get {
      if case .shared(let shared) = engine { return shared.input }
      return Input(a: ownA, b: ownB)
    }
    set {
      if case .shared(let shared) = engine {
        shared.input = newValue
        return
      }
      guard newValue != Input(a: ownA, b: ownB) else { return }
      if ownA != newValue.a { ownA = newValue.a }
      if ownB != newValue.b { ownB = newValue.b }
      if case .task = engine { restartCalculation() }
    }
  }

  /// The first field's number, `nil` while it holds none; a binding target for a number field.
  ///
  /// ```swift
  /// TextField("a", value: $model.a, format: .number)  // with `@Bindable var model`
  /// ```
  public var a: Int? {
    get {
      if case .shared(let shared) = engine { return shared.input.a }
      return ownA
    }
    set { input.a = newValue }
  }

  /// The second field's number, `nil` while it holds none; a binding target for a number field.
  public var b: Int? {
    get {
      if case .shared(let shared) = engine { return shared.input.b }
      return ownB
    }
    set { input.b = newValue }
  }

  /// The latest calculation's outcome, for whichever input it was; `nil` until the first calculation ends.
  ///
  /// Cancelled calculations report nothing, so this never goes back to an older input's outcome.
  public var outcome: Outcome? {
    if case .shared(let shared) = engine { return shared.outcome }
    return ownOutcome
  }

  /// What the result area shows for the current input.
  ///
  /// ```swift
  /// switch model.status {
  /// case .waiting: Text("Enter two numbers")
  /// case .settling: Text("…")  // the debounce engine waits for the typing to stop
  /// case .computing: ProgressView()
  /// case .result(let sum): Text(sum, format: .number)
  /// case .error(let error): Text(error.description)
  /// }
  /// ```
  public var status: CalculatorStatus {
    let status = CalculatorStatus.of(input, latest: outcome)
    if status == .computing, case .debounce = engine, debouncedInput != input { return .settling }
    return status
  }

  /// The last sum calculated, kept visible while a newer input is computing; `nil` before the first sum or when
  /// the latest calculation failed.
  public var result: Int? {
    if case .success(let sum) = outcome?.value { return sum }
    return nil
  }

  /// Whether the current input's calculation is in flight: the moment to show a progress indicator. (While the
  /// debounce engine waits for the input to settle, nothing is calculating: ``status`` is ``CalculatorStatus/settling``.)
  public var isCalculating: Bool { status == .computing }

  /// The current input's error, if its calculation failed; `nil` while it computes or when it succeeded.
  public var error: CalculatorError? {
    if case .error(let error) = status { return error }
    return nil
  }

  /// The debounce engine reports that the input settled and its calculation starts.
  func debounceSettled(_ input: Input) {
    debouncedInput = input
  }

  /// The engines report each outcome here; outcomes come newest-last, so the latest always wins.
  func record(_ outcome: Outcome) {
    ownOutcome = outcome
  }
}
