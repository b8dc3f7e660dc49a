/// An iterator that can hand over, without waiting, elements it already holds: a fan-in operator reads a base whose
/// iterator is one a batch at a time (see ``_FanInStorage/produce(_:at:as:)``).
///
/// Only an iterator whose elements are already taken out of its source may conform — reading ahead of an
/// `Observed` or of a stream that keeps only its newest element would turn what they coalesce or drop into a backlog
/// of stale values (`Docs/Decisions/combine-latest-and-merge.md`). The multi-producer single-consumer channel's
/// `elements()` iterator conforms.
@usableFromInline
protocol _FanInBatchingIterator<Element, Failure>: AsyncIteratorProtocol {
  /// Passes up to `limit` of the elements the iterator already holds to `body`, in order, without waiting.
  mutating func takeBuffered(upTo limit: Int, _ body: (Element) -> Void)
}
