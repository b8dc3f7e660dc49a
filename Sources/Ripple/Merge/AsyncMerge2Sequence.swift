/// Returns a sequence of the elements of two sequences, interleaved as they arrive.
///
/// Use it to handle events from two sources in one loop, such as key presses and timer ticks:
///
/// ```swift
/// for await event in merge(keys.map(Event.key), ticks.map { Event.tick }) {
///   print(event)
/// }
/// // keys:  -- a ------ b --
/// // ticks: ------ t -------
/// // Prints key(a), tick, key(b).
/// ```
///
/// Each element is delivered exactly once, and the elements of one base keep their order. The bases are
/// iterated in a task of the operator's own, started on the first `next()`; each base is asked for its next
/// element only once the consumer has taken its previous one, and bases with an element waiting are
/// served in turn, so a fast base cannot starve a slow one.
///
/// See <doc:Merge> for the timing diagrams, the design and a comparison with Combine and
/// swift-async-algorithms.
///
/// ## Finishing, throwing, cancellation
/// The sequence finishes when both bases have finished. Both bases share one `Failure` type, which is the
/// sequence's: non-throwing bases give a non-throwing sequence. An error from either base cancels the other
/// and is thrown once, by the next `next()`; then the sequence finishes. Cancelling the consuming task, or
/// dropping the iterator, cancels both bases and `next()` returns `nil`.
@inlinable
public func merge<Base1: AsyncSequence & Sendable, Base2: AsyncSequence & Sendable>(
  _ base1: Base1, _ base2: Base2
) -> AsyncMerge2Sequence<Base1, Base2>
where Base1.Element: Sendable, Base2.Element == Base1.Element, Base2.Failure == Base1.Failure {
  AsyncMerge2Sequence(base1, base2)
}

/// An asynchronous sequence of the elements of two sequences, interleaved as they arrive.
///
/// Create it with ``merge(_:_:)``; see <doc:Merge> for its timing and edge cases. It is `Sendable`, and each
/// iterator iterates the bases anew.
public struct AsyncMerge2Sequence<Base1: AsyncSequence & Sendable, Base2: AsyncSequence & Sendable>:
  AsyncSequence, Sendable
where Base1.Element: Sendable, Base2.Element == Base1.Element, Base2.Failure == Base1.Failure {
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
    Iterator(base1, base2)
  }

  /// The iterator of an ``AsyncMerge2Sequence``; one task iterates it.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline let iteration: _MergeIteration<Element, Failure>

    @inlinable init(_ base1: Base1, _ base2: Base2) {
      iteration = _MergeIteration(count: 2) { storage in
        await withDiscardingTaskGroup { group in
          group.addTask { await storage.consume(base1, at: 0) }
          group.addTask { await storage.consume(base2, at: 1) }
        }
      }
    }

    /// Returns the next element of either base; `nil` once both bases have finished.
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
extension AsyncMerge2Sequence.Iterator: Sendable {}
