import Ripple

/// `share()` with one and with four consumers of one `AsyncStream`, against a bare `AsyncStream`.
///
/// Each row runs over both sources (see `sourced(_:operations:_:)`).
func shareScenarios() -> [Scenario] {
  sourced("share.1") { source in
    switch source {
    case .stream: return await sumAll(producedStream(count: operatorElements) { $0 }.share())
    case .channel: return await sumAll(producedChannel(count: operatorElements) { $0 }.share())
    }
  }
    + sourced("share.4") { source in
      switch source {
      case .stream: return await consumeFour(producedStream(count: operatorElements) { $0 }.share())
      case .channel: return await consumeFour(producedChannel(count: operatorElements) { $0 }.share())
      }
    }
}

/// Four consumers of one shared sequence, each in a task of its own; returns how many elements they saw in all.
func consumeFour<Base: AsyncSequence<Int, Never> & Sendable>(_ shared: AsyncShareSequence<Base>) async -> Int {
  // Each consumer gets every element only if its iterator exists before the first `next()` of any.
  let first = shared.makeAsyncIterator()
  let second = shared.makeAsyncIterator()
  let third = shared.makeAsyncIterator()
  let fourth = shared.makeAsyncIterator()
  let consumers = [consume(first), consume(second), consume(third), consume(fourth)]
  var seen = 0
  for consumer in consumers {
    seen += await consumer.value
  }
  precondition(seen == 4 * operatorElements)
  return seen
}

/// Iterates one consumer's share iterator to the end in a task of its own; returns how many elements it saw.
private func consume<Base: AsyncSequence<Int, Never> & Sendable>(
  _ iterator: sending AsyncShareSequence<Base>.Iterator
) -> Task<Int, Never> {
  Task {
    var iterator = iterator
    var sum = 0
    var seen = 0
    while let value = await iterator.next() {
      sum &+= value
      seen += 1
    }
    precondition(sum == operatorElements * (operatorElements - 1) / 2)
    return seen
  }
}
