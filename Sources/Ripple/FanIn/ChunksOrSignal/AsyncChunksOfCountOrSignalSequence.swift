extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// Returns a sequence of the base's elements gathered into collections of `count` elements, or fewer where a
  /// signal sequence produces an element first.
  ///
  /// See ``AsyncChunksOfCountOrSignalSequence`` for an example, and how it finishes, throws and cancels.
  ///
  /// - Parameters:
  ///   - count: The most elements a chunk holds; greater than zero.
  ///   - signal: A sequence whose every element ends the chunk being gathered, when it holds an element.
  ///   - into: The type of collection to gather into.
  @inlinable
  public func chunks<Signal: AsyncSequence & Sendable, Collected: RangeReplaceableCollection>(
    ofCount count: Int, or signal: Signal, into: Collected.Type
  ) -> AsyncChunksOfCountOrSignalSequence<Self, Collected, Signal>
  where Collected.Element == Element, Signal.Failure == Failure {
    AsyncChunksOfCountOrSignalSequence(self, count: count, signal: signal, failure: { $0 })
  }

  /// Returns ``_Concurrency/AsyncSequence/chunks(ofCount:or:into:)-(_,Signal,_)`` gathering into arrays.
  ///
  /// It behaves as ``AsyncChunksOfCountOrSignalSequence``, which shows an example.
  @inlinable
  public func chunks<Signal: AsyncSequence & Sendable>(
    ofCount count: Int, or signal: Signal
  ) -> AsyncChunksOfCountOrSignalSequence<Self, [Element], Signal> where Signal.Failure == Failure {
    AsyncChunksOfCountOrSignalSequence(self, count: count, signal: signal, failure: { $0 })
  }

  /// Returns a sequence of the base's elements gathered into collections, each ended where a signal sequence
  /// produces an element.
  ///
  /// See ``AsyncChunksOfCountOrSignalSequence`` for an example, and how it finishes, throws and cancels.
  ///
  /// - Parameters:
  ///   - signal: A sequence whose every element ends the chunk being gathered, when it holds an element.
  ///   - into: The type of collection to gather into.
  @inlinable
  public func chunked<Signal: AsyncSequence & Sendable, Collected: RangeReplaceableCollection>(
    by signal: Signal, into: Collected.Type
  ) -> AsyncChunksOfCountOrSignalSequence<Self, Collected, Signal>
  where Collected.Element == Element, Signal.Failure == Failure {
    AsyncChunksOfCountOrSignalSequence(self, count: nil, signal: signal, failure: { $0 })
  }

  /// Returns ``_Concurrency/AsyncSequence/chunked(by:into:)-(Signal,_)`` gathering into arrays.
  ///
  /// It behaves as ``AsyncChunksOfCountOrSignalSequence``, which shows an example.
  @inlinable
  public func chunked<Signal: AsyncSequence & Sendable>(
    by signal: Signal
  ) -> AsyncChunksOfCountOrSignalSequence<Self, [Element], Signal> where Signal.Failure == Failure {
    AsyncChunksOfCountOrSignalSequence(self, count: nil, signal: signal, failure: { $0 })
  }

  /// Returns a sequence of the base's elements gathered into collections of `count` elements, or fewer where a
  /// timer ticks first.
  ///
  /// ```swift
  /// let packets = bytes.chunks(ofCount: 1024, or: .repeating(every: .seconds(1), clock: clock), into: [UInt8].self)
  /// ```
  ///
  /// The timer starts on the first `next()` and keeps its cadence whatever the count cuts. The base's error type is
  /// kept, as a timer never fails. Otherwise it behaves as ``AsyncChunksOfCountOrSignalSequence``.
  @inlinable
  public func chunks<C: Clock, Collected: RangeReplaceableCollection>(
    ofCount count: Int, or timer: AsyncTimerSequence<C>, into: Collected.Type
  ) -> AsyncChunksOfCountOrSignalSequence<Self, Collected, AsyncTimerSequence<C>> where Collected.Element == Element {
    AsyncChunksOfCountOrSignalSequence(self, count: count, signal: timer, failure: _neverFails)
  }

  /// Returns ``_Concurrency/AsyncSequence/chunks(ofCount:or:into:)-(_,AsyncTimerSequence<C>,_)`` gathering into
  /// arrays.
  ///
  /// It behaves as ``AsyncChunksOfCountOrSignalSequence``, which shows an example.
  @inlinable
  public func chunks<C: Clock>(
    ofCount count: Int, or timer: AsyncTimerSequence<C>
  ) -> AsyncChunksOfCountOrSignalSequence<Self, [Element], AsyncTimerSequence<C>> {
    AsyncChunksOfCountOrSignalSequence(self, count: count, signal: timer, failure: _neverFails)
  }

  /// Returns a sequence of the base's elements gathered into collections, each ended where a timer ticks.
  ///
  /// ```swift
  /// for await batch in logs.chunked(by: .repeating(every: .seconds(4), clock: clock), into: [Line].self) {
  ///   send(batch)  // every 4 seconds, the lines logged since the last batch; none when there were none
  /// }
  /// ```
  ///
  /// The base's error type is kept, as a timer never fails. Otherwise it behaves as
  /// ``AsyncChunksOfCountOrSignalSequence``.
  @inlinable
  public func chunked<C: Clock, Collected: RangeReplaceableCollection>(
    by timer: AsyncTimerSequence<C>, into: Collected.Type
  ) -> AsyncChunksOfCountOrSignalSequence<Self, Collected, AsyncTimerSequence<C>> where Collected.Element == Element {
    AsyncChunksOfCountOrSignalSequence(self, count: nil, signal: timer, failure: _neverFails)
  }

  /// Returns ``_Concurrency/AsyncSequence/chunked(by:into:)-(AsyncTimerSequence<C>,_)`` gathering into arrays.
  ///
  /// It behaves as ``AsyncChunksOfCountOrSignalSequence``, which shows an example.
  @inlinable
  public func chunked<C: Clock>(
    by timer: AsyncTimerSequence<C>
  ) -> AsyncChunksOfCountOrSignalSequence<Self, [Element], AsyncTimerSequence<C>> {
    AsyncChunksOfCountOrSignalSequence(self, count: nil, signal: timer, failure: _neverFails)
  }
}

