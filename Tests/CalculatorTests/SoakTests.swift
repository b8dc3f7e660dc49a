import Calculator
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Long random scripts through each engine in virtual time: no stale result, the right result whenever the model
/// settles, and flat memory.
///
/// `swift test` plays 10,000 events per engine. `Scripts/soak.sh` plays 1,000,000 in a release build with only
/// this suite running (`RIPPLE_SOAK_EVENTS=1000000`), and only then checks memory: resident memory may grow by less
/// than 1 MiB after the first tenth of the script. (Alongside the other suites, their memory would be measured
/// too.)
@Suite("Soak", .serialized, .timeLimit(.minutes(60)))
@MainActor
struct SoakTests {
  static let events = environmentInteger("RIPPLE_SOAK_EVENTS") ?? 10_000
  static let seed = UInt64(environmentInteger("RIPPLE_SOAK_SEED") ?? 0x50AC)
  /// Memory is only measured in a run of its own, long enough to tell growth from noise.
  static let checksMemory = events >= 100_000

  @Test(
    "random edits and waits: no stale result, the sum whenever it settles, flat memory",
    arguments: CalculatorDesign.allCases)
  func soak(kind: CalculatorDesign) async {
    let report = await Soak(kind: kind, events: Self.events, seed: Self.seed).run()
    print(report)
    #expect(report.stale == 0)
    #expect(report.wrongResults.isEmpty, "\(report.wrongResults.prefix(5))")
    #expect(report.outcomes > 0)
    if Self.checksMemory {
      #expect(report.growth < 1 << 20, "\(report)")
    }
  }

  static func environmentInteger(_ name: String) -> Int? {
    getenv(name).flatMap { Int(String(cString: $0)) }
  }
}
