import Observation
import Ripple
import RippleTesting
import Testing

/// The examples in doc comments and in the README that claim an output, copied verbatim, run and checked. The
/// file's `print` records what the examples print.
@Suite("Doc examples print what they say", .serialized)
@MainActor
struct DocExampleTests {
  init() { printed = [] }

  @Test("Observed's doc comment: prints 3, then 30")
  func observedDocComment() async {
    // Sources/Ripple/Observed/Observed.swift
    let form = Form()
    for await sum in Observed({ form.a + form.b }) {
      print(sum)
      guard sum == 3 else { break }
      form.a = 10
      form.b = 20  // same transaction as `form.a = 10`: one value
    }
    // Prints 3, then 30.
    #expect(printed == [3, 30])
  }

  @Test("the README's Observed example: 3, then 30")
  func readmeObserved() async {
    await watch(Form())
    #expect(printed == [3, 30])
  }

  @Test("the README's marble diagram")
  func readmeMarbles() async {
    let output = await marbles("abcd----e---f-g----|") { inputs, clock in
      inputs[0].debounce(for: .seconds(3), clock: clock)
    }
    #expect(output == "------d----e-----g-|")
  }
}

// The README's example, verbatim.

@MainActor @Observable private final class Form {
  var a = 1
  var b = 2
}

@MainActor private func watch(_ form: Form) async {
  for await sum in Observed({ form.a + form.b }) {
    print(sum)  // 3, then 30: the two changes below are one transaction, so they give one value
    guard sum == 3 else { break }
    form.a = 10
    form.b = 20
  }
}

/// What the examples printed, in order.
@MainActor private var printed: [Int] = []

/// Stands in for `Swift.print` in this file, so the examples' output can be checked.
@MainActor private func print(_ value: Int) {
  printed.append(value)
}
