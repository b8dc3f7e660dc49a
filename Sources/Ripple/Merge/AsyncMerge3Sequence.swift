/// Returns a sequence of the elements of three sequences, interleaved as they arrive.
///
/// Use it to handle events from three sources in one loop:
///
/// ```swift
/// for await event in merge(keys, resizes, ticks) {
///   print(event)
/// }
/// // keys:    -- a ----------
/// // resizes: ------ r ------
/// // ticks:   ---------- t --
/// // Prints a, r, t.
/// ```
///
/// Each element is delivered exactly once, and the elements of one base keep their order. The bases are
/// iterated in a task of the operator's own, started on the first `next()`; each base is asked for its next
/// element only once the consumer has taken its previous one, and bases with an element waiting are
/// served in turn.
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
public func merge<Base1: AsyncSequence & Sendable, Base2: AsyncSequence & Sendable, Base3: AsyncSequence & Sendable>(
  _ base1: Base1, _ base2: Base2, _ base3: Base3
) -> AsyncMerge3Sequence<Base1, Base2, Base3>
where
  Base1.Element: Sendable, Base2.Element == Base1.Element, Base3.Element == Base1.Element,
  Base2.Failure == Base1.Failure, Base3.Failure == Base1.Failure
{
  AsyncMerge3Sequence(base1, base2, base3)
}

/// An asynchronous sequence of the elements of three sequences, interleaved as they arrive.
///
/// Create it with ``merge(_:_:_:)``; see <doc:Merge> for its timing and edge cases. It is `Sendable`, and each
/// iterator iterates the bases anew.
public struct AsyncMerge3Sequence<
  Base1: AsyncSequence & Sendable, Base2: AsyncSequence & Sendable, Base3: AsyncSequence & Sendable
>: AsyncSequence, Sendable
where
  Base1.Element: Sendable, Base2.Element == Base1.Element, Base3.Element == Base1.Element,
  Base2.Failure == Base1.Failure, Base3.Failure == Base1.Failure
{
  /// The bases' common element type.
  public typealias Element = Base1.Element
  /// The bases' common error type.
  public typealias Failure = Base1.Failure

  @usableFromInline let base1: Base1
  @usableFromInline let base2: Base2
  @usableFromInline let base3: Base3

  @inlinable init(_ base1: Base1, _ base2: Base2, _ base3: Base3) {
    self.base1 = base1
    self.base2 = base2
    self.base3 = base3
  }

  /// Creates an iterator; each iterator iterates the bases anew.
  @inlinable
  public func makeAsyncIterator() -> Iterator {
    Iterator(base1, base2, base3)
  }

  /// The iterator of an ``AsyncMerge3Sequence``; one task iterates it.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline let iteration: _MergeIteration<Element, Failure>

    @inlinable init(_ base1: Base1, _ base2: Base2, _ base3: Base3) {
      iteration = _MergeIteration(count: 3) { storage in
        await withDiscardingTaskGroup { group in
          group.addTask { await storage.consume(base1, at: 0) }
          group.addTask { await storage.consume(base2, at: 1) }
          group.addTask { await storage.consume(base3, at: 2) }
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
extension AsyncMerge3Sequence.Iterator: Sendable {}
