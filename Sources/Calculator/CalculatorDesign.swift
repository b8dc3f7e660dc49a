/// The four designs of the slow calculator by name, with their defaults: what `calc --engine` accepts and what a
/// picker of designs lists.
///
/// This is the one place the designs are named and their defaults written; what each design does is its
/// ``CalculatorEngine`` type. The raw value is the name `calc` prints and parses.
///
/// ```swift
/// CalculatorDesign(rawValue: "task")          // .task
/// CalculatorDesign.task.defaultDelay          // 1.0 seconds
/// CalculatorDesign.allCases.map(\.rawValue)   // ["pipeline", "debounce", "task", "shared"]
/// ```
public enum CalculatorDesign: String, CaseIterable, Sendable {
  /// The Observation pipeline, ``PipelineEngine``.
  case pipeline
  /// The debounced Combine original, ``DebounceEngine``.
  case debounce
  /// Restart on change, ``TaskEngine``.
  case task
  /// The shared service, ``SharedCalculation``.
  case shared

  /// The calculator delay the design is shown with by default: none for the pipelines, one second for the others.
  public var defaultDelay: Duration {
    switch self {
    case .pipeline, .debounce: .zero
    case .task, .shared: .seconds(1)
    }
  }

  /// How long the debounce design waits for the input to settle by default: one second, as the Combine original.
  public static let defaultDebounceInterval: Duration = .seconds(1)

  /// A new engine of this design, for a program that picks the design by name; `debounce` and `clock` are the
  /// debounce design's.
  @MainActor
  package func makeEngine(
    calculator: SlowCalculator, debounce: Duration = defaultDebounceInterval, clock: some Clock<Duration>
  ) -> any CalculatorEngine {
    switch self {
    case .pipeline: PipelineEngine(calculator: calculator)
    case .debounce: DebounceEngine(interval: debounce, calculator: calculator, clock: clock)
    case .task: TaskEngine(calculator: calculator)
    case .shared: SharedCalculation(calculator: calculator)
    }
  }
}
