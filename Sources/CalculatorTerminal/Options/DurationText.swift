/// Reads and writes the durations `calc` accepts: `1.5s`, `250ms`, `2s`, `0`.
///
/// The number is read digit by digit, so `0.1s` is exactly 100 ms (no floating point on the way). Seconds and
/// milliseconds are the units a person types into a script; a bare `0` is accepted because zero needs no unit.
public enum DurationText {
  /// Why a text is not a duration.
  public enum Failure: Error, Equatable, CustomStringConvertible {
    case empty
    case missingUnit(String)
    case unknownUnit(String)
    case notANumber(String)
    case tooLarge(String)

    /// The reason in words, naming the text.
    public var description: String {
      switch self {
      case .empty: "a duration is missing (e.g. 1.5s or 250ms)"
      case .missingUnit(let text): "'\(text)' needs a unit: s or ms (e.g. \(text)s)"
      case .unknownUnit(let text): "'\(text)' has an unknown unit; use s or ms (e.g. 1.5s, 250ms)"
      case .notANumber(let text): "'\(text)' is not a duration (e.g. 1.5s, 250ms)"
      case .tooLarge(let text): "'\(text)' is too long a duration"
      }
    }
  }

  /// Parses `text` (`1.5s`, `250ms`, `0`) into a non-negative duration.
  public static func parse(_ text: some StringProtocol) throws(Failure) -> Duration {
    let text = String(text)
    guard !text.isEmpty else { throw .empty }
    let number = text.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
    let unit = text[number.endIndex...]
    let parts = number.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
    guard !number.isEmpty, number != ".", parts.allSatisfy({ !$0.contains(".") }) else {
      throw .notANumber(text)
    }
    let whole = parts[0]
    let fraction = parts.count > 1 ? parts[1] : ""
    let digitsPerUnit: Int
    switch unit {
    case "s": digitsPerUnit = 18
    case "ms": digitsPerUnit = 15
    case "":
      guard number.allSatisfy({ $0 == "0" || $0 == "." }) else { throw .missingUnit(text) }
      return .zero
    default:
      throw unit.first?.isLetter == true ? .unknownUnit(text) : .notANumber(text)
    }
    // Attoseconds in one unit, and the fraction's digits scaled to attoseconds (digits past 1e-18 s dropped).
    let unitAttoseconds = (0..<digitsPerUnit).reduce(Int64(1)) { value, _ in value * 10 }
    let fractionDigits = fraction.prefix(digitsPerUnit)
    var fractionAttoseconds: Int64 = 0
    let padded = fractionDigits + String(repeating: "0", count: digitsPerUnit - fractionDigits.count)
    for digit in padded {
      fractionAttoseconds = fractionAttoseconds * 10 + Int64(digit.wholeNumberValue!)
    }
    guard let units = Int64(whole.isEmpty ? "0" : whole), units <= 1_000_000_000 else { throw .tooLarge(text) }
    // Whole units as seconds plus attoseconds, without overflowing: 1e9 units of 1 s is ~31 years.
    let perSecond = 1_000_000_000_000_000_000 / unitAttoseconds
    let seconds = units / perSecond
    let remainderAttoseconds = (units % perSecond) * unitAttoseconds + fractionAttoseconds
    return Duration(secondsComponent: seconds, attosecondsComponent: 0)
      + Duration(secondsComponent: 0, attosecondsComponent: remainderAttoseconds)
  }

  /// Seconds with three decimals, as `calc` prints times: `1.500`.
  public static func seconds(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
    let sign = milliseconds < 0 ? "-" : ""
    let magnitude = milliseconds.magnitude
    let fraction = String(magnitude % 1000)
    return "\(sign)\(magnitude / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
  }
}
