#if canImport(SwiftUI)
import Calculator
import SwiftUI

/// The example's window: one tab per design, and design 3 twice — in a model, and as a view's `.task(id:)`.
public struct DesignsView: View {
  let designs: Designs

  /// The tabs for `designs`.
  public init(designs: Designs) {
    self.designs = designs
  }

  /// The view's content.
  public var body: some View {
    TabView {
      Tab("Pipeline", systemImage: "arrow.triangle.merge") {
        NavigationStack { PipelineCalculatorView(model: designs.pipeline) }
      }
      Tab("Debounce", systemImage: "timer") {
        NavigationStack { DebounceCalculatorView(model: designs.debounce) }
      }
      Tab("Restart", systemImage: "arrow.clockwise") {
        NavigationStack { TaskCalculatorView(model: designs.task) }
      }
      Tab(".task(id:)", systemImage: "arrow.clockwise.circle") {
        NavigationStack { TaskIDCalculatorView() }
      }
      Tab("Shared", systemImage: "person.2") {
        NavigationStack {
          SharedCalculatorView(editor: designs.sharedEditor, calculation: designs.sharedCalculation)
        }
      }
    }
  }
}

#Preview("All designs") {
  DesignsView(designs: .preview())
    .environment(\.slowCalculator, .instant)
}
#endif
