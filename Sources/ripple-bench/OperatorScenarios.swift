import Ripple

/// Elements per run of an operator scenario, over all its streams.
let operatorElements = 1_000_000

/// The operators over `AsyncStream`s fed by concurrent producer tasks, against a bare `AsyncStream`.
///
/// Each scenario spells out its loop: a shared `drain(_: some AsyncSequence<Int, Never>)` helper was tried and not
/// specialised, which made `combineLatest2.sum` read 3.25× instead of ~0.7×.
func operatorScenarios() -> [Scenario] {
  [
    Scenario(name: "asyncstream.raw", baseline: "asyncstream.raw", operations: operatorElements) {
      let stream = producedStream(count: operatorElements) { $0 }
      var sum = 0
      var seen = 0
      for await value in stream {
        sum &+= value
        seen += 1
      }
      precondition(sum == operatorElements * (operatorElements - 1) / 2)
      return seen
    },
    Scenario(name: "chain.dedup-compact-map", baseline: "asyncstream.raw", operations: operatorElements) {
      // Pairs of repeats, and every fourth element `nil`: half the elements survive.
      let stream = producedStream(count: operatorElements) { index in index % 4 == 3 ? nil : index / 2 }
      var sum = 0
      var seen = 0
      for await value in stream.removeDuplicates().compacted().map({ $0 &* 2 }) {
        sum &+= value
        seen += 1
      }
      precondition(sum > 0)
      return seen
    },
    Scenario(name: "removeDuplicates.by", baseline: "asyncstream.raw", operations: operatorElements) {
      // Pairs of repeats: half the elements survive the predicate.
      let stream = producedStream(count: operatorElements) { $0 / 2 }
      var sum = 0
      var seen = 0
      for await value in stream.removeDuplicates(by: { $0 == $1 }) {
        sum &+= value
        seen += 1
      }
      precondition(sum > 0)
      return seen
    },
    Scenario(name: "combineLatest2.sum", baseline: "asyncstream.raw", operations: operatorElements) {
      let first = producedStream(count: operatorElements / 2) { $0 }
      let second = producedStream(count: operatorElements / 2) { $0 }
      var sum = 0
      var seen = 0
      for await value in combineLatest(first, second).map(+) {
        sum &+= value
        seen += 1
      }
      precondition(sum > 0)
      return seen
    },
    Scenario(name: "merge2", baseline: "asyncstream.raw", operations: operatorElements) {
      let first = producedStream(count: operatorElements / 2) { $0 }
      let second = producedStream(count: operatorElements / 2) { $0 }
      var sum = 0
      var seen = 0
      for await value in merge(first, second) {
        sum &+= value
        seen += 1
      }
      precondition(sum == 2 * (operatorElements / 2) * (operatorElements / 2 - 1) / 2)
      return seen
    },
    Scenario(name: "chain2", baseline: "asyncstream.raw", operations: operatorElements) {
      let first = producedStream(count: operatorElements / 2) { $0 }
      let second = producedStream(count: operatorElements / 2) { $0 }
      var sum = 0
      var seen = 0
      for await value in chain(first, second) {
        sum &+= value
        seen += 1
      }
      precondition(sum == 2 * (operatorElements / 2) * (operatorElements / 2 - 1) / 2)
      return seen
    },
    Scenario(name: "zip2", baseline: "asyncstream.raw", operations: operatorElements) {
      let first = producedStream(count: operatorElements / 2) { $0 }
      let second = producedStream(count: operatorElements / 2) { $0 }
      var sum = 0
      var seen = 0
      for await (left, right) in zip(first, second) {
        sum &+= left &+ right
        seen += 2
      }
      precondition(sum == 2 * (operatorElements / 2) * (operatorElements / 2 - 1) / 2)
      return seen
    },
    Scenario(name: "chunks.ofCount", baseline: "asyncstream.raw", operations: operatorElements) {
      let stream = producedStream(count: operatorElements) { $0 }
      var sum = 0
      var seen = 0
      for await chunk in stream.chunks(ofCount: 10) {
        for value in chunk { sum &+= value }
        seen += chunk.count
      }
      precondition(sum == operatorElements * (operatorElements - 1) / 2)
      return seen
    },
    Scenario(name: "reductions", baseline: "asyncstream.raw", operations: operatorElements) {
      let stream = producedStream(count: operatorElements) { $0 }
      var last = 0
      var seen = 0
      for await total in stream.reductions(0, +) {
        last = total
        seen += 1
      }
      precondition(last == operatorElements * (operatorElements - 1) / 2)
      return seen
    },
    Scenario(name: "adjacentPairs", baseline: "asyncstream.raw", operations: operatorElements) {
      let stream = producedStream(count: operatorElements) { $0 }
      var sum = 0
      var seen = 0
      for await (previous, next) in stream.adjacentPairs() {
        sum &+= next &- previous
        seen += 1
      }
      precondition(sum == operatorElements - 1 && seen == operatorElements - 1)
      return seen
    },
  ]
}

/// An unbounded `AsyncStream` of `element(0..<count)`, fed by a task of its own that finishes it.
func producedStream<Element: Sendable>(
  count: Int, _ element: @escaping @Sendable (Int) -> Element
) -> AsyncStream<Element> {
  let (stream, continuation) = AsyncStream.makeStream(of: Element.self)
  Task {
    for index in 0..<count {
      continuation.yield(element(index))
    }
    continuation.finish()
  }
  return stream
}
