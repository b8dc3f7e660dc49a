/// Returns a sequence of triples of the latest elements of three sequences, one each time any produces.
///
/// Use it to derive a value from three changing inputs:
///
/// ```swift
/// for await (width, height, scale) in combineLatest(widths, heights, scales) {
///   print(width * height * scale)
/// }
/// // widths:  2 --------- 3 --
/// // heights: -- 5 -----------
/// // scales:  ---- 1 -- 10 ---
/// // Prints 10, 100, 150.
/// ```
///
/// The first triple comes once every base has produced an element; after that, every element of any base
/// produces a triple with the latest elements of the others. The bases are iterated in a task of the
/// operator's own, started on the first `next()`; each base is asked for its next element only once its
/// previous one has been combined into a triple the consumer took.
///
/// See <doc:CombineLatest> for the timing diagrams, the design and a comparison with Combine and
/// swift-async-algorithms.
///
/// ## Finishing, throwing, cancellation
/// The sequence finishes when all bases have finished, or as soon as one finishes without ever producing
/// an element. The bases share one `Failure` type, which is the sequence's: non-throwing bases give a
/// non-throwing sequence. An error from any base cancels the others and is thrown once, by the next
/// `next()`; then the sequence finishes. Cancelling the consuming task, or dropping the iterator, cancels
/// all bases and `next()` returns `nil`.
@inlinable
public func combineLatest<
  Base1: AsyncSequence & Sendable, Base2: AsyncSequence & Sendable, Base3: AsyncSequence & Sendable
>(
  _ base1: Base1, _ base2: Base2, _ base3: Base3
) -> AsyncCombineLatest3Sequence<Base1, Base2, Base3>
where
  Base1.Element: Sendable, Base2.Element: Sendable, Base3.Element: Sendable,
  Base2.Failure == Base1.Failure, Base3.Failure == Base1.Failure
{
  AsyncCombineLatest3Sequence(base1, base2, base3)
}

/// An asynchronous sequence of triples of the latest elements of three sequences.
///
/// Create it with ``combineLatest(_:_:_:)``; see <doc:CombineLatest> for its timing and edge cases. It is
/// `Sendable`, and each iterator iterates the bases anew.
public struct AsyncCombineLatest3Sequence<
  Base1: AsyncSequence & Sendable, Base2: AsyncSequence & Sendable, Base3: AsyncSequence & Sendable
>: AsyncSequence, Sendable
where
  Base1.Element: Sendable, Base2.Element: Sendable, Base3.Element: Sendable,
  Base2.Failure == Base1.Failure, Base3.Failure == Base1.Failure
{
  /// A triple of the latest elements of the three bases.
  public typealias Element = (Base1.Element, Base2.Element, Base3.Element)
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

  /// The iterator of an ``AsyncCombineLatest3Sequence``; one task iterates it.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline typealias Value = _CombineLatestValue<Base1.Element, Base2.Element, Base3.Element>

    @usableFromInline let iteration: _CombineLatestIteration<Value, Element, Failure>

    @inlinable init(_ base1: Base1, _ base2: Base2, _ base3: Base3) {
      iteration = _CombineLatestIteration(count: 3) { _, latest, _ in
        guard case .first(let first)? = latest[0], case .second(let second)? = latest[1],
          case .third(let third)? = latest[2]
        else {
          preconditionFailure("combineLatest: an element of the wrong base (state: running)")
        }
        return (first, second, third)
      } run: { storage in
        await withDiscardingTaskGroup { group in
          group.addTask { await storage.consume(base1, at: 0, as: Value.first) }
          group.addTask { await storage.consume(base2, at: 1, as: Value.second) }
          group.addTask { await storage.consume(base3, at: 2, as: Value.third) }
        }
      }
    }

    /// Returns the next triple; `nil` once the sequence has finished.
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
extension AsyncCombineLatest3Sequence.Iterator: Sendable {}
