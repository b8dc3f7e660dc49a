import Observation

/// The slow calculator's state as a screen shows it — two number fields, the last result, whether a calculation
/// is in flight, the last error — kept by one of the four designs, its ``CalculatorEngine``.
///
/// Use it as the model of a form (SwiftUI, or `calc` in the terminal): bind the fields to ``a`` and ``b``, show
/// ``status`` or ``result``. Every engine agrees on the final result and never shows a result older than one
/// already shown; they differ in timing, as the designs do.
///
/// ```swift
/// let model = CalculatorModel(engine: .task(calculator: .live(delay: .seconds(1))))
/// model.b = 30
/// model.a = 12
/// // model.status: .computing, then .result(42) a second later
/// ```
///
/// The model holds its engine: releasing it releases the engine, which cancels every task the engine started —
/// unless another model shows the same engine, as the screens of a ``SharedCalculation`` do. The engine's
/// calculator is the dependency a preview or test substitutes (``SlowCalculator/instant``,
/// ``SlowCalculator/failing(_:)``). Every property a view shows is observable: each is computed from the engine's
/// observed state. See <doc:TheFourDesigns>.
@MainActor @Observable
public final class CalculatorModel {
  /// The design this model shows, fixed at creation.
  public let engine: any CalculatorEngine

  /// Creates a model showing `engine`: a new one (`.pipeline(calculator:)`, `.debounce(interval:calculator:clock:)`,
  /// `.task(calculator:)`), or a ``SharedCalculation`` other models show too.
  public init(engine: some CalculatorEngine) {
    self.engine = engine
  }

  /// Both fields, as the engine holds them; setting a different value is the change the engine reacts to.
  public var input: Input {
    get { engine.input }
    set {
      if newValue != engine.input { engine.input = newValue }
    }
  }

  /// The first field's number, `nil` while it holds none; a binding target for a number field.
  ///
  /// ```swift
  /// TextField("a", value: $model.a, format: .number)  // with `@Bindable var model`
  /// ```
  public var a: Int? {
    get { input.a }
    set { input.a = newValue }
  }

  /// The second field's number; see ``a``.
  public var b: Int? {
    get { input.b }
    set { input.b = newValue }
  }

  /// The engine's latest outcome; see ``CalculatorEngine/outcome``.
  public var outcome: Outcome? { engine.outcome }

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
  public var status: CalculatorStatus { engine.status }

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
}
