#if canImport(SwiftUI)
import Calculator

/// The models behind the example's screens: one per design, and the shared calculation of design 4. (The
/// `.task(id:)` screen of design 3 has none: its state is the view's.)
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
  /// Design 4, the shared service: the calculation itself, which a second screen edits directly…
  public let sharedCalculation: SharedCalculation
  /// …and the model of the screen that shows it in the tab.
  public let sharedEditor: CalculatorModel

  /// The app's models: the slow service with each design's default delay, and a one-second debounce.
  public static func live() -> Designs {
    let shared = SharedCalculation(calculator: .live(delay: CalculatorDesign.task.defaultDelay))
    return Designs(
      pipeline: CalculatorModel(
        engine: .pipeline(calculator: .live(delay: CalculatorDesign.pipeline.defaultDelay))),
      debounce: CalculatorModel(
        engine: .debounce(interval: .seconds(1), calculator: .live(delay: .zero))),
      task: CalculatorModel(engine: .task(calculator: .live(delay: CalculatorDesign.task.defaultDelay))),
      sharedCalculation: shared,
      sharedEditor: CalculatorModel(engine: shared))
  }

  /// Models for previews: the instant calculator everywhere.
  public static func preview() -> Designs {
    let shared = SharedCalculation(calculator: .instant)
    return Designs(
      pipeline: CalculatorModel(engine: .pipeline(calculator: .instant)),
      debounce: CalculatorModel(engine: .debounce(interval: .seconds(1), calculator: .instant)),
      task: CalculatorModel(engine: .task(calculator: .instant)),
      sharedCalculation: shared,
      sharedEditor: CalculatorModel(engine: shared))
  }
}
#endif
