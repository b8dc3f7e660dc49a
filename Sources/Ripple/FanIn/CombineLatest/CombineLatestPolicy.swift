/// CombineLatest's part of a fan-in iteration: once every base has produced, each element makes an output with
/// the latest element of every other base.
///
/// ```
/// base 0:  1 ------- 2 --------|
/// base 1:  ---- 10 ------ 20 --|
/// output:  ---- (1,10) (2,10) (2,20)
/// ```
///
/// Until every base has produced, each base is asked again at once and its element replaces the one before, as in
/// swift-async-algorithms and Combine: the first output holds each base's latest element, and a base's error or end
/// is seen even while another base has not produced. Once every base has an element, each base has one element in
/// flight (a channel's base, one batch, each of whose elements makes an output). A base that finishes without ever producing ends the iteration at once; otherwise it ends when every base
/// has finished.
@usableFromInline
struct _CombineLatestPolicy<Value: Sendable, Output: Sendable>: _FanInPolicy {
  /// Builds an output from the latest elements. It gets the previous output to update in place, and the one base
  /// that changed since it (`nil`: several did) — so that an array output reuses its buffer when the consumer has
  /// let go of the previous one, instead of allocating one per element.
  @usableFromInline typealias Combine =
    @Sendable (_ previous: inout Output?, _ latest: [Value?], _ changed: Int?) -> Output

  /// The latest element of each base that the policy took (before the first output, the ones it absorbed); all
  /// non-`nil` once `emitted`.
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
    // Only when this element completes the set: ``absorbs(_:at:slots:)`` took it otherwise.
    guard everyBaseHasAnElement(except: index, slots) else { return nil }
    latest[index] = value
    return first(&slots)
  }

  @inlinable
  mutating func absorbs(_ value: Value, at index: Int, slots: borrowing _FanInSlots<Value>) -> Bool {
    guard !emitted, !everyBaseHasAnElement(except: index, slots) else { return false }
    latest[index] = value
    return true
  }

  /// Whether every base but `index` has an element taken or held — scanned only before the first output.
  @inlinable
  func everyBaseHasAnElement(except index: Int?, _ slots: borrowing _FanInSlots<Value>) -> Bool {
    for other in latest.indices where other != index && latest[other] == nil && !slots.isPending(other) {
      return false
    }
    return true
  }

  @inlinable
  mutating func output(from slots: inout _FanInSlots<Value>) -> (Output, _FanInWake)? {
    guard emitted else {
      return slots.pendingCount > 0 && everyBaseHasAnElement(except: nil, slots) ? first(&slots) : nil
    }
    guard slots.pendingCount > 0 else { return nil }
    let (index, value, wake) = slots.takeNext()
    latest[index] = value
    return (combine(&previous, latest, index), wake)
  }

  @inlinable
  func endsIteration(whenBaseFinishes index: Int, slots: borrowing _FanInSlots<Value>) -> Bool {
    !emitted && latest[index] == nil && !slots.isPending(index)
  }

  @inlinable
  mutating func reset() {
    previous = nil
  }

  /// The first output: every base's held element replaces the one it absorbed before.
  @inlinable
  mutating func first(_ slots: inout _FanInSlots<Value>) -> (Output, _FanInWake) {
    let wake = slots.takeAll { index, value in latest[index] = value }
    emitted = true
    return (combine(&previous, latest, nil), wake)
  }
}
