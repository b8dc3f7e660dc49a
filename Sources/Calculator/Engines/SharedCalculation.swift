import Observation

/// Design 4, the shared service: one object owns the input, the result and its task, so that separate parts of
/// a UI, with different lifetimes, share one calculation (<doc:TheFourDesigns#4-The-shared-service>).
///
/// It restarts on change as a ``TaskEngine`` does, in an object the app holds rather than a screen. Each screen
/// has a model of its own, made from the calculation alone.
///
/// ```swift
/// let calculation = SharedCalculation(calculator: .live(delay: .seconds(1)))
/// let screenA = CalculatorModel(engine: calculation)
/// let screenB = CalculatorModel(engine: calculation)
/// screenA.a = 12
/// screenB.b = 30
/// // a second later both screens show 42
/// ```
///
/// Releasing the object — its last screen and whoever else holds it — cancels its calculation.
@MainActor @Observable
public final class SharedCalculation: CalculatorEngine {
  @ObservationIgnored private let calculation: TaskEngine

  /// Creates a shared calculation using `calculator`; nothing runs until the input is complete.
  public init(calculator: SlowCalculator) {
    calculation = TaskEngine(calculator: calculator)
  }

  /// Both fields; setting a different value restarts the calculation.
  public var input: Input {
    get { calculation.input }
    set { calculation.input = newValue }
  }

  /// The latest calculation's outcome; see ``CalculatorEngine/outcome``.
  public var outcome: Outcome? { calculation.outcome }

  /// Whether the current input's calculation is in flight: ``status`` is ``CalculatorStatus/computing``.
  public var isCalculating: Bool { status == .computing }
}
