import Observation
import Ripple
import RippleTesting
import Testing

/// The same scripted mutations through `Observed` and the toolchain's `Observations` give the same values.
///
/// `Observations` needs OS 26 on Apple platforms, so there each test runs on OS 26 and later only (Swift Testing
/// takes availability on test functions, not on suites).
@Suite("Observed matches Observations")
struct ObservedDifferentialTests {
  static let handWritten: [ObservationStep] = [
    .transaction([.a(1)]),
    .transaction([.a(2), .b(3)]),
    .transaction([.unrelated(9), .b(4)]),
    .whileBusy([[.a(5)], [.b(6)], [.a(7)]]),
    .transaction([.b(8), .a(9), .b(10)]),
    .whileBusy([[.unrelated(1), .a(11)]]),
    .transaction([.a(12)]),
  ]

  @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
  @Test("a hand-written script on the main actor gives the expected values")
  @MainActor func handWrittenOnMainActor() async {
    let expected = [0, 1, 5, 6, 13, 19, 21, 22]
    #expect(await run(Self.handWritten, isolation: MainActor.shared, using: .observed) == expected)
    #expect(await run(Self.handWritten, isolation: MainActor.shared, using: .observations) == expected)
  }

  @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
  @Test("random scripts agree on the main actor", arguments: 0..<25)
  @MainActor func randomOnMainActor(seed: UInt64) async {
    var generator = SplitMix64(seed: seed)
    let script = ObservationStep.random(count: 30, using: &generator)
    let observed = await run(script, isolation: MainActor.shared, using: .observed)
    let observations = await run(script, isolation: MainActor.shared, using: .observations)
    #expect(observed == observations, "script: \(script)")
    #expect(observed.count == script.count + 1)
  }

  @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
  @Test("random scripts agree on a custom actor", arguments: 0..<25)
  func randomOnCustomActor(seed: UInt64) async {
    var generator = SplitMix64(seed: seed &+ 1_000)
    let script = ObservationStep.random(count: 30, using: &generator)
    let observed = await run(script, isolation: TestActor.shared, using: .observed)
    let observations = await run(script, isolation: TestActor.shared, using: .observations)
    #expect(observed == observations, "script: \(script)")
    #expect(observed.count == script.count + 1)
  }

  enum Implementation {
    case observed
    case observations
  }

  @available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
  func run(
    _ script: [ObservationStep], isolation: isolated any Actor, using implementation: Implementation
  ) async
    -> [Int]
  {
    let model = Inputs()
    switch implementation {
    case .observed:
      return await record(Observed { model.a + model.b }, model: model, script: script, isolation: isolation)
    case .observations:
      return await record(Observations { model.a + model.b }, model: model, script: script, isolation: isolation)
    }
  }
}
