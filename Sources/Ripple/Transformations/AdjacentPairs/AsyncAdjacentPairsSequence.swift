extension AsyncSequence {
  /// Returns a sequence of each element of this sequence paired with the element before it.
  ///
  /// See ``AsyncAdjacentPairsSequence`` for an example and how it finishes, throws and cancels.
  @inlinable
  public func adjacentPairs() -> AsyncAdjacentPairsSequence<Self> {
    AsyncAdjacentPairsSequence(self)
  }
}

/// An asynchronous sequence of the overlapping pairs of consecutive elements of a base sequence.
///
/// Use it where each element means something only next to the one before it: the change between two readings,
/// the move from one state to the next, the gap between two timestamps:
///
/// ```swift
/// for await (before, after) in [3, 5, 4, 8].async.adjacentPairs() {
///   print(after - before)
/// }
/// // Prints 2, -1, 4.
/// ```
///
/// The first pair comes with the base's second element; every later element of the base gives one pair, with the
/// element before it. The operator holds that one element and nothing else: no task, no lock, no allocation.
///
/// - The sequence finishes when the base finishes; a base of fewer than two elements gives no pair.
/// - It throws what the base throws (its `Failure` is the base's, so a non-throwing base gives a non-throwing
///   sequence), after the pairs before the error; then `next()` returns `nil`.
/// - Cancellation is the base's: the operator neither checks for it nor has anything to cancel.
///
/// Create it with ``_Concurrency/AsyncSequence/adjacentPairs()``; see <doc:AdjacentPairs>. It is `Sendable` when
/// its base is.
public struct AsyncAdjacentPairsSequence<Base: AsyncSequence>: AsyncSequence {
  /// An element of the base and the element that came after it, in that order.
  public typealias Element = (Base.Element, Base.Element)
  /// The base's error type: the sequence throws only what the base throws.
  public typealias Failure = Base.Failure

  @usableFromInline let base: Base

  @inlinable init(_ base: Base) {
    self.base = base
  }

  /// Creates an iterator over the base's adjacent pairs.
  @inlinable
  public func makeAsyncIterator() -> Iterator {
    Iterator(base.makeAsyncIterator())
  }

  /// The iterator of an ``AsyncAdjacentPairsSequence``; one task iterates it.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline var base: Base.AsyncIterator
    /// The base's last element, the first half of the next pair; `nil` before the first element and at the end.
    @usableFromInline var previous: Base.Element?
    @usableFromInline var finished = false

    @inlinable init(_ base: Base.AsyncIterator) {
      self.base = base
    }

    /// Returns the base's next element with the one before it; `nil` when the base ends, and after an error.
    @inlinable
    public mutating func next(
      isolation actor: isolated (any Actor)? = #isolation
    ) async throws(Failure) -> Element? {
      guard !finished else { return nil }
      do throws(Failure) {
        if previous == nil {
          previous = try await base.next(isolation: actor)
        }
        if let first = previous, let second = try await base.next(isolation: actor) {
          previous = second
          return (first, second)
        }
      } catch {
        finish()
        throw error
      }
      finish()
      return nil
    }

    /// Lets go of the held element, and makes every later `next()` return `nil` without asking the base.
    @inlinable mutating func finish() {
      finished = true
      previous = nil
    }
  }
}

extension AsyncAdjacentPairsSequence: Sendable where Base: Sendable {}

@available(*, unavailable)
extension AsyncAdjacentPairsSequence.Iterator: Sendable {}
