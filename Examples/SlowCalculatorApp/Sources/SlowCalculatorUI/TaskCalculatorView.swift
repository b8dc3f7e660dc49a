#if canImport(SwiftUI)
import Calculator
import SwiftUI

/// Design 3, restart on change: every change of the input cancels the calculation in flight and starts a new one,
/// as SwiftUI's `.task(id: input)` does — but in the model, through a `TaskSlot`, so it can outlive the screen.
/// ``TaskIDCalculatorView`` is the same design written with `.task(id:)` in the view.
public struct TaskCalculatorView: View {
  let model: CalculatorModel

  /// The screen of a model whose engine is ``TaskEngine``.
  public init(model: CalculatorModel) {
    self.model = model
  }

  /// The view's content.
  public var body: some View {
    CalculatorForm(
      model: model,
      footnote: "Each change restarts the calculation; the one in flight is cancelled."
    )
    .navigationTitle("Restart on change")
  }
}

#Preview("Restart on change") {
  NavigationStack {
    TaskCalculatorView(model: CalculatorModel(engine: .task(calculator: .instant)))
  }
}
#endif
