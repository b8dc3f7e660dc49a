import Testing

@testable import CalculatorTerminal

@Suite("ScriptCommand")
struct ScriptCommandTests {
  @Test(
    "good lines",
    arguments: [
      ("a 12", ScriptCommand?.some(.set(.a, 12))), ("b 30", .set(.b, 30)), ("a", .set(.a, nil)), ("b", .set(.b, nil)),
      ("a -7", .set(.a, -7)), ("b +5", .set(.b, 5)), ("  a\t3  ", .set(.a, 3)), ("a 12\r", .set(.a, 12)),
      ("a 9223372036854775807", .set(.a, .max)), ("b -9223372036854775808", .set(.b, .min)),
      ("wait 1.5s", .wait(.milliseconds(1500))), ("wait 250ms", .wait(.milliseconds(250))), ("wait 0", .wait(.zero)),
      ("a 12 # the first number", .set(.a, 12)), ("# a comment", nil), ("", nil), ("   ", nil), ("#", nil),
    ])
  func good(line: String, command: ScriptCommand?) throws {
    #expect(try ScriptCommand.parse(line) == command)
  }

  @Test(
    "bad lines say what is wrong",
    arguments: [
      ("a x", "'x' is not an integer"),
      ("b 1.5", "'1.5' is not an integer"),
      ("a --3", "'--3' is not an integer"),
      ("a 99999999999999999999", "'99999999999999999999' is out of range for an integer (\(Int.min) to \(Int.max))"),
      ("a 1 2", "too many values; write 'a <integer>', or 'a' to clear it"),
      ("wait", "wait needs one duration (e.g. wait 1.5s, wait 250ms, wait 2m)"),
      ("wait 1s 2s", "wait needs one duration (e.g. wait 1.5s, wait 250ms, wait 2m)"),
      ("wait 5", "'5' needs a unit: ms, s, m or h (e.g. 5s)"),
      ("wait soon", "'soon' is not a duration: it must start with a number (e.g. 1.5s, 250ms)"),
      ("c 3", "unknown command 'c'; use a, b, wait or # for a comment"),
      ("A 3", "unknown command 'A'; use a, b, wait or # for a comment"),
    ])
  func bad(line: String, message: String) {
    #expect(throws: ScriptCommand.Failure(message: message)) { try ScriptCommand.parse(line) }
  }
}
