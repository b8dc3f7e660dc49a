import Synchronization

/// A base that never produces and tells the test when it is iterated and when that iteration is cancelled.
///
/// Tests wait for these events instead of yielding: each wait ends exactly when the event happens.
struct CancellationProbe: AsyncSequence, Sendable {
  typealias Element = String
  typealias Failure = Never

  fileprivate final class Events: Sendable {
    let made = Atomic(false)
    let started = Signal()
    let cancelled = Signal()
    let seenCancellation = Atomic(false)
  }

  private let events = Events()

  /// Elements the probe yields at once before it waits forever.
  let prefix: [String]

  init(yielding prefix: [String] = []) {
    self.prefix = prefix
  }

  /// Whether an iteration of the probe saw its task cancelled.
  var wasCancelled: Bool { events.seenCancellation.load(ordering: .sequentiallyConsistent) }

  /// Whether an iterator of the probe was made.
  var wasIterated: Bool { events.made.load(ordering: .sequentiallyConsistent) }

  /// Waits until a task is suspended in the probe's `next()`.
  func waitUntilWaiting() async { await events.started.wait() }

  /// Waits until the task iterating the probe is cancelled.
  func waitForCancellation() async { await events.cancelled.wait() }

  func makeAsyncIterator() -> Iterator {
    events.made.store(true, ordering: .sequentiallyConsistent)
    return Iterator(events: events, prefix: prefix[...])
  }

  struct Iterator: AsyncIteratorProtocol {
    fileprivate let events: Events
    fileprivate var prefix: ArraySlice<String>

    mutating func next(isolation actor: isolated (any Actor)? = #isolation) async -> String? {
      if let element = prefix.popFirst() { return element }
      let events = self.events
      // Only cancellation ends the wait; the probe stays silent otherwise.
      let (stream, continuation) = AsyncStream.makeStream(of: Void.self)
      await withTaskCancellationHandler {
        events.started.ready()
        var iterator = stream.makeAsyncIterator()
        _ = await iterator.next(isolation: actor)
      } onCancel: {
        events.seenCancellation.store(true, ordering: .sequentiallyConsistent)
        events.cancelled.ready()
        continuation.finish()
      }
      return nil
    }

    mutating func next() async -> String? { await next(isolation: nil) }
  }
}
