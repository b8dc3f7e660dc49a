import Testing

@testable import Ripple

/// `_WithLatestPolicy` as a plain value: what it absorbs, what it pairs, and which end ends the iteration.
@Suite("withLatest's fan-in policy")
struct WithLatestPolicyTests {
  /// A policy over a base (0) and one other (1), pairing as "base-other".
  func policy() -> _WithLatestPolicy<Int, String> {
    _WithLatestPolicy(count: 2) { element, latest in "\(element)-\(latest[1]!)" }
  }

  @Test("a base element before the other produced is absorbed, that is dropped; the other's are always absorbed")
  func dropsUntilTheOtherProduced() {
    var policy = policy()
    let slots = _FanInSlots<Int>(count: 2)
    let absorbed = [
      policy.absorbs(5, at: 0, slots: slots), policy.absorbs(7, at: 1, slots: slots),
      policy.absorbs(8, at: 1, slots: slots), policy.absorbs(6, at: 0, slots: slots),
    ]
    #expect(absorbed == [true, true, true, false])
  }

  @Test("a base element is paired with the other's latest: at once, or, when held, when the consumer takes it")
  func pairsWithTheLatest() {
    var policy = policy()
    var slots = _FanInSlots<Int>(count: 2)
    _ = policy.absorbs(7, at: 1, slots: slots)
    let atOnce = policy.output(for: 6, at: 0, slots: &slots)?.0
    let nothingHeld = policy.output(from: &slots)?.0
    slots.hold(8, at: 0)
    _ = policy.absorbs(9, at: 1, slots: slots)
    let taken = policy.output(from: &slots)?.0
    #expect(atOnce == "6-7")
    #expect(nothingHeld == nil)
    #expect(taken == "8-9")
    #expect(slots.pendingCount == 0)
  }

  @Test("the base's end ends the iteration; another's does not")
  func ends() {
    let policy = policy()
    let slots = _FanInSlots<Int>(count: 2)
    #expect(policy.endsIteration(whenBaseFinishes: 0, slots: slots))
    #expect(!policy.endsIteration(whenBaseFinishes: 1, slots: slots))
  }

  @Test("reset forgets the others' latest elements")
  func reset() {
    var policy = policy()
    let slots = _FanInSlots<Int>(count: 2)
    _ = policy.absorbs(7, at: 1, slots: slots)
    policy.reset()
    let dropped = policy.absorbs(6, at: 0, slots: slots)
    #expect(dropped)
  }
}
