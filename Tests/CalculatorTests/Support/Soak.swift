import RippleTesting

@testable import Calculator
@testable import CalculatorTerminal

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A long random script — edits of `a` and `b` with small, empty or huge values, and waits — played through one
/// engine in virtual time (`TestClock.lockstep`), checked as it goes.
///
/// Memory stays bounded on the checking side: staleness is tracked per field and value (values come from a
/// small set), not by keeping the script.
@MainActor
struct Soak {
  let kind: CalculatorDesign
  let events: Int
  let seed: UInt64

  /// What a soak saw.
  struct Report: CustomStringConvertible {
    var kind: CalculatorDesign
    var events = 0
    var edits = 0
    var waits = 0
    var virtualTime = Duration.zero
    var outcomes = 0
    /// Outcomes calculated from older information than one shown before them (see `ages(of:typing:)`).
    var stale = 0
    var checkpoints = 0
    /// Checkpoints (every tenth of the script, and the end) where the settled status was not the sum.
    var wrongResults: [String] = []
    /// Resident memory once warm, at the end, and at most, in bytes.
    var residentAfterWarmUp = 0
    var residentAtEnd = 0
    var residentPeak = 0
    var wallTime = Duration.zero

    var growth: Int { residentAtEnd - residentAfterWarmUp }
    var peakGrowth: Int { residentPeak - residentAfterWarmUp }

    var description: String {
      func mebibytes(_ bytes: Int) -> String {
        let tenths = bytes * 10 / (1 << 20)
        return "\(tenths / 10).\(abs(tenths % 10)) MiB"
      }
      return """
        soak \(kind): \(events) events (\(edits) edits, \(waits) waits, \(virtualTime.components.seconds) s virtual), \
        \(outcomes) outcomes, \(stale) stale, \(checkpoints - wrongResults.count)/\(checkpoints) checkpoints correct, \
        RSS \(mebibytes(residentAfterWarmUp)) after warm-up, growth \(growth) bytes (peak \(peakGrowth)), \
        \(wallTime.components.seconds) s
        """
    }
  }

  /// The checking side: how recent each field of the last shown outcome was.
  @MainActor final class Checker {
    /// For each field, the index of the newest edit that gave it each value.
    var lastSet: [Edit.Field: [Int?: Int]] = [.a: [:], .b: [:]]
    var last = FieldAges(a: -1, b: -1)
    var outcomes = 0
    var stale = 0

    func edited(_ field: Edit.Field, to value: Int?, index: Int) {
      lastSet[field, default: [:]][value] = index
    }

    func shown(_ outcome: Outcome) {
      outcomes += 1
      let ages = FieldAges(
        a: lastSet[.a]?[outcome.input.a] ?? -1, b: lastSet[.b]?[outcome.input.b] ?? -1)
      if !(last <= ages) { stale += 1 }
      last = ages
    }
  }

  func run() async -> Report {
    let clock = TestClock()
    return await clock.lockstep { await run(clock: clock) }
  }

  private func run(clock: TestClock) async -> Report {
    let started = ContinuousClock.now
    var report = Report(kind: kind)
    let checker = Checker()
    let session = Session(kind, clock: clock) { checker.shown($0) }
    await clock.advance(by: .zero)

    var generator = SplitMix64(seed: seed)
    let warmUp = max(events / 10, 1)
    let checkpoint = max(events / 10, 1)
    for index in 0..<events {
      if Int.random(in: 0..<10, using: &generator) < 7 {
        let field: Edit.Field = Bool.random(using: &generator) ? .a : .b
        let value = Self.randomValue(using: &generator)
        report.edits += 1
        checker.edited(field, to: value, index: index)
        await session.set(field, to: value)
      } else {
        report.waits += 1
        await session.wait(.milliseconds(100 * Int.random(in: 0...15, using: &generator)))
      }
      if (index + 1) % checkpoint == 0 || index + 1 == events {
        // Let everything in flight settle; the model must then show the sum of what it holds.
        await session.finish()
        report.checkpoints += 1
        let expected = Self.expectedStatus(session.model.input)
        if session.model.status != expected {
          report.wrongResults.append("after \(index + 1) events: \(session.model.status), expected \(expected)")
        }
      }
      if index + 1 == warmUp {
        report.residentAfterWarmUp = Self.residentBytes()
        report.residentPeak = report.residentAfterWarmUp
      } else if index + 1 > warmUp && (index + 1) % 1_000 == 0 {
        report.residentPeak = max(report.residentPeak, Self.residentBytes())
      }
    }
    session.stop()
    report.events = events
    report.virtualTime = clock.now.offset
    report.outcomes = checker.outcomes
    report.stale = checker.stale
    report.residentAtEnd = Self.residentBytes()
    report.residentPeak = max(report.residentPeak, report.residentAtEnd)
    report.wallTime = started.duration(to: .now)
    return report
  }

  /// Empty one time in ten, huge (to overflow) one in ten, otherwise small.
  static func randomValue(using generator: inout some RandomNumberGenerator) -> Int? {
    switch Int.random(in: 0..<10, using: &generator) {
    case 0: nil
    case 1:
      Bool.random(using: &generator)
        ? Int.max - Int.random(in: 0...2, using: &generator) : Int.min + Int.random(in: 0...2, using: &generator)
    default: Int.random(in: -20...20, using: &generator)
    }
  }

  /// What a settled model must show for `input`: the sum, the overflow error, or waiting.
  static func expectedStatus(_ input: Input) -> CalculatorStatus {
    guard input.operands != nil else { return .waiting }
    do {
      return .result(try SlowCalculator.sum(input))
    } catch {
      return .error(error)
    }
  }

  /// The process's resident memory, from `/proc/self/statm`; 0 where there is none.
  static func residentBytes() -> Int {
    let descriptor = open("/proc/self/statm", O_RDONLY)
    guard descriptor >= 0 else { return 0 }
    defer { close(descriptor) }
    var buffer = [UInt8](repeating: 0, count: 128)
    let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
    guard count > 0 else { return 0 }
    // "size resident shared text lib data dt", in pages.
    let fields = buffer[..<count].split(separator: UInt8(ascii: " "))
    guard fields.count > 1, let pages = Int(String(decoding: fields[1], as: UTF8.self)) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
  }
}
