import Ripple
import Testing

/// The examples in the doc comments and guides of adjacentPairs, reductions and interspersed that claim an output,
/// copied verbatim (with their inputs defined), run and checked. The file's `print` records what they print.
@Suite("Doc examples of adjacentPairs, reductions and interspersed print what they say", .serialized)
@MainActor
struct TransformationDocExampleTests {
  init() { printed = [] }

  @Test("AsyncAdjacentPairsSequence: prints 2, -1, 4")
  func adjacentPairs() async {
    // Sources/Ripple/Transformations/AdjacentPairs/AsyncAdjacentPairsSequence.swift
    for await (before, after) in [3, 5, 4, 8].async.adjacentPairs() {
      print(after - before)
    }
    // Prints 2, -1, 4.
    #expect(printed == ["2", "-1", "4"])
  }

  @Test("AsyncExclusiveReductionsSequence: purchases priced 3, 1, 4 print 3, 4, 8")
  func exclusiveReductions() async {
    // Sources/Ripple/Transformations/Reductions/AsyncExclusiveReductionsSequence.swift
    let purchases = [3, 1, 4].map(Purchase.init).async
    for await total in purchases.reductions(0, { total, purchase in total + purchase.price }) {
      print(total)
    }
    // purchases priced 3, 1, 4: prints 3, 4, 8.
    #expect(printed == ["3", "4", "8"])
  }

  @Test("reductions(into:_:): queries a b c d give [a], [a, b], [a, b, c], [b, c, d]")
  func reductionsInto() async {
    // Sources/Ripple/Transformations/Reductions/AsyncExclusiveReductionsSequence.swift
    let queries = ["a", "b", "c", "d"].async
    let recent = queries.reductions(into: [String]()) { recent, query in
      recent.append(query)
      if recent.count > 3 { recent.removeFirst() }
    }
    // queries: a b c d  →  [a], [a, b], [a, b, c], [b, c, d]
    for await queries in recent { print(queries) }
    #expect(printed == [#"["a"]"#, #"["a", "b"]"#, #"["a", "b", "c"]"#, #"["b", "c", "d"]"#])
  }

  @Test("AsyncInclusiveReductionsSequence: prints 3, 3, 4, 4, 5")
  func inclusiveReductions() async {
    // Sources/Ripple/Transformations/Reductions/AsyncInclusiveReductionsSequence.swift
    for await highest in [3, 1, 4, 1, 5].async.reductions(max) {
      print(highest)
    }
    // Prints 3, 3, 4, 4, 5.
    #expect(printed == ["3", "3", "4", "4", "5"])
  }

  @Test("AsyncThrowingExclusiveReductionsSequence: payments of 5, -3, -4 give 5, 2, then Overdrawn")
  func throwingExclusiveReductions() async {
    // Sources/Ripple/Transformations/Reductions/AsyncThrowingExclusiveReductionsSequence.swift
    let payments = [5, -3, -4].map(Payment.init).async
    let balances = payments.reductions(0) { balance, payment in
      guard balance + payment.amount >= 0 else { throw Overdrawn() }
      return balance + payment.amount
    }
    // payments of 5, -3, -4: 5, 2, then Overdrawn is thrown.
    await #expect(throws: Overdrawn.self) {
      for try await balance in balances { print(balance) }
    }
    #expect(printed == ["5", "2"])
  }

  @Test("AsyncThrowingInclusiveReductionsSequence: amounts of 1, 2, Int.max give 1, 3, then Overflow")
  func throwingInclusiveReductions() async {
    // Sources/Ripple/Transformations/Reductions/AsyncThrowingInclusiveReductionsSequence.swift
    let amounts = [1, 2, Int.max].async
    let totals = amounts.reductions { total, amount in
      let (sum, overflow) = total.addingReportingOverflow(amount)
      if overflow { throw Overflow() }
      return sum
    }
    // amounts of 1, 2, Int.max: 1, 3, then Overflow is thrown.
    await #expect(throws: Overflow.self) {
      for try await total in totals { print(total) }
    }
    #expect(printed == ["1", "3"])
  }

  @Test("AsyncThrowingInterspersedSequence: entries a, b and a failing renderer print a, then throw")
  func throwingInterspersed() async {
    // Sources/Ripple/Transformations/Interspersed/AsyncThrowingInterspersedSequence.swift
    let entries = ["a", "b"].async
    let renderer = FailingRenderer()
    await #expect(throws: Overflow.self) {
      for try await line in entries.interspersed(with: { try await renderer.divider() }) {
        print(line)
      }
    }
    // entries a, b and a renderer that fails: prints a, then the renderer's error is thrown.
    #expect(printed == ["a"])
  }

  @Test("AsyncInterspersedSequence: prints one, two, three")
  func interspersed() async {
    // Sources/Ripple/Transformations/Interspersed/AsyncInterspersedSequence.swift
    for await word in ["one", "two", "three"].async.interspersed(with: ", ") {
      print(word, terminator: "")
    }
    // Prints one, two, three
    #expect(printed.joined() == "one, two, three")
  }
}

/// A purchase of the reductions example.
private struct Purchase: Sendable {
  var price: Int
}

/// A payment of the throwing reductions example.
private struct Payment: Sendable {
  var amount: Int
}

/// The error of the throwing inclusive reductions example.
private struct Overflow: Error {}

/// A divider renderer that always fails.
private actor FailingRenderer {
  func divider() throws -> String { throw Overflow() }
}

/// What the examples printed, in order, each value as `print` would write it.
@MainActor private var printed: [String] = []

/// Stands in for `Swift.print` in this file, so the examples' output can be checked.
@MainActor private func print(_ value: some Any, terminator: String = "\n") {
  printed.append("\(value)")
}
