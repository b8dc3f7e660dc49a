#if canImport(SwiftUI)
import Calculator
import SwiftUI

/// The example's window: one tab per design.
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
      Tab("Shared", systemImage: "person.2") {
        NavigationStack { SharedCalculatorView(editor: designs.sharedEditor, viewer: designs.sharedViewer) }
      }
    }
  }
}

#Preview("All designs") {
  DesignsView(designs: .preview())
}
#endif
