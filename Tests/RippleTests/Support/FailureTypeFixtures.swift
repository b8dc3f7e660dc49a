import Ripple

/// A second error type besides ``Boom``, for bases whose error types differ.
enum Other: Error, Equatable { case other }

/// Bases of the three error shapes a combining operator meets — one that cannot fail, one failing with ``Boom``,
/// one with ``Other`` — and the error type the type checker chose for what is built from them.
protocol FailureTypeFixtures {}

extension FailureTypeFixtures {
  /// The error type a sequence throws, as the type checker chose it.
  func failure<S: AsyncSequence>(of _: S) -> ObjectIdentifier { ObjectIdentifier(S.Failure.self) }

  var never: AsyncStream<Int> { finiteStream([1]) }
  var boom: AsyncMapErrorSequence<AsyncThrowingStream<Int, any Error>, Boom> {
    failingStream([2]).mapError { _ in .boom }
  }
  var other: AsyncMapErrorSequence<AsyncThrowingStream<Int, any Error>, Other> {
    failingStream([3]).mapError { _ in .other }
  }
}
