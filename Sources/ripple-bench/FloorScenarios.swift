import Ripple

/// `floor.sync`'s work: `chain.dedup-compact-map`'s elements pushed through a chain of synchronous closures —
/// drop a repeat, drop `nil`, double, sum — as Combine's subscribers call each other at best: one indirect call
/// per stage per element, no queue, no lock, no task.
///
/// The stages are built by a function the optimiser may not inline, so that each call stays indirect as a
/// subscriber chain's does, instead of folding into one loop.
func pushThroughClosures(count: Int) -> Int {
  let totals = PushTotals()
  let push = pushChain(into: totals)
  for index in 0..<count {
    push(index % 4 == 3 ? nil : index / 2)
  }
  precondition(totals.sum > 0)
  return totals.seen
}

/// What the sink of `floor.sync`'s chain has received.
final class PushTotals {
  var sum = 0
  var seen = 0
}

/// removeDuplicates → compactMap → map → sink, each a closure calling the next.
@inline(never)
func pushChain(into totals: PushTotals) -> (Int?) -> Void {
  let sink: (Int) -> Void = { value in
    totals.sum &+= value
    totals.seen += 1
  }
  let map: (Int) -> Void = opaque { value in sink(value &* 2) }
  let compact: (Int?) -> Void = opaque { value in if let value { map(value) } }
  var last: Int?? = .none
  return opaque { value in
    if let last, last == value { return }
    last = value
    compact(value)
  }
}

/// Returns `closure` through a call the optimiser may not see into, so that calls of it stay indirect.
@inline(never)
func opaque<Input>(_ closure: @escaping (Input) -> Void) -> (Input) -> Void {
  closure
}

/// The elements of a `MultiProducerSingleConsumerAsyncChannel` of `element(0..<count)`, fed by a task of its own
/// that owns the source (dropping it at the end finishes the channel): the source of the `….channel` rows, with
/// `channel.raw`'s watermarks.
func producedChannel<Element: Sendable>(
  count: Int, _ element: @escaping @Sendable (Int) -> Element
) -> some AsyncSequence<Element, Never> & Sendable {
  var channelAndSource = MultiProducerSingleConsumerAsyncChannel.makeChannel(
    of: Element.self, backpressureStrategy: .watermark(low: 64, high: 256))
  let channel = channelAndSource.takeChannel()
  feed(count: count, element, into: consume channelAndSource.source)
  return channel.elements()
}

/// Sends `element(0..<count)` from a task of its own that owns `source`.
private func feed<Element: Sendable>(
  count: Int, _ element: @escaping @Sendable (Int) -> Element,
  into source: consuming sending MultiProducerSingleConsumerAsyncChannel<Element, Never>.Source
) {
  var source = source
  Task {
    for index in 0..<count {
      try await source.send(element(index))
    }
  }
}
