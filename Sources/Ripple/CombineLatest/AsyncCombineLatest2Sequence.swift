/// Returns a sequence of pairs of the latest elements of two sequences, one pair each time either produces.
///
/// Use it to derive a value from several changing inputs, such as the sum of two fields:
///
/// ```swift
/// Task { @MainActor in
///   let a = Observed { form.a }
///   let b = Observed { form.b }
///   for await sum in combineLatest(a, b).map(+) {
///     print(sum)
///   }
/// }
/// // a: 1 ----- 2 --------
/// // b: ---- 10 ---- 20 --
/// // Prints 11, 12, 22.
/// ```
///
/// The first pair comes once both bases have produced an element; after that, every element of either
/// base produces a pair with the latest element of the other. The bases are iterated in a task of the
/// operator's own, started on the first `next()`; each base is asked for its next element only once its
/// previous one has been combined into a pair the consumer took, so a slow consumer slows the bases down
/// instead of collecting a backlog.
///
/// See <doc:CombineLatest> for the timing diagrams, the design and a comparison with Combine and
/// swift-async-algorithms.
///
/// ## Finishing, throwing, cancellation
/// The sequence finishes when both bases have finished, or as soon as one finishes without ever producing
/// an element. Both bases share one `Failure` type, which is the sequence's: non-throwing bases give a
/// non-throwing sequence. An error from either base cancels the other and is thrown once, by the next
/// `next()`; then the sequence finishes. Cancelling the consuming task, or dropping the iterator, cancels
/// both bases and `next()` returns `nil`.
@inlinable
public func combineLatest<Base1: AsyncSequence & Sendable, Base2: AsyncSequence & Sendable>(
  _ base1: Base1, _ base2: Base2
) -> AsyncCombineLatest2Sequence<Base1, Base2>
where Base1.Element: Sendable, Base2.Element: Sendable, Base2.Failure == Base1.Failure {
  AsyncCombineLatest2Sequence(base1, base2)
}

/// An asynchronous sequence of pairs of the latest elements of two sequences.
///
/// Create it with ``combineLatest(_:_:)``; see <doc:CombineLatest> for its timing and edge cases. It is `Sendable`,
/// and each iterator iterates the bases anew.
public struct AsyncCombineLatest2Sequence<Base1: AsyncSequence & Sendable, Base2: AsyncSequence & Sendable>:
  AsyncSequence, Sendable
where Base1.Element: Sendable, Base2.Element: Sendable, Base2.Failure == Base1.Failure {
  /// A pair of the latest elements of the two bases.
  public typealias Element = (Base1.Element, Base2.Element)
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

  /// The iterator of an ``AsyncCombineLatest2Sequence``; one task iterates it.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline typealias Value = _CombineLatestValue<Base1.Element, Base2.Element, Never>

    @usableFromInline let iteration: _CombineLatestIteration<Value, Element, Failure>

    @inlinable init(_ base1: Base1, _ base2: Base2) {
      iteration = _CombineLatestIteration(count: 2) { _, latest, _ in
        guard case .first(let first)? = latest[0], case .second(let second)? = latest[1] else {
          preconditionFailure("combineLatest: an element of the wrong base (state: running)")
        }
        return (first, second)
      } run: { storage in
        await withDiscardingTaskGroup { group in
          group.addTask { await storage.consume(base1, at: 0, as: Value.first) }
          group.addTask { await storage.consume(base2, at: 1, as: Value.second) }
        }
      }
    }

    /// Returns the next pair; `nil` once the sequence has finished.
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
extension AsyncCombineLatest2Sequence.Iterator: Sendable {}
