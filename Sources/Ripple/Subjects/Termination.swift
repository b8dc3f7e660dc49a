/// How a subject ends: normally, or with an error.
///
/// Pass it to a subject's `send(_:)` to end every iteration of the subject:
///
/// ```swift
/// let results = AsyncThrowingPassthroughSubject<Int, any Error>()
/// results.send(1)
/// results.send(.failure(CancellationError()))  // iterators get what they had buffered, then the error
/// results.send(2)                              // does nothing: the subject has ended
/// ```
///
/// The first termination counts; later ones, and elements sent after it, are ignored. It is AsyncExtensions'
/// `Termination`, and stands for Combine's `Subscribers.Completion`.
public enum Termination<Failure: Error>: Sendable {
  /// The subject finished: iterators return `nil` once they took what they had buffered.
  case finished
  /// The subject failed: iterators throw `Failure` once they took what they had buffered, then return `nil`.
  case failure(Failure)
}
