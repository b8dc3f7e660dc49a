extension AsyncSequence where Self: Sendable, Element: AsyncSequence & Sendable, Element.Element: Sendable {
  /// Delivers the elements of the newest inner sequence this sequence produced: a new inner sequence cancels the
  /// one in flight.
  ///
  /// Use it when the base already produces sequences — a sequence of requests' progress streams, of the selected
  /// channel's messages:
  ///
  /// ```swift
  /// let streams = selections.map { channel in chat.messages(in: channel) }
  /// for await message in streams.switchToLatest() {
  ///   print(message.text)
  /// }
  /// // Selecting #general, then #random: prints #general's messages until #random is selected, then #random's only.
  /// ```
  ///
  /// It is `flatMapLatest { $0 }`, the same core and the same behaviour: an ``AsyncFlatMapLatestSequence`` that
  /// finishes when the base and the last inner sequence have finished, fails with the base's or the newest inner's
  /// error (base and inner sequences of one error type keep it; non-throwing ones give a non-throwing sequence;
  /// different types give `any Error`), and cancels both when the consuming task is cancelled. See
  /// <doc:SwitchToLatest>.
  ///
  /// Compared with Combine: `switchToLatest()` has this meaning.
  @inlinable
  public func switchToLatest() -> AsyncFlatMapLatestSequence<Self, Element, Failure>
  where Element.Failure == Failure {
    flatMapLatest { $0 }
  }

  /// ``switchToLatest()`` of inner sequences that cannot fail: the sequence fails as the base does. See
  /// ``AsyncFlatMapLatestSequence`` for an example.
  @_documentation(visibility: internal)
  @inlinable
  @_disfavoredOverload
  public func switchToLatest() -> AsyncFlatMapLatestSequence<Self, Element, Failure>
  where Element.Failure == Never {
    flatMapLatest { $0 }
  }

  /// ``switchToLatest()`` of a base that cannot fail: the sequence fails as the inner sequences do. See
  /// ``AsyncFlatMapLatestSequence`` for an example.
  @_documentation(visibility: internal)
  @inlinable
  @_disfavoredOverload
  public func switchToLatest() -> AsyncFlatMapLatestSequence<Self, Element, Element.Failure> where Failure == Never {
    flatMapLatest { $0 }
  }

  /// ``switchToLatest()`` of a base and inner sequences of different error types: the sequence fails with
  /// `any Error`. See ``AsyncFlatMapLatestSequence`` for an example.
  @_documentation(visibility: internal)
  @inlinable
  @_disfavoredOverload
  public func switchToLatest() -> AsyncFlatMapLatestSequence<Self, Element, any Error> {
    flatMapLatest { $0 }
  }
}
