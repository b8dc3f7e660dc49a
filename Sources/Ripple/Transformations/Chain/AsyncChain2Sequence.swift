/// Returns a sequence of the elements of two sequences, one after the other: every element of the first, then every
/// element of the second.
///
/// See ``AsyncChain2Sequence`` for an example and how it finishes, throws and cancels.
@inlinable
public func chain<Base1: AsyncSequence, Base2: AsyncSequence>(
  _ base1: Base1, _ base2: Base2
) -> AsyncChain2Sequence<Base1, Base2> where Base2.Element == Base1.Element, Base2.Failure == Base1.Failure {
  AsyncChain2Sequence(base1, base2)
}

/// Returns ``chain(_:_:)`` of bases whose error types differ: the sequence throws `any Error`.
///
/// Bases of one error type keep it (and non-throwing bases give a non-throwing sequence); this overload is chosen
/// only when the types differ, and widens each base's error to `any Error` with
/// ``_Concurrency/AsyncSequence/mapError(_:)``. Otherwise it behaves as ``AsyncChain2Sequence``.
@_documentation(visibility: internal)
@_disfavoredOverload
@inlinable
public func chain<Base1: AsyncSequence, Base2: AsyncSequence>(
  _ base1: Base1, _ base2: Base2
) -> AsyncChain2Sequence<AsyncMapErrorSequence<Base1, any Error>, AsyncMapErrorSequence<Base2, any Error>>
where Base2.Element == Base1.Element {
  chain(base1._failingWithAnyError, base2._failingWithAnyError)
}

/// An asynchronous sequence of the elements of two sequences, one after the other.
///
/// Use it to put what is known before what comes later — cached results before live ones, a greeting before the
/// messages, Combine's `prepend` and `append`:
///
/// ```swift
/// for await message in chain(saved, live) {
///   print(message)
/// }
/// // saved: a b|
/// // live:  ---- c -- d|
/// // Prints a, b, c, d.
/// ```
///
/// The second base is iterated only once the first has finished; nothing runs ahead, and no task is started: the
/// bases are iterated by the consuming task, on its isolation. Each iterator iterates the bases anew.
///
/// - The sequence finishes when the second base finishes.
/// - Bases of one `Failure` type give the sequence that type, and non-throwing bases a non-throwing sequence; bases
///   of different types give `any Error`, each base's error thrown as it is. An error
///   from either base is thrown, and then the sequence finishes: the second base is never iterated after an error
///   of the first.
/// - Cancellation is the bases' own: the consuming task's cancellation reaches the base being iterated.
///
/// ``chain(_:_:_:)`` behaves the same for three bases.
public struct AsyncChain2Sequence<Base1: AsyncSequence, Base2: AsyncSequence>: AsyncSequence
where Base2.Element == Base1.Element, Base2.Failure == Base1.Failure {
  /// The bases' common element type.
  public typealias Element = Base1.Element
  /// The bases' common error type.
  public typealias Failure = Base1.Failure

  @usableFromInline let base1: Base1
  @usableFromInline let base2: Base2

  @inlinable init(_ base1: Base1, _ base2: Base2) {
    self.base1 = base1
    self.base2 = base2
  }

  /// Creates an iterator; each iterator iterates the bases anew.
  @inlinable
  public func makeAsyncIterator() -> Iterator {
    Iterator(base1.makeAsyncIterator(), base2)
  }

  /// The iterator of an ``AsyncChain2Sequence``; one task iterates it.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline var first: Base1.AsyncIterator?
    /// The second base, until the first finishes; then its iterator.
    @usableFromInline var secondBase: Base2?
    @usableFromInline var second: Base2.AsyncIterator?

    @inlinable init(_ first: Base1.AsyncIterator, _ secondBase: Base2) {
      self.first = first
      self.secondBase = secondBase
    }

    /// Returns the next element of the first base, then of the second; `nil` once the second has finished or
    /// either has thrown.
    @inlinable @inline(__always)
    public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws(Failure) -> Element? {
      // Inlined into the caller (@inline(__always)): a call would cost an async frame and an executor
      // check per element.
      do throws(Failure) {
        if first != nil {
          if let element = try await first!.next(isolation: actor) { return element }
          first = nil
          second = secondBase.take()?.makeAsyncIterator()
        }
        guard second != nil, let element = try await second!.next(isolation: actor) else {
          second = nil
          return nil
        }
        return element
      } catch {
        first = nil
        secondBase = nil
        second = nil
        throw error
      }
    }
  }
}

extension AsyncChain2Sequence: Sendable where Base1: Sendable, Base2: Sendable {}

@available(*, unavailable)
extension AsyncChain2Sequence.Iterator: Sendable {}
