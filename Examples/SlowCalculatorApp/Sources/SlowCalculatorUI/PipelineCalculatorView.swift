#if canImport(SwiftUI)
import Calculator
import SwiftUI

/// Design 1, the Observation pipeline: each change of a field is computed at once, and a newer pair of numbers
/// cancels the calculation in flight.
public struct PipelineCalculatorView: View {
  let model: CalculatorModel

  /// The screen of a model whose engine is ``PipelineEngine``.
  public init(model: CalculatorModel) {
    self.model = model
  }

  /// The view's content.
  public var body: some View {
    CalculatorForm(
      model: model,
      footnote: "Observed fields, compacted, without repeats, combined, and computed with mapLatest."
    )
    .navigationTitle("Pipeline")
  }
}

#Preview("Pipeline") {
  NavigationStack {
    PipelineCalculatorView(model: CalculatorModel(engine: .pipeline(calculator: .instant)))
  }
}
#endif
