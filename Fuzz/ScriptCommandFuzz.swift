// libFuzzer target for the script line parser `ScriptCommand.parse`: built by Scripts/fuzz.sh into the
// CalculatorTerminal module. Not part of the package.

/// Parses every line of the input as a script line. Checks that nothing traps, that a bad line names its
/// reason, and that a command written back as a script line parses to the same command.
@_cdecl("LLVMFuzzerTestOneInput")
public func scriptCommandFuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
  for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
    let command: ScriptCommand?
    do {
      command = try ScriptCommand.parse(String(line))
    } catch {
      precondition(!error.message.isEmpty, "an empty reason for '\(line)'")
      continue
    }
    guard let command else { continue }
    let written: String
    switch command {
    case .set(let field, let value): written = "\(field.rawValue) \(value.map(String.init) ?? "")"
    case .wait(let duration):
      precondition(duration >= .zero, "'\(line)' waits \(duration)")
      // `calc` prints milliseconds: only a whole number of them reads back exactly.
      guard duration.components.attoseconds % 1_000_000_000_000_000 == 0 else { continue }
      written = "wait \(DurationText.seconds(duration))s"
    }
    let reread = try? ScriptCommand.parse(written)
    precondition(reread == command, "'\(line)' is \(command), written '\(written)', read back \(reread as Any)")
  }
  return 0
}
