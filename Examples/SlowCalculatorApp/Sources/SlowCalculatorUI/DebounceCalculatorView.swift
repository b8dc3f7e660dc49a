#if canImport(SwiftUI)
import Calculator
import SwiftUI

/// Design 2, the debounced Combine original: the input is computed once it has been still for a second.
public struct DebounceCalculatorView: View {
  let model: CalculatorModel

  /// The screen of a model whose engine is ``DebounceEngine``.
  public init(model: CalculatorModel) {
    self.model = model
  }

  /// The view's content.
  public var body: some View {
    CalculatorForm(
      model: model,
      footnote: "The input is computed once it has been still for the debounce interval."
    )
    .navigationTitle("Debounce")
  }
}

#Preview("Debounce") {
  NavigationStack {
    DebounceCalculatorView(
      model: CalculatorModel(engine: .debounce(interval: .seconds(1), calculator: .instant)))
  }
}
#endif
