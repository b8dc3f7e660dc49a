import Testing

@testable import Ripple

// mapLatest and flatMapLatest on real threads: the base is fed from a detached task that yields at random, and the
// transforms yield at random, so elements come while a transform runs, just after it ended, or while the consumer is
// busy. Each assertion is a documented promise: results in the order of their elements, never a stale one after a
// newer one, the last element's always delivered ("When the base finishes, the transform in flight completes and is
// delivered"), a delivered result never computed in a cancelled task, and the iteration letting go of its base once
// it ends, by finishing or by cancellation — a task of the iteration left waiting would hold it. Waits are on
// latches and on the sequences themselves; the time limit turns a hang into a failure.

/// How many times each scenario runs.
private let runs = Stress.rounds(1_000)

/// What a transform run in a cancelled task returns: a delivered result must never be this.
private let computedWhileCancelled = -1

/// Iterates `operate` over a stream of `0..<count` fed from a detached task, to the end; returns what it gave, once
/// the iteration has let go of the stream (the wait hangs, and the time limit fails the test, if it never does).
private func outputs<Results: AsyncSequence<Int, Never>>(
  of count: Int, _ operate: (TrackedBase<AsyncStream<Int>>) -> Results
) async -> [Int] {
  let released = Latch()
  var outputs: [Int] = []
  // The sequences live only in this scope, so that afterwards only the iteration could still hold the base.
  do {
    for await output in operate(TrackedBase(base: producedStream(count), released: released)) {
      outputs.append(output)
    }
  }
  await released.wait()
  return outputs
}

@Suite("latest-wins stress", .timeLimit(.minutes(3)))
struct LatestStressTests {
  @Test("mapLatest: results in order, the last element's always, none from a cancelled task; the base is released")
  func mapLatestDelivery() async {
    var delivered = 0
    for run in 0..<runs {
      let count = Int.random(in: 0...40)
      let results = await outputs(of: count) { base in
        base.mapLatest { value -> Int in
          if Int.random(in: 0..<3) == 0 { await Task.yield() }
          return Task.isCancelled ? computedWhileCancelled : value
        }
      }
      #expect(!results.contains(computedWhileCancelled), "run \(run): a result computed in a cancelled task")
      #expect(zip(results, results.dropFirst()).allSatisfy { $0 < $1 }, "run \(run): stale or repeated: \(results)")
      #expect(results.last == (count == 0 ? nil : count - 1), "run \(run): the last element's result: \(results)")
      delivered += results.count
    }
    print("latest-wins stress: mapLatest delivered \(delivered) results in \(runs) runs")
  }

  @Test("flatMapLatest: each inner's elements in order, no older inner's after a newer one's, the last inner whole")
  func flatMapLatestDelivery() async {
    for run in 0..<runs {
      let count = Int.random(in: 0...40)
      let elements = await outputs(of: count) { base in
        base.flatMapLatest { value in [value * 2, value * 2 + 1].async }
      }
      #expect(zip(elements, elements.dropFirst()).allSatisfy { $0 < $1 }, "run \(run): stale or repeated: \(elements)")
      let last = count == 0 ? [] : [2 * (count - 1), 2 * (count - 1) + 1]
      #expect(Array(elements.suffix(2)) == last, "run \(run): the last inner's elements: \(elements)")
    }
  }

  @Test("cancelling the consumer ends it promptly and releases the base")
  func cancellation() async {
    var slowest = Duration.zero
    for run in 0..<runs {
      let released = Latch()
      let consumer = Task {
        // Made here, so that only the iteration holds it.
        let base = TrackedBase(base: producedStream(Int.random(in: 0...30), endless: true), released: released)
        var results: [Int] = []
        for await result in base.mapLatest({ value -> Int in
          if Bool.random() { await Task.yield() }
          return value
        }) {
          results.append(result)
        }
        return results
      }
      let (results, ending) = await Stress.cancelAtRandomPoint(consumer)
      slowest = max(slowest, ending)
      await released.wait()
      #expect(zip(results, results.dropFirst()).allSatisfy { $0 < $1 }, "run \(run): \(results)")
    }
    print("latest-wins stress: slowest end after cancellation \(slowest)")
    // A cancellation not seen would leave the consumer waiting on an endless base: the bound catches that.
    #expect(slowest < Stress.cancellationBound)
  }
}
