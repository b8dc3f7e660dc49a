import Ripple

/// Elements per run of an operator scenario, over all its streams.
let operatorElements = 1_000_000

/// The operators over sources fed by concurrent producer tasks, against the bare sources.
///
/// Each operator row runs twice: over an `AsyncStream` (named plainly, baseline `asyncstream.raw`) and over Ripple's
/// channel (named `….channel`, baseline `channel.raw`); both report their ratio to the floors too. A row's work is a
/// generic function that is `@inline(__always)`, so each call site specialises it for its source: a shared
/// `drain(_: some AsyncSequence<Int, Never>)` helper without it was not specialised, and made `combineLatest2.sum`
/// read 3.25× instead of ~0.7×.
func operatorScenarios() -> [Scenario] {
  [
    Scenario(name: "asyncstream.raw", baseline: "asyncstream.raw", operations: operatorElements) {
      await sumAll(producedStream(count: operatorElements) { $0 })
    },
    Scenario(name: "floor.sync", baseline: "asyncstream.raw", operations: operatorElements) {
      pushThroughClosures(count: operatorElements)
    },
  ]
    + sourced("chain.dedup-compact-map") { source in
      // Pairs of repeats, and every fourth element `nil`: half the elements survive.
      let element: @Sendable (Int) -> Int? = { index in index % 4 == 3 ? nil : index / 2 }
      switch source {
      case .stream: return await dedupCompactMap(producedStream(count: operatorElements, element))
      case .channel: return await dedupCompactMap(producedChannel(count: operatorElements, element))
      }
    }
    + sourced("removeDuplicates.by") { source in
      // Pairs of repeats: half the elements survive the predicate.
      switch source {
      case .stream: return await dedupByPredicate(producedStream(count: operatorElements) { $0 / 2 })
      case .channel: return await dedupByPredicate(producedChannel(count: operatorElements) { $0 / 2 })
      }
    }
    + sourced("combineLatest2.sum") { source in
      switch source {
      case .stream:
        return await combineLatestSum(
          producedStream(count: operatorElements / 2) { $0 }, producedStream(count: operatorElements / 2) { $0 })
      case .channel:
        return await combineLatestSum(
          producedChannel(count: operatorElements / 2) { $0 }, producedChannel(count: operatorElements / 2) { $0 })
      }
    }
    + sourced("merge2") { source in
      switch source {
      case .stream:
        return await sumAll(
          merge(producedStream(count: operatorElements / 2) { $0 }, producedStream(count: operatorElements / 2) { $0 }),
          expected: 2 * (operatorElements / 2) * (operatorElements / 2 - 1) / 2)
      case .channel:
        return await sumAll(
          merge(
            producedChannel(count: operatorElements / 2) { $0 }, producedChannel(count: operatorElements / 2) { $0 }),
          expected: 2 * (operatorElements / 2) * (operatorElements / 2 - 1) / 2)
      }
    }
    + sourced("chain2") { source in
      switch source {
      case .stream:
        return await sumAll(
          chain(producedStream(count: operatorElements / 2) { $0 }, producedStream(count: operatorElements / 2) { $0 }),
          expected: 2 * (operatorElements / 2) * (operatorElements / 2 - 1) / 2)
      case .channel:
        return await sumAll(
          chain(
            producedChannel(count: operatorElements / 2) { $0 }, producedChannel(count: operatorElements / 2) { $0 }),
          expected: 2 * (operatorElements / 2) * (operatorElements / 2 - 1) / 2)
      }
    }
    + sourced("zip2") { source in
      switch source {
      case .stream:
        return await zipSum(
          producedStream(count: operatorElements / 2) { $0 }, producedStream(count: operatorElements / 2) { $0 })
      case .channel:
        return await zipSum(
          producedChannel(count: operatorElements / 2) { $0 }, producedChannel(count: operatorElements / 2) { $0 })
      }
    }
    + sourced("chunks.ofCount64") { source in
      switch source {
      case .stream: return await chunksOf64(producedStream(count: operatorElements) { $0 })
      case .channel: return await chunksOf64(producedChannel(count: operatorElements) { $0 })
      }
    }
    + sourced("reductions") { source in
      switch source {
      case .stream: return await runningTotals(producedStream(count: operatorElements) { $0 })
      case .channel: return await runningTotals(producedChannel(count: operatorElements) { $0 })
      }
    }
    + sourced("adjacentPairs") { source in
      switch source {
      case .stream: return await pairDifferences(producedStream(count: operatorElements) { $0 })
      case .channel: return await pairDifferences(producedChannel(count: operatorElements) { $0 })
      }
    }
}