/// An asynchronous sequence of a base's elements gathered into collections, each ended where it reaches a count or
/// where a signal sequence produces an element.
///
/// Use it to batch work by size and by time: write at most 1,024 bytes at once, but at least once a second; send the
/// log lines of each 4-second window.
///
/// ```swift
/// for await batch in events.chunks(ofCount: 3, or: .repeating(every: .seconds(4), clock: clock)) {
///   upload(batch)
/// }
/// // events: abc--d-e-|    (one element a second; the timer ticks at 4 s and 8 s)
/// // Uploads [a, b, c] at 2 s (the count), [d, e] at 8 s (the timer; the tick at 4 s found nothing), then
/// // finishes at 9 s.
/// ```
///
/// A signal's element ends the chunk being gathered, if it holds an element: a signal after an empty chunk makes
/// none. The signal's elements are otherwise ignored, and it keeps its own cadence whatever the count cuts. The base
/// and the signal are iterated in a task of the operator's own, started on the first `next()`, as ``merge(_:_:)``
/// iterates its bases: each is asked for its next element only once the previous one was taken (a base that is a
/// ``MultiProducerSingleConsumerAsyncChannel``'s `elements()` hands over what the channel's consumer side already
/// holds with each element, as merge's bases do). The chunks are
/// gathered on the consuming task, so `Collected` need not be `Sendable`; each reserves room for `count` elements
/// (up to 4,096).
///
/// - When the base finishes, the elements gathered since the last chunk make one more, and the sequence finishes;
///   the signal is cancelled. When the signal finishes first, the base goes on alone: chunks are then cut by count
///   only — without a count, the rest of the base is one chunk.
/// - Base and signal of one `Failure` type give the sequence that type, and so does either with a signal or base
///   that never fails (a timer); non-throwing ones give a non-throwing sequence; different types give `any Error`.
///   An error of either is thrown as it is, by the next `next()`, and cancels the other; the chunk being gathered is
///   dropped, and `next()` returns `nil` after it.
/// - Cancelling the consuming task, or dropping the iterator, cancels the base and the signal; the elements gathered
///   so far make a last chunk, then `next()` returns `nil`.
///
/// `count` must be greater than zero: anything else stops the program with a message naming it (as in
/// swift-async-algorithms). See <doc:Chunked> for the timing diagrams and a comparison with Combine and
/// swift-async-algorithms.
public struct AsyncChunksOfCountOrSignalSequence<
  Base: AsyncSequence & Sendable, Collected: RangeReplaceableCollection, Signal: AsyncSequence & Sendable
