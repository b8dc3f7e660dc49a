import Ripple

/// The channels and `buffer(policy:)`, against a bare `AsyncStream` carrying as many elements.
///
/// A channel hands each element over in a rendezvous (the sender waits for the consumer), where the stream's
/// producer runs ahead into a buffer: these rows show what the back-pressure costs.
func channelScenarios() -> [Scenario] {
  [
    Scenario(name: "channel.raw", baseline: "asyncstream.raw", operations: operatorElements) {
      await sumAll(producedChannel(count: operatorElements) { $0 })
    },
    Scenario(name: "channel", baseline: "asyncstream.raw", operations: operatorElements) {
      let channel = AsyncChannel<Int>()
      Task {
        for index in 0..<operatorElements {
          await channel.send(index)
        }
        channel.finish()
      }
      var sum = 0
      var seen = 0
      for await value in channel {
        sum &+= value
        seen += 1
      }
      precondition(sum == operatorElements * (operatorElements - 1) / 2)
      return seen
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
      var sum = 0
      var seen = 0
      for await value in channel {
        sum &+= value
        seen += 1
      }
      precondition(sum == operatorElements * (operatorElements - 1) / 2)
      return seen
    },
    Scenario(name: "buffer.bounded", baseline: "asyncstream.raw", operations: operatorElements) {
      // The buffer's own task plays the stream's producer task: it pulls a counting base and hands over.
      var sum = 0
      var seen = 0
      for await value in Counting(count: operatorElements).buffer(policy: .bounded(64)) {
        sum &+= value
        seen += 1
      }
      precondition(sum == operatorElements * (operatorElements - 1) / 2)
      return seen
    },
  ]
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
