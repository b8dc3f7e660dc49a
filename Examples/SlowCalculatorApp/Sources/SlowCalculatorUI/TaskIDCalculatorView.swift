#if canImport(SwiftUI)
import Calculator
import SwiftUI

extension EnvironmentValues {
  /// The slow service that ``TaskIDCalculatorView`` calls: the live one by default, one second per sum. Previews
  /// and tests substitute another with `.environment(\.slowCalculator, .instant)`.
  @Entry public var slowCalculator: SlowCalculator = .live()
}

/// Design 3 as SwiftUI writes it, with no model at all: the input is the view's `@State`, and
/// `.task(id: input)` cancels the calculation in flight and starts a new one whenever the input changes.
///
/// The calculator is a value read from the environment, so a preview substitutes ``SlowCalculator/instant`` and
/// never waits. The task lives exactly as long as the view is on screen: it starts when the view appears, restarts
/// on each change of `input`, and is cancelled when the view goes away. ``TaskCalculatorView`` is the same design
/// in a model, for state that must outlive the screen.
public struct TaskIDCalculatorView: View {
  @State var input = Input()
  @State var result: Int?
  @State var error: CalculatorError?
  @Environment(\.slowCalculator) private var calculator

  /// A screen with empty fields.
  public init() {}

  /// The view's content.
  public var body: some View {
    Form {
      Section {
        TextField("a", value: $input.a, format: .number)
        TextField("b", value: $input.b, format: .number)
      } footer: {
        Text("`.task(id: input)` restarts the calculation on every change; the one in flight is cancelled.")
      }
      Section("a + b") {
        if let error {
          Text(error.description).foregroundStyle(.red)
        } else if let result {
          Text(result, format: .number)
        } else {
          Text("Type a number in each field").foregroundStyle(.secondary)
        }
      }
    }
    .task(id: input) {
      guard input.operands != nil else { return }
      do {
        result = try await calculator.result(for: input)
        error = nil
      } catch let failure as CalculatorError {
        error = failure
      } catch {
        // Cancelled: a newer input's task has started, or the view went away.
      }
    }
    .navigationTitle(".task(id:)")
  }
}

#Preview(".task(id:)") {
  NavigationStack {
    TaskIDCalculatorView()
  }
  .environment(\.slowCalculator, .instant)
}
#endif
