/// Returns a sequence of the elements of any number of sequences, interleaved as they arrive.
///
/// Use it when the number of sources is known only at run time, such as one stream per connection:
///
/// ```swift
/// for await message in merge(connections.map(\.messages)) {
///   print(message)
/// }
/// // connection 0: -- hello ----------
/// // connection 1: --------- bye -----
/// // Prints hello, bye.
/// ```
///
/// Each element is delivered exactly once, and the elements of one base keep their order. With one base
/// the sequence delivers that base's elements; with none, it finishes at once. The bases are iterated in a
/// task of the operator's own (one child task per base), started on the first `next()`; each base is asked
/// for its next element only once the consumer has taken its previous one, and bases with an element
/// waiting are served in turn.
///
/// See <doc:Merge> for the timing diagrams, the design and a comparison with Combine and
/// swift-async-algorithms.
///
/// ## Finishing, throwing, cancellation
/// The sequence finishes when all bases have finished. The bases share one `Failure` type, which is the
/// sequence's: non-throwing bases give a non-throwing sequence. An error from any base cancels the others
/// and is thrown once, by the next `next()`; then the sequence finishes. Cancelling the consuming task, or
/// dropping the iterator, cancels all bases and `next()` returns `nil`.
@inlinable
public func merge<Base: AsyncSequence & Sendable>(
  _ bases: some Collection<Base>
) -> AsyncMergeSequence<Base> where Base.Element: Sendable {
  AsyncMergeSequence(Array(bases))
}

/// An asynchronous sequence of the elements of any number of sequences, interleaved as they arrive.
///
/// Create it with ``merge(_:)``; see <doc:Merge> for its timing and edge cases. It is `Sendable`, and each
/// iterator iterates the bases anew.
public struct AsyncMergeSequence<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable
where Base.Element: Sendable {
  /// The bases' common element type.
  public typealias Element = Base.Element
  /// The bases' common error type.
  public typealias Failure = Base.Failure

  @usableFromInline let bases: [Base]

  @inlinable init(_ bases: [Base]) {
    self.bases = bases
  }

  /// Creates an iterator; each iterator iterates the bases anew.
  @inlinable
  public func makeAsyncIterator() -> Iterator {
    Iterator(bases)
  }

  /// The iterator of an ``AsyncMergeSequence``; one task iterates it.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline let iteration: _MergeIteration<Element, Failure>

    @inlinable init(_ bases: [Base]) {
      iteration = _MergeIteration(count: bases.count) { storage in
        await withDiscardingTaskGroup { group in
          for (index, base) in bases.enumerated() {
            group.addTask { await storage.consume(base, at: index) }
          }
        }
      }
    }

    /// Returns the next element of any base; `nil` once every base has finished.
    ///
    /// Throws a base's error once, then returns `nil`. When the consuming task is cancelled it cancels the bases
    /// and returns `nil`.
    @inlinable
    public mutating func next(
      isolation actor: isolated (any Actor)? = #isolation
    ) async throws(Failure) -> Element? {
      try await iteration.next(isolation: actor)
    }
  }
}

@available(*, unavailable)
extension AsyncMergeSequence.Iterator: Sendable {}
