#if canImport(SwiftUI)
import SlowCalculatorUI
import SwiftUI

#if os(macOS)
import AppKit
#endif

/// The slow calculator, in its four designs.
@main
@MainActor
struct SlowCalculatorApp: App {
  // The app lives as long as the process: its models, and the tasks they own, do too.
  @State private var designs = Designs.live()

  init() {
    #if os(macOS)
    // `swift run` starts a bare executable, not an app bundle: without a regular activation policy it gets no Dock
    // icon and no menu bar, and its window opens behind the terminal without keyboard focus.
    NSApplication.shared.setActivationPolicy(.regular)
    NSApplication.shared.activate()
    #endif
  }

  var body: some Scene {
    WindowGroup {
      DesignsView(designs: designs)
    }
  }
}
#else
/// Where SwiftUI does not exist, the example only says so; the root package's `calc` is the terminal front end.
@main
enum SlowCalculatorApp {
  static func main() {
    print("SlowCalculatorApp needs SwiftUI: run it on macOS, or open Examples/SlowCalculatorApp in Xcode.")
  }
}
#endif