>: AsyncSequence, Sendable where Collected.Element == Base.Element, Base.Element: Sendable {
  /// A chunk of the base's elements.
  public typealias Element = Collected
  /// The base's error type; the signal's errors are thrown as this type (see the entry points).
  public typealias Failure = Base.Failure
  @usableFromInline typealias Storage = _FanInStorage<_ChunkSignalPolicy<Base.Element>, Failure>

  @usableFromInline let base: Base
  /// The signal, throwing its errors as the base's type.
  @usableFromInline let signal: AsyncMapErrorSequence<Signal, Failure>
  /// The most elements a chunk holds; `nil` when only the signal ends chunks.
  @usableFromInline let count: Int?

  @inlinable
  init(_ base: Base, count: Int?, signal: Signal, failure: @escaping @Sendable (Signal.Failure) -> Failure) {
    if let count {
      precondition(count > 0, "chunks(ofCount: \(count), or:): the count must be greater than 0")
    }
    self.base = base
    self.signal = AsyncMapErrorSequence(signal, transform: failure)
    self.count = count
  }

  /// Creates an iterator; each iterator iterates the base and the signal anew.
  @inlinable
  public func makeAsyncIterator() -> Iterator {
    let iteration = _FanInBases2(base, signal).iteration(
      policy: _ChunkSignalPolicy(), name: "chunks(ofCount:or:)", { .some($0) }, { _ in nil })
    return Iterator(iteration, count: count)
  }

  /// The iterator of an ``AsyncChunksOfCountOrSignalSequence``; one task iterates it.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline let iteration: _IterationHandle<Storage>
    /// The most elements a chunk holds: `Int.max` without a count.
    @usableFromInline let count: Int
    /// The room a chunk reserves: none without a count.
    @usableFromInline let capacity: Int

    @inlinable init(_ iteration: _IterationHandle<Storage>, count: Int?) {
      self.iteration = iteration
      self.count = count ?? .max
      capacity = count.map(_chunkCapacity) ?? 0
    }

    /// Returns the next chunk: once it holds `count` elements, or when the signal produces an element after at least
    /// one base element; `nil` once the iteration is over with no element left over.
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws(Failure) -> Collected? {
      var chunk = Collected()
      var gathered = 0
      // `nil` from the iteration: the base finished, or the consuming task was cancelled; an error skips the chunk.
      while let value = try await iteration.next(isolation: actor) {
        guard let element = value else {
          // The signal: it ends a chunk that holds an element, and is otherwise ignored.
          if gathered > 0 { return chunk }
          continue
        }
        if gathered == 0 { chunk.reserveCapacity(capacity) }
        chunk.append(element)
        gathered += 1
        if gathered == count { return chunk }
      }
      return gathered > 0 ? chunk : nil
    }
  }
}

@available(*, unavailable)
extension AsyncChunksOfCountOrSignalSequence.Iterator: Sendable {}
