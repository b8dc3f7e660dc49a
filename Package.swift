// swift-tools-version: 6.2
import PackageDescription

// 6.2: the code uses `weak let` and `Task.immediate`, which need the Swift 6.2 compiler (Xcode 26); see
// Docs/Decisions/tools-version.md.

let strictSettings: [SwiftSetting] = [
  .enableUpcomingFeature("ExistentialAny"),
  .enableUpcomingFeature("MemberImportVisibility"),
]

// Where Apple platforms before OS 26 take another path (`Task.immediate` is missing there), building with
// RIPPLE_TASK_START_FALLBACK=1 in the environment makes Linux take that path too, so the tests run on it:
// `.ci/run` runs the Ripple suite that way. Release builds for users never set it.
let rippleSettings =
  strictSettings
  + (Context.environment["RIPPLE_TASK_START_FALLBACK"] == "1" ? [.define("RIPPLE_TASK_START_FALLBACK")] : [])

let package = Package(
  name: "Ripple",
  // The floor where `Mutex`, `Atomic`, typed-throws `AsyncSequence` and `next(isolation:)` all exist,
  // so every platform runs the same code path.
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
  products: [
    .library(name: "Ripple", targets: ["Ripple"]),
    .library(name: "RippleTesting", targets: ["RippleTesting"]),
    // The domain of the slow calculator, for the SwiftUI example (Examples/SlowCalculatorApp) and users' apps.
    .library(name: "Calculator", targets: ["Calculator"]),
    .executable(name: "calc", targets: ["calc"]),
  ],
  targets: [
    // ThreadSanitizer annotations for Ripple's locks (`_Mutex`): see Docs/Reliability.md.
    .target(name: "_RippleTSan"),
    // What the package's modules share and users never see: the lock and the FIFO queue, in `package` access, as
    // swift-collections keeps InternalCollectionsUtilities.
    .target(name: "InternalRippleUtilities", dependencies: ["_RippleTSan"], swiftSettings: strictSettings),
    .target(name: "Ripple", dependencies: ["InternalRippleUtilities"], swiftSettings: rippleSettings),
    .target(name: "RippleTesting", dependencies: ["Ripple", "InternalRippleUtilities"], swiftSettings: strictSettings),
    .target(name: "Calculator", dependencies: ["Ripple"], swiftSettings: strictSettings),
    // `calc`'s front end, a target and not a product: only `calc` and its tests use it. `--clock virtual` drives a
    // `TestClock`, so it links RippleTesting.
    .target(
      name: "CalculatorTerminal", dependencies: ["Calculator", "RippleTesting", "InternalRippleUtilities"],
      swiftSettings: strictSettings),
    .executableTarget(
      name: "calc", dependencies: ["CalculatorTerminal"], swiftSettings: strictSettings),
    .executableTarget(name: "ripple-bench", dependencies: ["Ripple"], swiftSettings: strictSettings),
    .testTarget(
      name: "RippleTests", dependencies: ["Ripple", "RippleTesting", "InternalRippleUtilities"],
      swiftSettings: strictSettings),
    .testTarget(
      name: "CalculatorTests",
      dependencies: ["Calculator", "CalculatorTerminal", "RippleTesting"],
      swiftSettings: strictSettings),
    .testTarget(
      name: "CalculatorTerminalTests",
      dependencies: ["CalculatorTerminal", "RippleTesting"],
      swiftSettings: strictSettings),
  ],
  swiftLanguageModes: [.v6]
)
