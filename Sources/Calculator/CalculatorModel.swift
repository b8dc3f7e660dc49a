import Observation

/// The slow calculator's state as a screen shows it — the two fields, the last result, whether a calculation
/// is in flight, the last error — kept by one of the four designs, its ``CalculatorEngine``.
///
/// Use it as the model of a form (SwiftUI, or `calc` in the terminal): bind the fields to ``a`` and ``b``, show
/// ``status``. Every design agrees on the final result and never shows a result older than one already shown;
/// they differ in timing (<doc:TheFourDesigns>).
///
/// ```swift
/// let model = CalculatorModel(engine: .task(calculator: .live(delay: .seconds(1))))
/// model.b = 30
/// model.a = 12
/// // model.status: .computing, then .result(42) a second later
/// TextField("a", value: $model.a, format: .number)  // in a view, with `@Bindable var model`
/// ```
///
/// Every property is observable, computed from the engine's observed state. The model holds its engine, so
/// releasing it cancels the engine's tasks — unless another model shows the same engine, as the screens of a
/// ``SharedCalculation`` do.
@MainActor @Observable
public final class CalculatorModel {
  /// The design this model shows, fixed at creation.
  public let engine: any CalculatorEngine

  /// Creates a model showing `engine`: a new one, such as `.task(calculator:)`, or a ``SharedCalculation``.
  public init(engine: some CalculatorEngine) {
    self.engine = engine
  }

  /// Both fields, as the engine holds them; see ``CalculatorEngine/input``.
  public var input: Input {
    get { engine.input }
    set {
      if newValue != engine.input { engine.input = newValue }
    }
  }

  /// The first field's number, `nil` while it holds none; a binding target for a number field.
  public var a: Int? {
    get { engine.a }
    set {
      if newValue != engine.a { engine.a = newValue }
    }
  }

  /// The second field's number; see ``a``.
  public var b: Int? {
    get { engine.b }
    set {
      if newValue != engine.b { engine.b = newValue }
    }
  }

  /// The engine's latest outcome; see ``CalculatorEngine/outcome``.
  public var outcome: Outcome? { engine.outcome }

  /// What the result area shows for the current input; see ``CalculatorStatus``.
  public var status: CalculatorStatus { engine.status }

  /// The last sum calculated, kept visible while a newer input settles or computes; `nil` before the first sum
  /// or when the latest calculation failed.
  public var result: Int? {
    if case .success(let sum) = outcome?.value { return sum }
    return nil
  }

  /// Whether ``status`` is ``CalculatorStatus/computing``: the moment to show a progress indicator.
  public var isCalculating: Bool { status == .computing }

  /// The current input's error, if its calculation failed; `nil` while it computes or when it succeeded.
  public var error: CalculatorError? {
    if case .error(let error) = status { return error }
    return nil
  }
}
