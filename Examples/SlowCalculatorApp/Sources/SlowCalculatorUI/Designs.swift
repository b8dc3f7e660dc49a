#if canImport(SwiftUI)
import Calculator

/// The models behind the example's screens: one per design, and two on one shared calculation.
///
/// Create it once, where the app starts, so that each model — and the tasks it owns — lives as long as the app.
@MainActor
public struct Designs {
  /// Design 1, the Observation pipeline.
  public let pipeline: CalculatorModel
  /// Design 2, the debounced Combine original.
  public let debounce: CalculatorModel
  /// Design 3, restart on change.
  public let task: CalculatorModel
  /// Design 4, the shared service, as the screen that edits it shows it.
  public let sharedEditor: CalculatorModel
  /// Design 4 again: another model of the same calculation, for a second panel.
  public let sharedViewer: CalculatorModel

  /// The app's models: the slow service with each design's default delay, and a one-second debounce.
  public static func live() -> Designs {
    let shared = SharedCalculation(calculator: .live(delay: CalculatorEngine.task.defaultDelay))
    return Designs(
      pipeline: CalculatorModel(
        engine: .pipeline, calculator: .live(delay: CalculatorEngine.pipeline.defaultDelay)),
      debounce: CalculatorModel(
        engine: .debounce(interval: .seconds(1)), calculator: .live(delay: .zero)),
      task: CalculatorModel(engine: .task, calculator: .live(delay: CalculatorEngine.task.defaultDelay)),
      sharedEditor: CalculatorModel(engine: .shared(shared), calculator: .instant),
      sharedViewer: CalculatorModel(engine: .shared(shared), calculator: .instant))
  }

  /// Models for previews: the instant calculator everywhere.
  public static func preview() -> Designs {
    let shared = SharedCalculation(calculator: .instant)
    return Designs(
      pipeline: CalculatorModel(engine: .pipeline, calculator: .instant),
      debounce: CalculatorModel(engine: .debounce(interval: .seconds(1)), calculator: .instant),
      task: CalculatorModel(engine: .task, calculator: .instant),
      sharedEditor: CalculatorModel(engine: .shared(shared), calculator: .instant),
      sharedViewer: CalculatorModel(engine: .shared(shared), calculator: .instant))
  }
}
#endif
