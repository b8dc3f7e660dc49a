extension SetAlgebra {
  /// Creates a set of the elements of an asynchronous sequence.
  ///
  /// Use it to gather the distinct elements of a finite sequence, or for an option set:
  ///
  /// ```swift
  /// let tags = await Set(["swift", "async", "swift"].async)
  /// print(tags.sorted())
  /// // Prints ["async", "swift"].
  /// ```
  ///
  /// An element that comes again leaves the one already inserted in place, as `insert(_:)` does. It returns when the
  /// source finishes, throws what the source throws (its `Failure`, so a non-throwing source needs no `try`), and
  /// reacts to cancellation as the source does. The source is iterated on the caller's isolation, so a source that is
  /// not `Sendable`, even one an actor holds, can be gathered on that actor. See <doc:Collections>.
  ///
  /// - Parameters:
  ///   - source: The elements of the new set.
  ///   - isolation: The caller's isolation, which the source is iterated on; leave the default.
  @inlinable
  public init<Source: AsyncSequence>(
    _ source: Source,
    isolation: isolated (any Actor)? = #isolation
  ) async throws(Source.Failure) where Source.Element == Element {
    self.init()
    var iterator = source.makeAsyncIterator()
    while let element = try await iterator.next(isolation: isolation) {
      insert(element)
    }
  }
}
