/// Returns a sequence of the elements of three sequences, one after the other.
///
/// ```swift
/// for await line in chain(header, body, footer) {
///   print(line)
/// }
/// // Prints the header's lines, the body's as they come, then the footer's.
/// ```
///
/// It behaves as ``chain(_:_:)``; see ``AsyncChain2Sequence`` for how it finishes, throws and cancels.
@inlinable
public func chain<Base1: AsyncSequence, Base2: AsyncSequence, Base3: AsyncSequence>(
  _ base1: Base1, _ base2: Base2, _ base3: Base3
) -> AsyncChain3Sequence<Base1, Base2, Base3>
where
  Base2.Element == Base1.Element, Base3.Element == Base1.Element,
  Base2.Failure == Base1.Failure, Base3.Failure == Base1.Failure
{
  AsyncChain3Sequence(base1, base2, base3)
}

/// Returns ``chain(_:_:_:)`` of bases whose error types differ: the sequence throws `any Error`.
///
/// Bases of one error type keep it (and non-throwing bases give a non-throwing sequence); this overload is chosen
/// only when the types differ, and widens each base's error to `any Error` with
/// ``_Concurrency/AsyncSequence/mapError(_:)``. Otherwise it behaves as ``AsyncChain3Sequence``.
@_documentation(visibility: internal)
@_disfavoredOverload
@inlinable
public func chain<Base1: AsyncSequence, Base2: AsyncSequence, Base3: AsyncSequence>(
  _ base1: Base1, _ base2: Base2, _ base3: Base3
) -> AsyncChain3Sequence<
  AsyncMapErrorSequence<Base1, any Error>, AsyncMapErrorSequence<Base2, any Error>,
  AsyncMapErrorSequence<Base3, any Error>
>
where Base2.Element == Base1.Element, Base3.Element == Base1.Element {
  chain(base1._failingWithAnyError, base2._failingWithAnyError, base3._failingWithAnyError)
}

/// An asynchronous sequence of the elements of three sequences, one after the other.
///
/// Create it with ``chain(_:_:_:)``; it behaves as ``AsyncChain2Sequence``.
public struct AsyncChain3Sequence<Base1: AsyncSequence, Base2: AsyncSequence, Base3: AsyncSequence>: AsyncSequence
where
  Base2.Element == Base1.Element, Base3.Element == Base1.Element,
  Base2.Failure == Base1.Failure, Base3.Failure == Base1.Failure
{
  /// The bases' common element type.
  public typealias Element = Base1.Element
  /// The bases' common error type.
  public typealias Failure = Base1.Failure

  @usableFromInline let chained: AsyncChain2Sequence<AsyncChain2Sequence<Base1, Base2>, Base3>

  @inlinable init(_ base1: Base1, _ base2: Base2, _ base3: Base3) {
    chained = AsyncChain2Sequence(AsyncChain2Sequence(base1, base2), base3)
  }

  /// Creates an iterator; each iterator iterates the bases anew.
  @inlinable
  public func makeAsyncIterator() -> Iterator {
    Iterator(chained.makeAsyncIterator())
  }

  /// The iterator of an ``AsyncChain3Sequence``; one task iterates it.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline var chained: AsyncChain2Sequence<AsyncChain2Sequence<Base1, Base2>, Base3>.Iterator

    @inlinable init(_ chained: AsyncChain2Sequence<AsyncChain2Sequence<Base1, Base2>, Base3>.Iterator) {
      self.chained = chained
    }

    /// Returns the next element of the first base, then of the second, then of the third; `nil` once the third
    /// has finished or any has thrown.
    @inlinable @inline(__always)
    public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws(Failure) -> Element? {
      // Inlined into the caller (@inline(__always)): a call would cost an async frame and an executor
      // check per element.
      try await chained.next(isolation: actor)
    }
  }
}

extension AsyncChain3Sequence: Sendable where Base1: Sendable, Base2: Sendable, Base3: Sendable {}

@available(*, unavailable)
extension AsyncChain3Sequence.Iterator: Sendable {}
