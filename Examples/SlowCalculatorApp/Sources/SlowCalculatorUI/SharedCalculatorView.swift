#if canImport(SwiftUI)
import Calculator
import SwiftUI

/// Design 4, the shared service: two panels, each with a model of its own, show and edit one
/// `SharedCalculation`.
public struct SharedCalculatorView: View {
  let editor: CalculatorModel
  let viewer: CalculatorModel

  /// The screen of two models whose engine is the same ``CalculatorEngine/shared(_:)`` calculation.
  public init(editor: CalculatorModel, viewer: CalculatorModel) {
    self.editor = editor
    self.viewer = viewer
  }

  /// The view's content.
  public var body: some View {
    VStack(spacing: 0) {
      CalculatorForm(
        model: editor,
        footnote: "One object owns the input, the result and the task; every screen shows the same calculation."
      )
      Divider()
      SharedSummaryView(model: viewer)
    }
    .navigationTitle("Shared service")
  }
}

/// A second, read-only panel on the shared calculation: what another part of the app would show.
struct SharedSummaryView: View {
  let model: CalculatorModel

  var body: some View {
    HStack {
      Text("Elsewhere in the app: \(model.input.description) =")
      ResultView(model: model)
    }
    .padding()
  }
}

#Preview("Shared service") {
  let calculation = SharedCalculation(calculator: .instant)
  return NavigationStack {
    SharedCalculatorView(
      editor: CalculatorModel(engine: .shared(calculation), calculator: .instant),
      viewer: CalculatorModel(engine: .shared(calculation), calculator: .instant))
  }
}
#endif
