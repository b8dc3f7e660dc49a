/// Which of the four slow-calculator designs a ``CalculatorModel`` runs.
///
/// Pick the design to compare, or the one whose timing your screen needs; every engine shows the same final result.
/// See <doc:TheFourDesigns> for how each works and how their timing differs.
///
/// ```swift
/// let typing = CalculatorModel(engine: .debounce(interval: .seconds(1)), calculator: .live(delay: .zero))
/// let restarting = CalculatorModel(engine: .task, calculator: .live(delay: .seconds(1)))
/// print(CalculatorEngine.task.name)          // task
/// print(CalculatorEngine.task.defaultDelay)  // 1.0 seconds
/// ```
public enum CalculatorEngine: Sendable {
  /// The Observation pipeline: `Observed` on `a` and `b`, `compacted()`, `removeDuplicates()`,
  /// `combineLatest`, then the calculator through `mapLatest`.
  case pipeline
  /// The Combine original: input changes debounced for `interval` on the model's clock, then calculated; a newer
  /// settled input cancels the calculation in flight.
  case debounce(interval: Duration)
  /// Restart on change, as SwiftUI's `.task(id: input)`: each change cancels the calculation in flight and
  /// starts a new one; the model's end cancels it.
  case task
  /// A shared service object that owns input and result and manages its task; several models (screens) can
  /// show the same calculation.
  case shared(SharedCalculation)

  /// The engine's name as `calc --engine` spells it.
  public var name: String {
    switch self {
    case .pipeline: "pipeline"
    case .debounce: "debounce"
    case .task: "task"
    case .shared: "shared"
    }
  }

  /// The names `calc --engine` accepts.
  public static let names = ["pipeline", "debounce", "task", "shared"]

  /// The calculator delay each design uses by default: none for the pipelines, 1 s for the others.
  public var defaultDelay: Duration {
    switch self {
    case .pipeline, .debounce: .zero
    case .task, .shared: .seconds(1)
    }
  }
}
