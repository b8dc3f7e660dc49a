/// CombineLatest's part of a fan-in iteration: once every base has produced, each element makes an output with
/// the latest element of every other base.
///
/// ```
/// base 0:  1 ------- 2 --------|
/// base 1:  ---- 10 ------ 20 --|
/// output:  ---- (1,10) (2,10) (2,20)
/// ```
///
/// The first output takes each base's first element (swift-async-algorithms instead keeps asking every base until
/// its first output, so a burst before it is folded into that output). A base that finishes without ever
/// producing ends the iteration at once; otherwise it ends when every base has finished.
@usableFromInline
struct _CombineLatestPolicy<Value: Sendable, Output: Sendable>: _FanInPolicy {
  /// Builds an output from the latest elements. It gets the previous output to update in place, and the one base
  /// that changed since it (`nil`: several did) — so that an array output reuses its buffer when the consumer has
  /// let go of the previous one, instead of allocating one per element.
  @usableFromInline typealias Combine =
    @Sendable (_ previous: inout Output?, _ latest: [Value?], _ changed: Int?) -> Output

  /// The latest element of each base; all non-`nil` once `emitted`.
  @usableFromInline var latest: [Value?]
  /// Whether the first output, which takes one element of every base, was made.
  @usableFromInline var emitted = false
  @usableFromInline let combine: Combine
  /// The last output, for ``combine`` to update.
  @usableFromInline var previous: Output?

  @inlinable
  init(count: Int, combine: @escaping Combine) {
    latest = Array(repeating: nil, count: count)
    self.combine = combine
  }

  @inlinable
  mutating func output(for value: Value, at index: Int, slots: inout _FanInSlots<Value>) -> (Output, _FanInWake)? {
    if emitted {
      latest[index] = value
      return (combine(&previous, latest, index), .none)
    }
    // Only when this is the last base to produce its first element.
    guard slots.pendingCount == slots.count - 1 else { return nil }
    latest[index] = value
    return first(&slots)
  }

  @inlinable
  mutating func output(from slots: inout _FanInSlots<Value>) -> (Output, _FanInWake)? {
    guard emitted else {
      return slots.pendingCount == slots.count ? first(&slots) : nil
    }
    guard slots.pendingCount > 0 else { return nil }
    let (index, value, wake) = slots.takeNext()
    latest[index] = value
    return (combine(&previous, latest, index), wake)
  }

  @inlinable
  func endsIteration(whenBaseFinishes index: Int, slots: borrowing _FanInSlots<Value>) -> Bool {
    !emitted && !slots.isPending(index)
  }

  @inlinable
  mutating func reset() {
    previous = nil
  }

  /// The first output: takes every base's held element.
  @inlinable
  mutating func first(_ slots: inout _FanInSlots<Value>) -> (Output, _FanInWake) {
    let wake = slots.takeAll { index, value in latest[index] = value }
    emitted = true
    return (combine(&previous, latest, nil), wake)
  }
}
