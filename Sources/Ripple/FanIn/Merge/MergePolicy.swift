/// Merge's part of a fan-in iteration: every element is an output, in the order the bases produce them.
///
/// ```
/// base 0:  a ----- c -----|
/// base 1:  --- b ----- d -|
/// merged:  a - b - c - d -|
/// ```
///
/// An element the consumer is not waiting for is held until the consumer takes it; held elements of several
/// bases are taken in turn, so that no base starves the others. The iteration ends when every base has finished.
@usableFromInline
struct _MergePolicy<Element: Sendable>: _FanInPolicy {
  @inlinable init() {}

  @inlinable
  func output(for value: Element, at index: Int, slots: inout _FanInSlots<Element>) -> (Element, _FanInWake)? {
    (value, .none)
  }

  @inlinable
  func output(from slots: inout _FanInSlots<Element>) -> (Element, _FanInWake)? {
    guard slots.pendingCount > 0 else { return nil }
    let (_, value, wake) = slots.takeNext()
    return (value, wake)
  }

  @inlinable
  func endsIteration(whenBaseFinishes index: Int, slots: borrowing _FanInSlots<Element>) -> Bool { false }

  @inlinable func reset() {}
}
