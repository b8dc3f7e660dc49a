import Ripple

/// The channels and `buffer(policy:)`, against a bare `AsyncStream` carrying as many elements.
///
/// A channel hands each element over in a rendezvous (the sender waits for the consumer), where the stream's
/// producer runs ahead into a buffer: these rows show what the back-pressure costs.
func channelScenarios() -> [Scenario] {
  [
    Scenario(name: "channel", baseline: "asyncstream.raw", operations: operatorElements) {
      let channel = AsyncChannel<Int>()
      Task {
        for index in 0..<operatorElements {
          await channel.send(index)
        }
        channel.finish()
      }
      return await sumAll(channel)
    },
    Scenario(name: "channel.4producers", baseline: "asyncstream.raw", operations: operatorElements) {
      let channel = AsyncChannel<Int>()
      let producers = 4
      Task {
        await withTaskGroup(of: Void.self) { group in
          for producer in 0..<producers {
            group.addTask {
              for index in stride(from: producer, to: operatorElements, by: producers) {
                await channel.send(index)
              }
            }
          }
        }
        channel.finish()
      }
      return await sumAll(channel)
    },
    // The multi-producer single-consumer channel: a watermark of 256 lets a producer run ahead by a few cache
    // lines of `Int`s before it waits, and resuming it below 64 leaves the consumer a quarter of a batch to work
    // through while the producer wakes, so neither side waits on the other in the steady state.
    // Through `elements()`, as the `….channel` operator rows consume it (`producedChannel`), so that it is their floor.
    Scenario(name: "channel.raw", baseline: "asyncstream.raw", operations: operatorElements) {
      await sumAll(producedChannel(count: operatorElements) { $0 })
    },
    Scenario(name: "channel.raw.4producers", baseline: "asyncstream.raw", operations: operatorElements) {
      var channelAndSource = MultiProducerSingleConsumerAsyncChannel.makeChannel(
        of: Int.self, backpressureStrategy: .watermark(low: 64, high: 256))
      let channel = channelAndSource.takeChannel()
      var source = consume channelAndSource.source
      let producers = 4
      for producer in 0..<producers {
        produce(stride(from: producer, to: operatorElements, by: producers), into: source.makeAdditionalSource())
      }
      // Finishing here would end the channel for every source: dropping this one leaves it to the producers.
      _ = consume source
      return await sumAll(channel.elements())
    },
    Scenario(name: "channel.raw.unbounded", baseline: "asyncstream.raw", operations: operatorElements) {
      // Watermarks no level reaches: the producer never waits, as the unbounded stream's never does.
      var channelAndSource = MultiProducerSingleConsumerAsyncChannel.makeChannel(
        of: Int.self, backpressureStrategy: .watermark(low: .max, high: .max))
      let channel = channelAndSource.takeChannel()
      produce(0..<operatorElements, into: consume channelAndSource.source)
      return await sumAll(channel.elements())
    },
    Scenario(name: "buffer.bounded", baseline: "asyncstream.raw", operations: operatorElements) {
      // The buffer's own task plays the stream's producer task: it pulls a counting base and hands over.
      await sumAll(Counting(count: operatorElements).buffer(policy: .bounded(64)))
    },
    // A consumer that works (about 1 µs an element) behind a buffer of 64, against the same consumer reading the
    // base directly: with the buffer's task pulling on the other core, the row should cost little more than its floor.
    Scenario(name: "floor.consumer-work", baseline: "floor.consumer-work", operations: workingConsumerElements) {
      await workOnAll(Counting(count: workingConsumerElements))
    },
    Scenario(name: "buffer.bounded64", baseline: "floor.consumer-work", operations: workingConsumerElements) {
      await workOnAll(Counting(count: workingConsumerElements).buffer(policy: .bounded(64)))
    },
  ]
}

/// Starts a task that sends `values` one by one with the async `send(_:)`, and drops `source` when done: the last
/// source going away finishes the channel. The task must own the source: a `var` captured from the caller's frame
/// would live (and keep the channel open) until the caller returns.
func produce(
  _ values: some Sequence<Int> & Sendable,
  into source: consuming sending MultiProducerSingleConsumerAsyncChannel<Int, Never>.Source
) {
  var source = source
  Task {
    for value in values {
      try await source.send(value)
    }
  }
}

/// The numbers `0..<count`, produced at once: a base that costs nothing, so a row measures the operator over it.
struct Counting: AsyncSequence, Sendable {
  let count: Int

  func makeAsyncIterator() -> Iterator { Iterator(count: count) }

  struct Iterator: AsyncIteratorProtocol {
    let count: Int
    var index = 0

    mutating func next(isolation actor: isolated (any Actor)? = #isolation) async -> Int? {
      guard index < count else { return nil }
      defer { index += 1 }
      return index
    }

    mutating func next() async -> Int? { await next(isolation: nil) }
  }
}

/// Elements per run of the working-consumer rows.
let workingConsumerElements = 100_000

/// Iterates `sequence`, doing ``consumerWork(_:)`` on each element; checks every element came, in order.
func workOnAll<S: AsyncSequence<Int, Never>>(_ sequence: S) async -> Int {
  var expected = 0
  var checksum = 0
  for await value in sequence {
    precondition(value == expected, "element \(value) where \(expected) was due")
    checksum &+= consumerWork(value)
    expected += 1
  }
  precondition(expected == workingConsumerElements && checksum != 0)
  return expected
}

/// About 1 µs of arithmetic (on this machine) that the optimiser cannot skip: a consumer that does something with
/// each element.
@inline(never)
func consumerWork(_ value: Int) -> Int {
  var state = UInt64(truncatingIfNeeded: value) | 1
  for _ in 0..<600 {
    state ^= state << 13
    state ^= state >> 7
    state ^= state << 17
  }
  return Int(truncatingIfNeeded: state)
}
