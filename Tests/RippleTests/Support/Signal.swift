/// A one-way channel a consumer task uses to tell the test it is about to wait.
///
/// The tests rely on actor serialization, not on counting yields: a consumer on the same actor as the
/// producer sends `ready()` and goes straight into `next()`, which suspends without leaving the actor, so by
/// the time the producer runs again the consumer is waiting.
struct Signal: Sendable {
  private let stream: AsyncStream<Void>
  private let continuation: AsyncStream<Void>.Continuation

  init() {
    (stream, continuation) = AsyncStream.makeStream(of: Void.self)
  }

  /// Sends one signal.
  func ready() {
    continuation.yield()
  }

  /// Waits for the next signal.
  func wait(isolation: isolated (any Actor)? = #isolation) async {
    var iterator = stream.makeAsyncIterator()
    _ = await iterator.next(isolation: isolation)
  }
}
