extension AsyncSequence {
  /// Returns a sequence of the base's elements gathered into collections of `count` elements, the last one
  /// holding what is left.
  ///
  /// Use it to handle elements in batches — write 1,024 bytes at a time, insert rows 100 at a time:
  ///
  /// ```swift
  /// for await chunk in [1, 2, 3, 4, 5].async.chunks(ofCount: 2, into: ContiguousArray.self) {
  ///   print(Array(chunk))
  /// }
  /// // Prints [1, 2], [3, 4], [5].
  /// ```
  ///
  /// A chunk is delivered as soon as it holds `count` elements; when the base finishes, the elements gathered
  /// since the last chunk, if any, make one more. Each chunk reserves room for `count` elements (up to 4,096) when
  /// it gets its first, and the operator allocates nothing else. It starts no task: elements are gathered on the
  /// consuming task, and cancellation is the base's — a base that ends on cancellation ends the sequence after
  /// that last, partial chunk. The base's error is thrown as it is, the partial chunk dropped; after it `next()`
  /// returns `nil`. The sequence's `Failure` is the base's, so a non-throwing base gives a non-throwing sequence.
  ///
  /// `count` must be greater than zero: anything else stops the program with a message naming it (as in
  /// swift-async-algorithms). See <doc:Chunked> for the other ways to cut chunks.
  ///
  /// - Parameters:
  ///   - count: The number of elements in each chunk but the last; greater than zero.
  ///   - into: The type of collection to gather into.
  @inlinable
  public func chunks<Collected: RangeReplaceableCollection>(
    ofCount count: Int, into: Collected.Type
  ) -> AsyncChunksOfCountSequence<Self, Collected> where Collected.Element == Element {
    AsyncChunksOfCountSequence(self, count: count)
  }

  /// Returns a sequence of the base's elements gathered into arrays of `count` elements, the last one holding what
  /// is left.
  ///
  /// ```swift
  /// for await rows in [1, 2, 3, 4, 5].async.chunks(ofCount: 2) {
  ///   print(rows)
  /// }
  /// // Prints [1, 2], [3, 4], [5].
  /// ```
  ///
  /// See ``_Concurrency/AsyncSequence/chunks(ofCount:into:)`` for how it finishes, throws and cancels.
  @inlinable
  public func chunks(ofCount count: Int) -> AsyncChunksOfCountSequence<Self, [Element]> {
    AsyncChunksOfCountSequence(self, count: count)
  }
}

/// An asynchronous sequence of a base's elements gathered into collections of a given count.
///
/// Create it with ``_Concurrency/AsyncSequence/chunks(ofCount:into:)`` or
/// ``_Concurrency/AsyncSequence/chunks(ofCount:)``; see <doc:Chunked>. It is `Sendable` when its base is.
public struct AsyncChunksOfCountSequence<Base: AsyncSequence, Collected: RangeReplaceableCollection>: AsyncSequence
where Collected.Element == Base.Element {
  /// A chunk of the base's elements.
  public typealias Element = Collected
  /// The base's error type.
  public typealias Failure = Base.Failure

  @usableFromInline let base: Base
  @usableFromInline let count: Int

  @inlinable init(_ base: Base, count: Int) {
    precondition(count > 0, "chunks(ofCount: \(count)): the count must be greater than 0")
    self.base = base
    self.count = count
  }

  /// Creates an iterator over the chunks.
  @inlinable
  public func makeAsyncIterator() -> Iterator {
    Iterator(base.makeAsyncIterator(), count: count)
  }

  /// The iterator of an ``AsyncChunksOfCountSequence``; one task iterates it.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline var base: Base.AsyncIterator
    @usableFromInline let count: Int
    /// Set once the base ended or threw: the base is not asked again.
    @usableFromInline var finished = false

    @inlinable init(_ base: Base.AsyncIterator, count: Int) {
      self.base = base
      self.count = count
    }

    /// Returns the next `count` elements of the base, or fewer when the base ends first; `nil` once the base has
    /// ended with no element left over, and after an error.
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws(Failure) -> Collected? {
      guard !finished else { return nil }
      do throws(Failure) {
        guard let first = try await base.next(isolation: actor) else {
          finished = true
          return nil
        }
        var chunk = Collected()
        chunk.reserveCapacity(_chunkCapacity(count))
        chunk.append(first)
        // Counted here: `chunk.count` is O(n) for a collection that is not random-access.
        var gathered = 1
        while gathered < count {
          guard let element = try await base.next(isolation: actor) else {
            finished = true
            break
          }
          chunk.append(element)
          gathered += 1
        }
        return chunk
      } catch {
        finished = true
        throw error
      }
    }
  }
}

extension AsyncChunksOfCountSequence: Sendable where Base: Sendable {}

@available(*, unavailable)
extension AsyncChunksOfCountSequence.Iterator: Sendable {}

/// The room a chunk of at most `count` elements reserves: all of it up to 4,096 elements, so that a count meant as
/// "everything" (`Int.max`) does not reserve memory the base never fills.
@inlinable
func _chunkCapacity(_ count: Int) -> Int {
  Swift.min(count, 4096)
}
