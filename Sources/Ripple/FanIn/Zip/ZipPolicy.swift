/// Zip's part of a fan-in iteration: an output when every base holds an element, made of one element of each.
///
/// ```
/// base 0:  a ---- b ------- c --|
/// base 1:  -- 1 ------ 2 -------|
/// output:  -- (a,1) -- (b,2) ---|
/// ```
///
/// Each base is one element ahead at most (a channel's base, one batch): its producer waits on it until a tuple takes
/// it. Any base's end ends the
/// iteration, as no further tuple can be complete, and cancels the other bases.
@usableFromInline
struct _ZipPolicy<Value: Sendable, Output: Sendable>: _FanInPolicy {
  /// Builds an output from one element of each base. It gets the previous output to update in place, so that an
  /// array output reuses its buffer when the consumer has let go of the previous one.
  @usableFromInline typealias Zip = @Sendable (_ previous: inout Output?, _ values: [Value?]) -> Output

  @usableFromInline let zip: Zip
  /// The elements of the output being made, reused from one output to the next.
  @usableFromInline var values: [Value?]
  /// The last output, for ``zip`` to update.
  @usableFromInline var previous: Output?

  @inlinable
  init(count: Int, zip: @escaping Zip) {
    self.zip = zip
    values = Array(repeating: nil, count: count)
  }

  @inlinable
  mutating func output(for value: Value, at index: Int, slots: inout _FanInSlots<Value>) -> (Output, _FanInWake)? {
    guard slots.pendingCount == slots.count - 1 else { return nil }
    values[index] = value
    return take(&slots)
  }

  @inlinable
  mutating func output(from slots: inout _FanInSlots<Value>) -> (Output, _FanInWake)? {
    slots.pendingCount == slots.count ? take(&slots) : nil
  }

  @inlinable
  func endsIteration(whenBaseFinishes index: Int, slots: borrowing _FanInSlots<Value>) -> Bool { true }

  @inlinable
  mutating func reset() {
    previous = nil
  }

  /// Takes every base's held element into an output.
  @inlinable
  mutating func take(_ slots: inout _FanInSlots<Value>) -> (Output, _FanInWake) {
    let wake = slots.takeAll { index, value in values[index] = value }
    let output = zip(&previous, values)
    for index in values.indices { values[index] = nil }
    return (output, wake)
  }
}
