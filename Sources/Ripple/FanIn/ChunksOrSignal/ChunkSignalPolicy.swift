/// The fan-in part of `chunks(ofCount:or:)` and `chunked(by:)` with a signal: merge's, over the base (index 0) and the
/// signal (index 1), except that the base's end ends the iteration.
///
/// ```
/// base 0:    a - b ----- c --|
/// signal 1:  ------ s ------ s
/// output:    a - b s --- c --|       (the iterator gathers a, b on s, then c at the end)
/// ```
///
/// The value is the base's element, or `nil` where the signal fired: the iterator gathers the chunks on the consumer's
/// side, so that `Collected` need not be `Sendable` and no chunk is built under the lock. Each side has one element in
/// flight, as in merge (a channel's base, one batch). The signal's end leaves the base going on alone (chunks are then cut by count only); the
/// base's end cancels the signal, and the consumer gets the end after the base's last element.
@usableFromInline
struct _ChunkSignalPolicy<Element: Sendable>: _FanInPolicy {
  @usableFromInline let merge = _MergePolicy<Element?>()

  @inlinable init() {}

  @inlinable
  func output(for value: Element?, at index: Int, slots: inout _FanInSlots<Element?>) -> (Element?, _FanInWake)? {
    merge.output(for: value, at: index, slots: &slots)
  }

  @inlinable
  func output(from slots: inout _FanInSlots<Element?>) -> (Element?, _FanInWake)? {
    merge.output(from: &slots)
  }

  @inlinable
  func endsIteration(whenBaseFinishes index: Int, slots: borrowing _FanInSlots<Element?>) -> Bool {
    // The base's producer finishes only once its last element was taken: nothing of it is lost.
    index == 0
  }

  @inlinable func reset() {}
}
