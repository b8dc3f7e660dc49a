import InternalRippleUtilities
import Ripple

/// Collects values reported from any task and lets a test wait for a given number of them.
///
/// Waiting is exact: `values(count:)` returns once that many reports arrived, however the tasks were scheduled.
final class Recorder<Value: Sendable>: Sendable {
  private let stream: AsyncStream<Value>
  private let continuation: AsyncStream<Value>.Continuation

  init() {
    (stream, continuation) = AsyncStream.makeStream(of: Value.self)
  }

  /// Reports one value.
  func record(_ value: Value) {
    continuation.yield(value)
  }

  /// Waits until `count` more values have been reported and returns them in arrival order.
  func values(count: Int, isolation: isolated (any Actor)? = #isolation) async -> [Value] {
    var iterator = stream.makeAsyncIterator()
    var values: [Value] = []
    while values.count < count, let value = await iterator.next(isolation: isolation) {
      values.append(value)
    }
    return values
  }
}

/// Suspends until the current task is cancelled.
func waitForCancellation() async {
  let gate = _Mutex<UnsafeContinuation<Void, Never>?>(nil)
  await withTaskCancellationHandler {
    await withUnsafeContinuation { continuation in
      let cancelled = gate.withLock { stored -> Bool in
        if Task.isCancelled { return true }
        stored = continuation
        return false
      }
      if cancelled { continuation.resume() }
    }
  } onCancel: {
    gate.withLock { stored in
      defer { stored = nil }
      return stored
    }?.resume()
  }
}
