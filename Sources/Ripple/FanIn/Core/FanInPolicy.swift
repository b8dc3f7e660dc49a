/// What a fan-in operator (`merge`, `combineLatest`, `zip`, the count-or-signal chunking) makes of its bases' elements:
/// what it holds, and whether a base's end ends the iteration.
///
/// ``_FanInStateMachine`` owns everything else — the consumer, the producers and their backpressure, the bases'
/// ends and failures, cancellation — and calls the policy under its lock.
@usableFromInline
protocol _FanInPolicy: Sendable {
  associatedtype Value: Sendable
  associatedtype Output: Sendable

  /// Base `index` produced `value` while the consumer waits: the output to hand over at once (taking from `slots`
  /// what it uses) and the producers to wake, or `nil` to hold `value` until the consumer can use it.
  mutating func output(for value: Value, at index: Int, slots: inout _FanInSlots<Value>) -> (Output, _FanInWake)?
  /// Whether the policy keeps `value`, which base `index` produced, without making an output, so that its producer
  /// asks the base again at once instead of suspending. Asked before ``output(for:at:slots:)``; combineLatest keeps
  /// each base's latest element this way until every base has produced.
  mutating func absorbs(_ value: Value, at index: Int, slots: borrowing _FanInSlots<Value>) -> Bool
  /// The output the held elements make for a consumer that asks, or `nil` when they make none yet.
  mutating func output(from slots: inout _FanInSlots<Value>) -> (Output, _FanInWake)?
  /// Whether base `index` finishing ends the iteration at once, cancelling the other bases; otherwise it ends
  /// when every base has finished.
  func endsIteration(whenBaseFinishes index: Int, slots: borrowing _FanInSlots<Value>) -> Bool
  /// The iteration ended: drop what the policy keeps.
  mutating func reset()
}

extension _FanInPolicy {
  /// By default every element is held until it is used: one element in flight per base.
  @inlinable
  mutating func absorbs(_ value: Value, at index: Int, slots: borrowing _FanInSlots<Value>) -> Bool { false }
}

/// An element of one of up to three bases of different element types, so that the tuple variants of a fan-in
/// operator share one policy (`Third` is `Never` for pairs).
@usableFromInline
enum _FanInValue<First, Second, Third> {
  case first(First)
  case second(Second)
  case third(Third)
}

extension _FanInValue: Sendable where First: Sendable, Second: Sendable, Third: Sendable {}

extension _FanInValue {
  /// The pair of a two-base operator's values, base 0's and base 1's.
  @inlinable
  static func pair(_ values: [Self?], operator name: StaticString) -> (First, Second) {
    guard case .first(let first)? = values[0], case .second(let second)? = values[1] else {
      preconditionFailure("\(name): an element of the wrong base (state: running)")
    }
    return (first, second)
  }

  /// The triple of a three-base operator's values.
  @inlinable
  static func triple(_ values: [Self?], operator name: StaticString) -> (First, Second, Third) {
    guard case .first(let first)? = values[0], case .second(let second)? = values[1],
      case .third(let third)? = values[2]
    else {
      preconditionFailure("\(name): an element of the wrong base (state: running)")
    }
    return (first, second, third)
  }
}

/// The array output of a fan-in over a collection of bases, updated in place: while the consumer does not keep the
/// previous array, the next one reuses its storage. `changed` is the one base whose value changed, `nil` for all.
@inlinable
func _fanInArray<Element>(_ previous: inout [Element]?, from values: [Element?], changed: Int?) -> [Element] {
  guard previous != nil else {
    let output = values.map { value in
      guard let value else { preconditionFailure("fan-in: a base without a value (state: running)") }
      return value
    }
    previous = output
    return output
  }
  if let changed {
    previous![changed] = values[changed]!
  } else {
    for index in values.indices { previous![index] = values[index]! }
  }
  return previous!
}
