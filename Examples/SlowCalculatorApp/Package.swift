// swift-tools-version: 6.2
import PackageDescription

// The SwiftUI example of the slow calculator. It is a package of its own, depending on Ripple's package by path,
// so that it is never part of the root package's build (which runs on Linux, where SwiftUI does not exist). Its
// SwiftUI sources are guarded with `#if canImport(SwiftUI)`: on Linux this package builds, but contains nothing.
let package = Package(
  name: "SlowCalculatorApp",
  platforms: [.macOS(.v15), .iOS(.v18), .visionOS(.v2)],
  products: [
    .library(name: "SlowCalculatorUI", targets: ["SlowCalculatorUI"]),
    .executable(name: "SlowCalculatorApp", targets: ["SlowCalculatorApp"]),
  ],
  dependencies: [
    .package(name: "Ripple", path: "../..")
  ],
  targets: [
    // The views and their previews: thin, all logic stays in the Calculator target.
    .target(name: "SlowCalculatorUI", dependencies: [.product(name: "Calculator", package: "Ripple")]),
    // The app: one window with a tab per design.
    .executableTarget(name: "SlowCalculatorApp", dependencies: ["SlowCalculatorUI"]),
  ],
  swiftLanguageModes: [.v6]
)
