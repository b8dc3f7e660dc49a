#if canImport(SwiftUI)
import Calculator
import SwiftUI

/// Design 4, the shared service: two screens with different lifetimes show and edit one `SharedCalculation`.
///
/// This screen lives as long as its tab; the sheet it opens lives only while it is shown. Both edit the same
/// calculation, which the app owns: closing the sheet ends nothing, and a sum started in the sheet arrives here.
/// A `.task(id:)` could not do this, as its task belongs to one view on screen.
public struct SharedCalculatorView: View {
  let editor: CalculatorModel
  let calculation: SharedCalculation
  @State private var isShowingSecondScreen = false

  /// The screen of `editor`, a model whose engine is `calculation` itself, which the
  /// sheet edits directly.
  public init(editor: CalculatorModel, calculation: SharedCalculation) {
    self.editor = editor
    self.calculation = calculation
  }

  /// The view's content.
  public var body: some View {
    CalculatorForm(
      model: editor,
      footnote: "One object owns the input, the result and the task; every screen shows the same calculation."
    )
    .toolbar {
      Button("Open a second screen") { isShowingSecondScreen = true }
    }
    .sheet(isPresented: $isShowingSecondScreen) {
      SharedCalculationScreen(calculation: calculation)
    }
    .navigationTitle("Shared service")
  }
}

/// The second screen: bound straight to the `SharedCalculation`, as another part of an app would be. It exists
/// only while the sheet is shown.
struct SharedCalculationScreen: View {
  @Bindable var calculation: SharedCalculation
  @Environment(\.dismiss) private var dismiss

  var body: some View {
    NavigationStack {
      Form {
        Section {
          TextField("a", value: $calculation.input.a, format: .number)
          TextField("b", value: $calculation.input.b, format: .number)
        } footer: {
          Text("The same calculation as the screen behind: edit here, close, and the sum is there.")
        }
        Section("a + b") {
          HStack {
            if calculation.isCalculating { ProgressView() }
            switch calculation.outcome?.value {
            case .success(let sum)?: Text(sum, format: .number)
            case .failure(let error)?: Text(error.description).foregroundStyle(.red)
            case nil: Text("No sum yet").foregroundStyle(.secondary)
            }
          }
        }
      }
      .navigationTitle("Second screen")
      .toolbar {
        Button("Done") { dismiss() }
      }
    }
  }
}

#Preview("Shared service") {
  let calculation = SharedCalculation(calculator: .instant)
  return NavigationStack {
    SharedCalculatorView(
      editor: CalculatorModel(engine: calculation), calculation: calculation)
  }
}

#Preview("Second screen") {
  SharedCalculationScreen(calculation: SharedCalculation(calculator: .instant))
}
#endif
