extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// Shares one iteration of this sequence among every iterator of the result: each element the base produces is
  /// delivered to every iterator that exists at that moment.
  ///
  /// Use it when several consumers with lifetimes of their own — two screens, a view and a logger — need the
  /// elements of one source that must not run once per consumer: one calculation, one socket, one observation.
  /// It is Combine's `share()`, and swift-async-algorithms' `share(bufferingPolicy:)` under the same name, label
  /// and default.
  ///
  /// ```swift
  /// let sums = inputs.mapLatest { input in await calculator.result(for: input) }.share()
  /// Task { for await sum in sums { print("form", sum) } }
  /// Task { for await sum in sums { print("summary", sum) } }
  /// // One calculation per input; both print each sum: form 42, summary 42, …
  /// ```
  ///
  /// The first `next()` of any iterator starts one task that iterates the base. Each iterator keeps the elements
  /// it has not taken yet in a buffer of its own, handled by `bufferingPolicy`. An iterator gets the elements the
  /// base produces after the iterator was made (`makeAsyncIterator()`, which `for await` calls as the loop
  /// starts), never earlier ones: there is no replay.
  ///
  /// See <doc:Share> for the design and a comparison with Combine and swift-async-algorithms.
  ///
  /// ## Finishing, throwing, cancellation
  /// When the base finishes or throws, every iterator gets the elements it had buffered, then `nil` or the error
  /// (once; `nil` follows). Cancelling one consuming task, or dropping its iterator, ends that iterator only (its
  /// `next()` returns `nil`; a task cancelled while busy outside `next()` leaves at its next call); when the last
  /// iterator of a running iteration ends, the base is cancelled. The shared
  /// iteration happens once: an iterator made after it ended gets `nil`, or the base's error. It runs from the first
  /// `next()` that waits: iterators that go before any did — dropped unused, or cancelled before their first
  /// `next()` — neither start nor end it.
  ///
  /// - Parameter bufferingPolicy: What each iterator's buffer does while its consumer is busy. With the default,
  ///   `.bounded(1)`, and any `.bounded(n)`, the base is not asked for an element while some iterator already holds
  ///   `n`: the slowest consumer paces all, and nothing is dropped (`.bounded(0)`: only when every iterator waits in
  ///   `next()`). `.unbounded`, `.bufferingLatest(n)` and `.bufferingOldest(n)` never hold the base back; a slow
  ///   consumer's buffer grows, or drops its oldest or its newest elements. A limit of 0 means no buffer under every
  ///   policy, as `.bounded(0)`.
  @inlinable
  public func share(bufferingPolicy: AsyncBufferSequencePolicy = .bounded(1)) -> AsyncShareSequence<Self> {
    AsyncShareSequence(self, bufferingPolicy: bufferingPolicy)
  }
}

/// An asynchronous sequence that shares one iteration of its base among all of its iterators.
///
/// Created by ``_Concurrency/AsyncSequence/share(bufferingPolicy:)``; see there for its semantics, and <doc:Share>
/// for its design. Every copy of the sequence refers to the same shared iteration.
public struct AsyncShareSequence<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable where Base.Element: Sendable {
  /// The base's elements.
  public typealias Element = Base.Element
  /// The base's failure.
  public typealias Failure = Base.Failure

  @usableFromInline let storage: _ShareStorage<Base>

  @inlinable
  init(_ base: Base, bufferingPolicy: AsyncBufferSequencePolicy) {
    storage = _ShareStorage(base: base, policy: bufferingPolicy)
  }

  /// Creates an iterator that gets every element the base produces from now on.
  @inlinable
  public func makeAsyncIterator() -> Iterator {
    Iterator(storage)
  }

  /// The iterator of ``AsyncShareSequence``. Dropping it ends its part of the shared iteration; dropping the last
  /// one of a running iteration cancels the base.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline let iteration: _IterationHandle<_ShareSide<Base>>

    @inlinable
    init(_ storage: _ShareStorage<Base>) {
      iteration = _IterationHandle(_ShareSide(storage))
    }

    /// The next element, `nil` when iteration ended, or the base's error.
    ///
    /// After the base finishes or throws, it returns the elements this iterator had buffered, then `nil` or the
    /// error, then `nil`. When the consuming task is cancelled it returns `nil`, and this iterator gets no more
    /// elements; the others go on.
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws(Failure) -> Element? {
      try await iteration.next(isolation: actor)
    }
  }
}

@available(*, unavailable)
extension AsyncShareSequence.Iterator: Sendable {}
