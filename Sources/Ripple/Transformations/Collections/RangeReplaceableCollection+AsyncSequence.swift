extension RangeReplaceableCollection {
  /// Creates a collection of the elements of an asynchronous sequence, in order.
  ///
  /// Use it to gather a finite sequence — a prefix, the results of a task group, the lines of a file — or, in tests,
  /// everything a pipeline produced:
  ///
  /// ```swift
  /// let evens = await Array([1, 2, 3, 4].async.filter { $0.isMultiple(of: 2) })
  /// print(evens)
  /// // Prints [2, 4].
  /// ```
  ///
  /// It returns when the source finishes; a source that never finishes never returns. It throws what the source
  /// throws (its `Failure`, so a non-throwing source needs no `try`), and the elements gathered so far are lost.
  /// Cancellation is the source's: a source that ends early when cancelled gives the elements it produced until
  /// then. The source is iterated on the caller's isolation, so a source that is not `Sendable`, even one an actor
  /// holds, can be gathered on that actor.
  ///
  /// See <doc:Collections> for the dictionary and set initialisers.
  ///
  /// - Parameters:
  ///   - source: The elements of the new collection.
  ///   - isolation: The caller's isolation, which the source is iterated on; leave the default.
  @inlinable
  public init<Source: AsyncSequence>(
    _ source: Source,
    isolation: isolated (any Actor)? = #isolation
  ) async throws(Source.Failure) where Source.Element == Element {
    self.init()
    var iterator = source.makeAsyncIterator()
    while let element = try await iterator.next(isolation: isolation) {
      append(element)
    }
  }
}
