// The signal forms for a base and a signal of different error types. Each is `@_disfavoredOverload`, so that it is
// chosen only when the forms that keep the base's type do not apply; a signal that never fails keeps the base's type,
// a base that never fails takes the signal's, and otherwise the sequence throws `any Error`. The base is widened with
// `mapError`, which costs nothing on the element path (see `Docs/Decisions/combine-latest-and-merge.md`).

extension AsyncSequence where Self: Sendable, Element: Sendable {
  /// Returns ``_Concurrency/AsyncSequence/chunks(ofCount:or:into:)-(_,Signal,_)`` over a signal that never fails.
  @_documentation(visibility: internal)
  @_disfavoredOverload
  @inlinable
  public func chunks<Signal: AsyncSequence & Sendable, Collected: RangeReplaceableCollection>(
    ofCount count: Int, or signal: Signal, into: Collected.Type
  ) -> AsyncChunksOfCountOrSignalSequence<Self, Collected, Signal>
  where Collected.Element == Element, Signal.Failure == Never {
    AsyncChunksOfCountOrSignalSequence(self, count: count, signal: signal, failure: _neverFails)
  }

  /// Returns ``_Concurrency/AsyncSequence/chunks(ofCount:or:into:)-(_,Signal,_)`` of a base that never fails: the
  /// sequence throws the signal's errors.
  @_documentation(visibility: internal)
  @_disfavoredOverload
  @inlinable
  public func chunks<Signal: AsyncSequence & Sendable, Collected: RangeReplaceableCollection>(
    ofCount count: Int, or signal: Signal, into: Collected.Type
  ) -> AsyncChunksOfCountOrSignalSequence<AsyncMapErrorSequence<Self, Signal.Failure>, Collected, Signal>
  where Collected.Element == Element, Failure == Never {
    AsyncChunksOfCountOrSignalSequence(_failing(as: Signal.Failure.self), count: count, signal: signal, failure: { $0 })
  }

  /// Returns ``_Concurrency/AsyncSequence/chunks(ofCount:or:into:)-(_,Signal,_)`` of a base and a signal whose error
  /// types differ: the sequence throws `any Error`.
  @_documentation(visibility: internal)
  @_disfavoredOverload
  @inlinable
  public func chunks<Signal: AsyncSequence & Sendable, Collected: RangeReplaceableCollection>(
    ofCount count: Int, or signal: Signal, into: Collected.Type
  ) -> AsyncChunksOfCountOrSignalSequence<AsyncMapErrorSequence<Self, any Error>, Collected, Signal>
  where Collected.Element == Element {
    AsyncChunksOfCountOrSignalSequence(_failingWithAnyError, count: count, signal: signal, failure: { $0 })
  }

  /// Returns ``_Concurrency/AsyncSequence/chunks(ofCount:or:)-(_,Signal)`` over a signal that never fails.
  @_documentation(visibility: internal)
  @_disfavoredOverload
  @inlinable
  public func chunks<Signal: AsyncSequence & Sendable>(
    ofCount count: Int, or signal: Signal
  ) -> AsyncChunksOfCountOrSignalSequence<Self, [Element], Signal> where Signal.Failure == Never {
    AsyncChunksOfCountOrSignalSequence(self, count: count, signal: signal, failure: _neverFails)
  }

  /// Returns ``_Concurrency/AsyncSequence/chunks(ofCount:or:)-(_,Signal)`` of a base that never fails: the sequence
  /// throws the signal's errors.
  @_documentation(visibility: internal)
  @_disfavoredOverload
  @inlinable
  public func chunks<Signal: AsyncSequence & Sendable>(
    ofCount count: Int, or signal: Signal
  ) -> AsyncChunksOfCountOrSignalSequence<AsyncMapErrorSequence<Self, Signal.Failure>, [Element], Signal>
  where Failure == Never {
    AsyncChunksOfCountOrSignalSequence(_failing(as: Signal.Failure.self), count: count, signal: signal, failure: { $0 })
  }