/// Where an operator row's elements come from.
enum Source: CaseIterable {
  /// An unbounded `AsyncStream` fed by a task of its own: the `asyncstream.raw` floor.
  case stream
  /// Ripple's channel fed by a task of its own: the `channel.raw` floor.
  case channel

  /// The row name's suffix, and the row's baseline.
  var suffix: String { self == .stream ? "" : ".channel" }
  var baseline: String { self == .stream ? "asyncstream.raw" : "channel.raw" }
}

/// One row per source of an operator workload, each compared with its source's floor and with `floor.sync`.
func sourced(
  _ name: String, operations: Int = operatorElements, _ work: @escaping @Sendable (Source) async -> Int
) -> [Scenario] {
  Source.allCases.map { source in
    Scenario(name: name + source.suffix, baseline: source.baseline, operations: operations, floors: true) {
      await work(source)
    }
  }
}

/// Sums every element; checks the total when one is given.
@inline(__always)
func sumAll<S: AsyncSequence<Int, Never>>(
  _ sequence: S, expected: Int = operatorElements * (operatorElements - 1) / 2
) async -> Int {
  var sum = 0
  var seen = 0
  for await value in sequence {
    sum &+= value
    seen += 1
  }
  precondition(sum == expected, "lost or changed elements: sum \(sum), expected \(expected)")
  return seen
}

@inline(__always)
func dedupCompactMap<S: AsyncSequence<Int?, Never>>(_ sequence: S) async -> Int {
  var sum = 0
  var seen = 0
  for await value in sequence.removeDuplicates().compacted().map({ $0 &* 2 }) {
    sum &+= value
    seen += 1
  }
  // The row's elements (`index / 2`, every fourth `nil`) leave 0, 1, 2, … once each: half the elements survive.
  let survivors = operatorElements / 2
  precondition(seen == survivors && sum == survivors * (survivors - 1), "lost, repeated or changed elements")
  return seen
}

@inline(__always)
func dedupByPredicate<S: AsyncSequence<Int, Never> & Sendable>(_ sequence: S) async -> Int {
  var sum = 0
  var seen = 0
  for await value in sequence.removeDuplicates(by: { $0 == $1 }) {
    sum &+= value
    seen += 1
  }
  // The row's elements (`index / 2`) leave 0, 1, 2, … once each.
  let survivors = operatorElements / 2
  precondition(seen == survivors && sum == survivors * (survivors - 1) / 2, "lost, repeated or changed elements")
  return seen
}

@inline(__always)
func combineLatestSum<S: AsyncSequence<Int, Never> & Sendable>(_ first: S, _ second: S) async -> Int {
  var last = -1
  var seen = 0
  for await value in combineLatest(first, second).map(+) {
    // Each output moves one side forward: the sums only grow.
    precondition(value > last, "combineLatest: \(value) after \(last)")
    last = value
    seen += 1
  }
  // Both sides count 0..<operatorElements / 2: the last output pairs their last elements.
  precondition(last == 2 * (operatorElements / 2 - 1), "combineLatest: the last output was \(last)")
  return seen
}

@inline(__always)
func zipSum<S: AsyncSequence<Int, Never> & Sendable>(_ first: S, _ second: S) async -> Int {
  var sum = 0
  var seen = 0
  for await (left, right) in zip(first, second) {
    sum &+= left &+ right
    seen += 2
  }
  precondition(sum == 2 * (operatorElements / 2) * (operatorElements / 2 - 1) / 2)
  return seen
}

@inline(__always)
func chunksOf64<S: AsyncSequence<Int, Never>>(_ sequence: S) async -> Int {
  var sum = 0
  var seen = 0
  for await chunk in sequence.chunks(ofCount: 64) {
    precondition(chunk.count == 64 || seen + chunk.count == operatorElements, "a short chunk before the end")
    for value in chunk { sum &+= value }
    seen += chunk.count
  }
  precondition(sum == operatorElements * (operatorElements - 1) / 2)
  return seen
}

@inline(__always)
func runningTotals<S: AsyncSequence<Int, Never> & Sendable>(_ sequence: S) async -> Int {
  var last = 0
  var seen = 0
  for await total in sequence.reductions(0, +) {
    last = total
    seen += 1
  }
  precondition(last == operatorElements * (operatorElements - 1) / 2)
  return seen
}

@inline(__always)
func pairDifferences<S: AsyncSequence<Int, Never>>(_ sequence: S) async -> Int {
  var sum = 0
  var seen = 0
  for await (previous, next) in sequence.adjacentPairs() {
    sum &+= next &- previous
    seen += 1
  }
  precondition(sum == operatorElements - 1 && seen == operatorElements - 1)
  return seen
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
