#if canImport(SwiftUI)
import Calculator
import SwiftUI

/// The form every design shows: two number fields and their sum.
///
/// It binds the fields to the model and shows ``ResultView``; everything else — when to calculate, what to
/// cancel, what to show — is the model's.
public struct CalculatorForm: View {
  @Bindable var model: CalculatorModel
  let footnote: LocalizedStringKey

  /// A form for `model`, with a line of text under the fields that says how its design reacts.
  public init(model: CalculatorModel, footnote: LocalizedStringKey) {
    _model = Bindable(model)
    self.footnote = footnote
  }

  /// The view's content.
  public var body: some View {
    Form {
      Section {
        TextField("a", value: $model.a, format: .number)
        TextField("b", value: $model.b, format: .number)
      } footer: {
        Text(footnote)
      }
      Section("a + b") {
        ResultView(model: model)
      }
    }
  }
}

/// The result area: the sum, a progress indicator while the current input is computing, or why there is no sum.
public struct ResultView: View {
  let model: CalculatorModel

  /// The result area of `model`.
  public init(model: CalculatorModel) {
    self.model = model
  }

  /// The view's content.
  public var body: some View {
    HStack {
      switch model.status {
      case .waiting:
        Text("Type a number in each field").foregroundStyle(.secondary)
      case .computing:
        ProgressView()
        // The last sum stays visible, dimmed, while the new one computes.
        if let result = model.result {
          Text(result, format: .number).foregroundStyle(.secondary)
        }
      case .result(let sum):
        Text(sum, format: .number)
      case .error(let error):
        Text(error.description).foregroundStyle(.red)
      }
    }
  }
}

#Preview("Waiting") {
  CalculatorForm(model: CalculatorModel(engine: .task(calculator: .instant)), footnote: "A preview.")
}

#Preview("Overflow") {
  let model = CalculatorModel(engine: .task(calculator: .instant))
  model.a = Int.max
  model.b = 1
  return CalculatorForm(model: model, footnote: "An overflow is an error, never a trap.")
}

#Preview("No calculator substituted") {
  let model = CalculatorModel(engine: .task(calculator: .failing()))
  model.a = 1
  model.b = 2
  return CalculatorForm(model: model, footnote: "The failing stand-in says which code forgot to substitute one.")
}
#endif