  /// Returns ``_Concurrency/AsyncSequence/chunks(ofCount:or:)-(_,Signal)`` of a base and a signal whose error types
  /// differ: the sequence throws `any Error`.
  @_documentation(visibility: internal)
  @_disfavoredOverload
  @inlinable
  public func chunks<Signal: AsyncSequence & Sendable>(
    ofCount count: Int, or signal: Signal
  ) -> AsyncChunksOfCountOrSignalSequence<AsyncMapErrorSequence<Self, any Error>, [Element], Signal> {
    AsyncChunksOfCountOrSignalSequence(_failingWithAnyError, count: count, signal: signal, failure: { $0 })
  }

  /// Returns ``_Concurrency/AsyncSequence/chunked(by:into:)-(Signal,_)`` over a signal that never fails.
  @_documentation(visibility: internal)
  @_disfavoredOverload
  @inlinable
  public func chunked<Signal: AsyncSequence & Sendable, Collected: RangeReplaceableCollection>(
    by signal: Signal, into: Collected.Type
  ) -> AsyncChunksOfCountOrSignalSequence<Self, Collected, Signal>
  where Collected.Element == Element, Signal.Failure == Never {
    AsyncChunksOfCountOrSignalSequence(self, count: nil, signal: signal, failure: _neverFails)
  }

  /// Returns ``_Concurrency/AsyncSequence/chunked(by:into:)-(Signal,_)`` of a base that never fails: the sequence
  /// throws the signal's errors.
  @_documentation(visibility: internal)
  @_disfavoredOverload
  @inlinable
  public func chunked<Signal: AsyncSequence & Sendable, Collected: RangeReplaceableCollection>(
    by signal: Signal, into: Collected.Type
  ) -> AsyncChunksOfCountOrSignalSequence<AsyncMapErrorSequence<Self, Signal.Failure>, Collected, Signal>
  where Collected.Element == Element, Failure == Never {
    AsyncChunksOfCountOrSignalSequence(_failing(as: Signal.Failure.self), count: nil, signal: signal, failure: { $0 })
  }

  /// Returns ``_Concurrency/AsyncSequence/chunked(by:into:)-(Signal,_)`` of a base and a signal whose error types
  /// differ: the sequence throws `any Error`.
  @_documentation(visibility: internal)
  @_disfavoredOverload
  @inlinable
  public func chunked<Signal: AsyncSequence & Sendable, Collected: RangeReplaceableCollection>(
    by signal: Signal, into: Collected.Type
  ) -> AsyncChunksOfCountOrSignalSequence<AsyncMapErrorSequence<Self, any Error>, Collected, Signal>
  where Collected.Element == Element {
    AsyncChunksOfCountOrSignalSequence(_failingWithAnyError, count: nil, signal: signal, failure: { $0 })
  }

  /// Returns ``_Concurrency/AsyncSequence/chunked(by:)-(Signal)`` over a signal that never fails.
  @_documentation(visibility: internal)
  @_disfavoredOverload
  @inlinable
  public func chunked<Signal: AsyncSequence & Sendable>(
    by signal: Signal
  ) -> AsyncChunksOfCountOrSignalSequence<Self, [Element], Signal> where Signal.Failure == Never {
    AsyncChunksOfCountOrSignalSequence(self, count: nil, signal: signal, failure: _neverFails)
  }

  /// Returns ``_Concurrency/AsyncSequence/chunked(by:)-(Signal)`` of a base that never fails: the sequence throws the
  /// signal's errors.
  @_documentation(visibility: internal)
  @_disfavoredOverload
  @inlinable
  public func chunked<Signal: AsyncSequence & Sendable>(
    by signal: Signal
  ) -> AsyncChunksOfCountOrSignalSequence<AsyncMapErrorSequence<Self, Signal.Failure>, [Element], Signal>
  where Failure == Never {
    AsyncChunksOfCountOrSignalSequence(_failing(as: Signal.Failure.self), count: nil, signal: signal, failure: { $0 })
  }

  /// Returns ``_Concurrency/AsyncSequence/chunked(by:)-(Signal)`` of a base and a signal whose error types differ:
  /// the sequence throws `any Error`.
  @_documentation(visibility: internal)
  @_disfavoredOverload
  @inlinable
  public func chunked<Signal: AsyncSequence & Sendable>(
    by signal: Signal
  ) -> AsyncChunksOfCountOrSignalSequence<AsyncMapErrorSequence<Self, any Error>, [Element], Signal> {
    AsyncChunksOfCountOrSignalSequence(_failingWithAnyError, count: nil, signal: signal, failure: { $0 })
  }
}
