import Synchronization
import Testing

@testable import Ripple

// withLatest on real threads: base and other are fed from detached tasks that yield at random. Each assertion is a
// documented promise — base elements neither lost (once the other has produced) nor duplicated nor reordered, the
// other's latest only moving forward, the end reached with the base's, cancellation ending the iteration promptly
// and releasing both sequences. Waits are on latches and on the sequences themselves; the time limit turns a hang
// into a failure.

/// How many times each scenario runs.
private let runs = Stress.rounds(1_000)

/// A stream of `elements`, fed from a detached task that yields at random between them, then finished unless
/// `endless`; `released` opens when the stream's iteration ends (finished, cancelled or dropped).
private func fedStream(_ elements: Range<Int>, endless: Bool = false, released: Latch? = nil) -> AsyncStream<Int> {
  let (stream, input) = AsyncStream.makeStream(of: Int.self, bufferingPolicy: .unbounded)
  if let released { input.onTermination = { _ in released.open() } }
  Task.detached {
    for element in elements {
      if Int.random(in: 0..<3) == 0 { await Task.yield() }
      input.yield(element)
    }
    if !endless { input.finish() }
  }
  return stream
}

@Suite("withLatest stress", .timeLimit(.minutes(3)))
struct WithLatestStressTests {
  @Test("every base element after the other's first once, in order; the other's latest never goes back")
  func delivery() async {
    var dropped = 0
    for run in 0..<runs {
      let count = Int.random(in: 0...40)
      let (other, input) = AsyncStream.makeStream(of: Int.self, bufferingPolicy: .unbounded)
      input.yield(0)  // buffered before the iteration starts: the base's elements are rarely dropped
      let feeder = Task.detached {
        for element in 1..<Int.random(in: 1...30) {
          if Bool.random() { await Task.yield() }
          input.yield(element)
        }
        if Bool.random() { input.finish() }
      }
      var pairs: [(Int, Int)] = []
      for await pair in fedStream(0..<count).withLatest(from: other) { pairs.append(pair) }
      await feeder.value
      input.finish()
      let elements = pairs.map(\.0)
      #expect(elements == Array((count - elements.count)..<count), "run \(run): lost, repeated or reordered")
      let latest = pairs.map(\.1)
      #expect(latest == latest.sorted(), "run \(run): the other's latest went back: \(latest)")
      dropped += count - elements.count
    }
    // A base element is dropped only while the other has produced nothing, which its buffered first element makes
    // rare; they are counted, not forbidden.
    print("withLatest stress: \(dropped) base elements dropped before the other's first, in \(runs) runs")
  }

  @Test("cancelling the consumer ends it promptly and releases base and other")
  func cancellation() async {
    var slowest = Duration.zero
    for run in 0..<runs {
      let baseReleased = Latch()
      let otherReleased = Latch()
      let consumer = Task {
        // Made here, so that only the iteration holds them.
        let base = fedStream(0..<Int.random(in: 0...30), endless: true, released: baseReleased)
        let other = fedStream(0..<Int.random(in: 1...10), endless: true, released: otherReleased)
        var elements: [Int] = []
        for await (element, _) in base.withLatest(from: other) {
          elements.append(element)
        }
        return elements
      }
      let (elements, ending) = await Stress.cancelAtRandomPoint(consumer)
      slowest = max(slowest, ending)
      await baseReleased.wait()
      await otherReleased.wait()
      #expect(elements == elements.sorted() && Set(elements).count == elements.count, "run \(run): \(elements)")
    }
    print("withLatest stress: slowest end after cancellation \(slowest)")
    // A cancellation not seen would leave the consumer waiting on endless bases: the bound catches that.
    #expect(slowest < Stress.cancellationBound)
  }
}
