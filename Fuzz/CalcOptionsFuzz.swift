// libFuzzer target for `CalcOptions.parse` and `DurationText`: built by Scripts/fuzz.sh into the
// CalculatorTerminal module. Not part of the package.

/// Splits the input at NUL bytes into a command line and parses it; every argument is also parsed as a
/// duration. Checks that nothing traps, that a parse either succeeds or names its reason, that durations are
/// never negative, and that a duration printed as `calc` prints times reads back as itself, cut to the
/// millisecond.
@_cdecl("LLVMFuzzerTestOneInput")
public func calcOptionsFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = UnsafeBufferPointer(start: data, count: size)
  let arguments = bytes.split(separator: 0, omittingEmptySubsequences: false).map {
    String(decoding: $0, as: UTF8.self)
  }
  do {
    let options = try CalcOptions.parse(arguments)
    let delays = options.engine.designs.map { options.delay(for: $0) }
    precondition(delays.allSatisfy { $0 >= .zero } && options.debounce >= .zero, "negative duration: \(options)")
  } catch {
    precondition(!error.message.isEmpty, "an empty reason for \(arguments)")
  }
  for argument in arguments {
    guard let duration = try? DurationText.parse(argument) else { continue }
    precondition(duration >= .zero, "'\(argument)' is \(duration)")
    let printed = DurationText.seconds(duration) + "s"
    let reread = try? DurationText.parse(printed)
    let (seconds, attoseconds) = duration.components
    let milliseconds = Duration(
      secondsComponent: seconds, attosecondsComponent: attoseconds / 1_000_000_000_000_000 * 1_000_000_000_000_000)
    precondition(reread == milliseconds, "'\(argument)' is \(duration), printed '\(printed)', read back \(reread as Any)")
  }
  return 0
}
