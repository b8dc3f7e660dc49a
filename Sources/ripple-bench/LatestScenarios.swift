import Ripple
import Synchronization

/// Elements through `mapLatest` per run.
let mapLatestElements = 1_000_000
/// Base elements through `flatMapLatest` per run, each with an inner sequence of `flatMapLatestInnerCount` elements.
let flatMapLatestElements = 1_000_000
let flatMapLatestInnerCount = 1  // each inner one element: the row checks that the values only grow
/// Supersessions timed per run of the cancel-latency scenario.
let cancelLatencySamples = 2_000

/// `mapLatest` and `flatMapLatest` throughput, and how fast `mapLatest` cancels a superseded transform.
func latestScenarios() -> [Scenario] {
  sourced("mapLatest.instant", operations: mapLatestElements) { source in
    switch source {
    case .stream: return await lastOfMapLatest(producedStream(count: mapLatestElements) { $0 + 1 })
    case .channel: return await lastOfMapLatest(producedChannel(count: mapLatestElements) { $0 + 1 })
    }
  }
    // A synchronous inner per element, so that the row measures the hand-off: an inner task per element, its
    // element handed to the consumer, its end or its supersession.
    + sourced("flatMapLatest.instant", operations: flatMapLatestElements) { source in
      switch source {
      case .stream: return await lastOfFlatMapLatest(producedStream(count: flatMapLatestElements) { $0 + 1 })
      case .channel: return await lastOfFlatMapLatest(producedChannel(count: flatMapLatestElements) { $0 + 1 })
      }
    } + [
      .latency(name: "mapLatest.cancel-latency", operations: cancelLatencySamples) {
        await measureCancelLatency()
      }
    ]
}

/// `mapLatest` with a transform that returns at once; checks that the last element's result came out.
@inline(__always)
func lastOfMapLatest<S: AsyncSequence<Int, Never> & Sendable>(_ sequence: S) async -> Int {
  var seen = 0
  var last = 0
  for await value in sequence.mapLatest({ $0 }) {
    precondition(value > last, "mapLatest delivered \(value) after \(last)")
    seen += 1
    last = value
  }
  precondition(last == mapLatestElements, "mapLatest lost the final value")
  return seen
}

/// `flatMapLatest` with an inner of ``flatMapLatestInnerCount`` synchronous elements; checks the last inner's came out.
@inline(__always)
func lastOfFlatMapLatest<S: AsyncSequence<Int, Never> & Sendable>(_ sequence: S) async -> Int {
  var seen = 0
  var last = 0
  for await value in sequence.flatMapLatest({ SyncRun(value: $0, count: flatMapLatestInnerCount) }) {
    precondition(value > last, "flatMapLatest delivered \(value) after \(last)")
    seen += 1
    last = value
  }
  precondition(last == flatMapLatestElements, "flatMapLatest lost the final inner")
  return seen
}

/// The median time, in nanoseconds, from a new element entering the base to the superseded transform's
/// cancellation handler running.
func measureCancelLatency() async -> (nanoseconds: Double, values: Int) {
  let clock = ContinuousClock()
  let (stream, input) = AsyncStream.makeStream(of: Int.self, bufferingPolicy: .unbounded)
  let (started, startedInput) = AsyncStream.makeStream(of: Int.self, bufferingPolicy: .unbounded)
  let cancelledAt = Mutex<[ContinuousClock.Instant]>([])
  cancelledAt.withLock { $0.reserveCapacity(cancelLatencySamples + 1) }
  let results = stream.mapLatest { value -> Int in
    let latch = Latch()
    await withTaskCancellationHandler {
      startedInput.yield(value)
      await latch.wait()  // until superseded
    } onCancel: {
      let now = clock.now
      cancelledAt.withLock { $0.append(now) }
      latch.open()
    }
    return value
  }
  let consumer = Task {
    var seen = 0
    for await _ in results { seen += 1 }
    return seen
  }
  var startedIterator = started.makeAsyncIterator()
  var sentAt: [ContinuousClock.Instant] = []
  sentAt.reserveCapacity(cancelLatencySamples)
  input.yield(0)
  _ = await startedIterator.next()
  for value in 1...cancelLatencySamples {
    sentAt.append(clock.now)
    input.yield(value)
    _ = await startedIterator.next()  // the new transform runs, so the previous one was superseded
  }
  consumer.cancel()  // ends the last transform too
  let seen = await consumer.value
  let latencies = zip(sentAt, cancelledAt.withLock { $0 }).map { ($1 - $0).nanoseconds }.sorted()
  return (latencies[latencies.count / 2], seen)
}

/// A one-shot latch: `wait()` returns once `open()` has been called, before or after.
final class Latch: Sendable {
  private let state = Mutex<(open: Bool, waiter: UnsafeContinuation<Void, Never>?)>((false, nil))

  func open() {
    state.withLock { state -> UnsafeContinuation<Void, Never>? in
      state.open = true
      defer { state.waiter = nil }
      return state.waiter
    }?.resume()
  }

  func wait() async {
    await withUnsafeContinuation { continuation in
      let isOpen = state.withLock { state -> Bool in
        if state.open { return true }
        state.waiter = continuation
        return false
      }
      if isOpen { continuation.resume() }
    }
  }
}

/// An inner sequence that never suspends: `value`, `count` times.
struct SyncRun: AsyncSequence, Sendable {
  typealias Failure = Never

  let value: Int
  let count: Int

  func makeAsyncIterator() -> Iterator { Iterator(value: value, remaining: count) }

  struct Iterator: AsyncIteratorProtocol {
    let value: Int
    var remaining: Int

    mutating func next(isolation actor: isolated (any Actor)? = #isolation) async -> Int? {
      guard remaining > 0 else { return nil }
      remaining -= 1
      return value
    }
  }
}
