/// Returns a sequence of arrays of the latest elements of any number of sequences, one array each time any
/// of them produces.
///
/// Use it when the number of inputs is known only at run time, such as one field per row of a form:
///
/// ```swift
/// for await values in combineLatest(fields.map(\.values)) {
///   print(values.reduce(0, +))
/// }
/// // field 0: 1 ------ 3 ---
/// // field 1: --- 10 -------
/// // Prints 11, 13.
/// ```
///
/// Each array holds one element per base, in the collection's order. The first array comes once every
/// base has produced an element; after that, every element of any base produces an array with the latest
/// elements of the others. With one base, every element becomes a one-element array; with none, the
/// sequence finishes at once. The bases are iterated in a task of the operator's own (one child task per
/// base), started on the first `next()`; each base is asked for its next element only once its previous
/// one has been combined into an array the consumer took. While the consumer does not keep the previous
/// array, the next one reuses its storage.
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
public func combineLatest<Base: AsyncSequence & Sendable>(
  _ bases: some Collection<Base>
) -> AsyncCombineLatestSequence<Base> where Base.Element: Sendable {
  AsyncCombineLatestSequence(Array(bases))
}

/// An asynchronous sequence of arrays of the latest elements of any number of sequences.
///
/// Create it with ``combineLatest(_:)``; see <doc:CombineLatest> for its timing and edge cases. It is `Sendable`,
/// and each iterator iterates the bases anew.
public struct AsyncCombineLatestSequence<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable
where Base.Element: Sendable {
  /// The latest element of every base, in the order of the bases.
  public typealias Element = [Base.Element]
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

  /// The iterator of an ``AsyncCombineLatestSequence``; one task iterates it.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline let iteration: _CombineLatestIteration<Base.Element, Element, Failure>

    @inlinable init(_ bases: [Base]) {
      iteration = _CombineLatestIteration(count: bases.count) { previous, latest, changed in
        // Updating the previous array in place allocates nothing while the consumer does not keep it.
        if let changed, previous != nil {
          previous![changed] = latest[changed]!
          return previous!
        }
        let output = latest.map { value in
          guard let value else { preconditionFailure("combineLatest: a base without a value (state: running)") }
          return value
        }
        previous = output
        return output
      } run: { storage in
        await withDiscardingTaskGroup { group in
          for (index, base) in bases.enumerated() {
            group.addTask { await storage.consume(base, at: index, as: { $0 }) }
          }
        }
      }
    }

    /// Returns the next array of latest elements; `nil` once the sequence has finished.
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
extension AsyncCombineLatestSequence.Iterator: Sendable {}
