import InternalRippleUtilities
import Observation
import Synchronization
import Testing

@testable import Ripple

// `Observed` on real threads: models written from other threads than the closure's, and released from them.
// Nothing sleeps; a lost change leaves a consumer waiting for good, and the suite's time limit turns that hang into
// a failure.

/// A model written from any thread: a lock guards its count, and each write holds it from `willSet` to `didSet`,
/// so a read sees the count before a write or after it, never in between.
final class LockedCounter: Observable, Sendable {
  private let registrar = ObservationRegistrar()
  private let count = _Mutex(0)

  var value: Int {
    registrar.access(self, keyPath: \.value)
    return count.withLock { $0 }
  }

  func increment() {
    count.withLock { count in
      registrar.withMutation(of: self, keyPath: \.value) { count += 1 }
    }
  }
}

/// Holds the only strong reference to a counter until another thread lets go of it.
private final class CounterOwner: Sendable {
  private let counter = _Mutex<LockedCounter?>(LockedCounter())

  /// The counter, if it is still held.
  var current: LockedCounter? { counter.withLock { $0 } }

  /// Lets go of the counter: it is deallocated outside the lock, now or when a reader's reference goes.
  func release() {
    _ = counter.withLock { $0.take() }
  }
}

/// Runs a short, random amount of work, so that writes land at different points of the consumer's reads.
private func spin() {
  let work = Atomic(0)
  for _ in 0..<Int.random(in: 0..<300) { work.add(1, ordering: .relaxed) }
}

@Suite("Observed under stress", .timeLimit(.minutes(3)))
struct ObservedStressTests {
  enum ClosureIsolation: CaseIterable {
    case nonisolated
    case actor
  }

  /// DESIGN.md: "after that it gets the value at the end of each transaction … read after the changes". A write on
  /// another thread between a read and the installation of its tracking fires nothing; the iterator must read
  /// again anyway.
  @Test(
    "a write made off the closure's isolation after its last read leads to another read",
    arguments: ClosureIsolation.allCases)
  func writesFromOtherThreads(isolation: ClosureIsolation) async {
    let writers = 2
    let writesEach = 50
    let total = writers * writesEach
    for round in 0..<Stress.rounds(2_000) {
      let counter = LockedCounter()
      let values =
        switch isolation {
        case .nonisolated: Observed { counter.value }
        case .actor: Observed { @TestActor in counter.value }
        }
      let last = await withTaskGroup(of: Int?.self) { group in
        group.addTask {
          var last = -1
          // Ends once the final count is seen, or when the time limit cancels the test.
          for await value in values {
            last = value
            if value == total { break }
          }
          return last
        }
        for _ in 0..<writers {
          group.addTask {
            for _ in 0..<writesEach {
              counter.increment()
              spin()
            }
            return nil
          }
        }
        return await group.reduce(into: -1) { last, result in last = result ?? last }
      }
      #expect(last == total, "round \(round): the consumer never saw the final count")
      if last != total { break }
    }
  }

  /// DESIGN.md: "Observed.untilFinished with a weak capture ends whenever the model is deallocated, also while
  /// `emit` is running."
  @Test("untilFinished with a weak capture ends when another thread lets the model go, at any point")
  func weakCaptureReleasedFromAnotherThread() async {
    for round in 0..<Stress.rounds(2_000) {
      let owner = CounterOwner()
      let values = Observed<Int, Never>.untilFinished { [weak counter = owner.current] in
        guard let counter else { return .finish }
        return .next(counter.value)
      }
      let writes = Int.random(in: 0..<20)
      let seen = await withTaskGroup(of: [Int]?.self) { group in
        group.addTask {
          var seen: [Int] = []
          // Ends when the closure finishes, or when the time limit cancels the test.
          for await value in values { seen.append(value) }
          return seen
        }
        group.addTask {
          for _ in 0..<writes {
            owner.current?.increment()
            spin()
          }
          owner.release()
          return nil
        }
        return await group.reduce(into: []) { seen, result in seen = result ?? seen }
      }
      #expect(!Task.isCancelled, "round \(round): the iteration did not end when the counter went")
      #expect(
        zip(seen, seen.dropFirst()).allSatisfy { $0 <= $1 } && seen.allSatisfy { $0 <= writes },
        "round \(round): \(seen)")
      if Task.isCancelled { break }
    }
  }
}
