/// Reads and writes the durations `calc` accepts: `250ms`, `1.5s`, `2m` (or `2min`), `1h`, `0`.
///
/// The number is read digit by digit, so `0.1s` is exactly 100 ms (no floating point on the way); digits past
/// the sixteenth decimal are dropped. A bare `0` is accepted because zero needs no unit. Durations run up to
/// 1,000,000,000 seconds (about 31 years).
public enum DurationText {
  /// Why a text is not a duration.
  public enum Failure: Error, Equatable, CustomStringConvertible {
    case empty
    case missingUnit(String)
    case unknownUnit(String, unit: String)
    /// It does not start with a digit or a decimal point.
    case notANumber(String)
    case negative(String)
    /// Written with an exponent, as `1e9s`.
    case exponent(String)
    case extraDecimalPoint(String)
    /// Something other than a unit's letters follows the number, as in `1 s` or `5%`.
    case malformed(String)
    case tooLarge(String)

    /// The reason in words, naming the text.
    public var description: String {
      switch self {
      case .empty: "a duration is missing (e.g. 1.5s, 250ms or 2m)"
      case .missingUnit(let text): "\(QuotedText(text)) needs a unit: ms, s, m or h (e.g. \(text.prefix(20))s)"
      case .unknownUnit(let text, let unit):
        "\(QuotedText(text)) has an unknown unit \(QuotedText(unit)); use ms, s, m (or min) or h"
      case .notANumber(let text):
        "\(QuotedText(text)) is not a duration: it must start with a number (e.g. 1.5s, 250ms)"
      case .negative(let text): "\(QuotedText(text)) is negative; a duration is 0 or more"
      case .exponent(let text): "\(QuotedText(text)) has an exponent; write the number out (e.g. 1000000000s)"
      case .extraDecimalPoint(let text): "\(QuotedText(text)) has more than one decimal point"
      case .malformed(let text): "\(QuotedText(text)) is not a number followed by its unit (e.g. 1.5s, 250ms)"
      case .tooLarge(let text): "\(QuotedText(text)) is too long; a duration is at most 1000000000s"
      }
    }
  }

  /// Attoseconds in one of each unit.
  private static let units: [Substring: Int128] = {
    let second: Int128 = 1_000_000_000_000_000_000
    return ["ms": second / 1000, "s": second, "m": 60 * second, "min": 60 * second, "h": 3600 * second]
  }()

  /// Parses `text` into a non-negative duration, or throws why it is not one.
  public static func parse(_ text: some StringProtocol) throws(Failure) -> Duration {
    let text = String(text)
    guard let first = text.first else { throw .empty }
    if first == "-" { throw .negative(text) }
    let number = text.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
    let unit = text[number.endIndex...]
    guard number.contains(where: \.isNumber) else { throw .notANumber(text) }
    if let next = unit.first, next == "e" || next == "E",
      let after = unit.dropFirst().first, after.isNumber || after == "-" || after == "+"
    {
      throw .exponent(text)
    }
    let parts = number.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
    guard parts.count == 1 || !parts[1].contains(".") else { throw .extraDecimalPoint(text) }
    guard !unit.isEmpty else {
      guard number.allSatisfy({ $0 == "0" || $0 == "." }) else { throw .missingUnit(text) }
      return .zero
    }
    guard let attosecondsPerUnit = units[unit] else {
      throw unit.allSatisfy(\.isLetter) ? .unknownUnit(text, unit: String(unit)) : .malformed(text)
    }
    // Whole units, then the fraction: up to 16 digits, so that digits × attoseconds per hour fits in Int128.
    let whole = parts[0].drop { $0 == "0" }
    guard whole.count <= 12, let wholeUnits = Int128(whole.isEmpty ? "0" : whole) else { throw .tooLarge(text) }
    let fractionDigits = parts.count > 1 ? parts[1].prefix(16) : ""
    let fraction = Int128(fractionDigits.isEmpty ? "0" : fractionDigits) ?? 0
    let scale = (0..<fractionDigits.count).reduce(Int128(1)) { value, _ in value * 10 }
    let attoseconds = wholeUnits * attosecondsPerUnit + fraction * attosecondsPerUnit / scale
    let attosecondsPerSecond: Int128 = 1_000_000_000_000_000_000
    guard attoseconds <= 1_000_000_000 * attosecondsPerSecond else { throw .tooLarge(text) }
    return Duration(
      secondsComponent: Int64(attoseconds / attosecondsPerSecond),
      attosecondsComponent: Int64(attoseconds % attosecondsPerSecond))
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
