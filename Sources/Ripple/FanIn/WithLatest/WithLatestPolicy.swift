/// WithLatest's part of a fan-in iteration: base 0 is the base, whose every element makes an output with the
/// latest element of each other base; the others only keep their latest element.
///
/// ```
/// base 0:  1 ---- 2 ---- 3 ------|
/// base 1:  --- a ----- b ----|
/// output:  ------ (2,a) (3,b) ---|
/// ```
///
/// The other bases' elements are absorbed as they come (their producers never suspend), so the latest is always at
/// hand; a base element that comes while another base has produced nothing is absorbed too, and dropped. A base
/// element the consumer cannot take at once is held (its producer suspends, as with every fan-in) and paired with the
/// others' latest elements when the consumer takes it. The base's end ends the iteration, cancelling the others;
/// another's end does not (its last element stays the latest).
@usableFromInline
struct _WithLatestPolicy<Value: Sendable, Output: Sendable>: _FanInPolicy {
  /// Builds an output from a base element and the latest element of each other base (`latest[0]` is unused).
  @usableFromInline typealias Combine = @Sendable (_ element: Value, _ latest: [Value?]) -> Output

  /// The latest element of each other base; index 0, the base's, stays `nil`.
  @usableFromInline var latest: [Value?]
  /// How many other bases have produced.
  @usableFromInline var produced = 0
  @usableFromInline let combine: Combine

  @inlinable
  init(count: Int, combine: @escaping Combine) {
    precondition(count >= 2, "withLatest: needs a base and at least one other sequence")
    latest = Array(repeating: nil, count: count)
    self.combine = combine
  }

  /// Whether every other base has produced, so that a base element makes an output.
  @inlinable var ready: Bool { produced == latest.count - 1 }

  @inlinable
  mutating func absorbs(_ value: Value, at index: Int, slots: borrowing _FanInSlots<Value>) -> Bool {
    guard index != 0 else { return !ready }
    if latest[index] == nil { produced += 1 }
    latest[index] = value
    return true
  }

  @inlinable
  mutating func output(for value: Value, at index: Int, slots: inout _FanInSlots<Value>) -> (Output, _FanInWake)? {
    (combine(value, latest), .none)
  }

  @inlinable
  mutating func output(from slots: inout _FanInSlots<Value>) -> (Output, _FanInWake)? {
    guard slots.pendingCount > 0 else { return nil }
    let (_, value, wake) = slots.takeNext()
    return (combine(value, latest), wake)
  }

  @inlinable
  func endsIteration(whenBaseFinishes index: Int, slots: borrowing _FanInSlots<Value>) -> Bool { index == 0 }

  @inlinable
  mutating func reset() {
    for index in latest.indices { latest[index] = nil }
    produced = 0
  }
}
