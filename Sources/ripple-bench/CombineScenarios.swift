import Ripple
import Synchronization

/// The operators that stand in for Combine's (#31), over the same sources as the other operator rows.
func combineOperatorScenarios() -> [Scenario] {
  sourced("withLatest") { source in
    switch source {
    case .stream:
      return await latestPairs(
        producedStream(count: operatorElements) { $0 }, other: producedStream(count: 1) { _ in 7 })
    case .channel:
      return await latestPairs(
        producedChannel(count: operatorElements) { $0 }, other: producedChannel(count: 1) { _ in 7 })
    }
  }
    + sourced("handleEvents") { source in
      switch source {
      case .stream: return await handled(producedStream(count: operatorElements) { $0 })
      case .channel: return await handled(producedChannel(count: operatorElements) { $0 })
      }
    }
    + sourced("prepend") { source in
      switch source {
      case .stream: return await sumAll(producedStream(count: operatorElements - 1) { $0 + 1 }.prepend(0))
      case .channel: return await sumAll(producedChannel(count: operatorElements - 1) { $0 + 1 }.prepend(0))
      }
    }
}

/// Pairs each element with the other's one element: the base's elements that came after the other's are a
/// contiguous run to the last (those before it are dropped, as promised), each paired with 7.
@inline(__always)
func latestPairs<S: AsyncSequence<Int, Never> & Sendable>(_ base: S, other: S) async -> Int {
  var first: Int?
  var last = -1
  var seen = 0
  for await (element, latest) in base.withLatest(from: other) {
    precondition(latest == 7 && (last == -1 || element == last + 1), "withLatest: lost, repeated or wrong element")
    if first == nil { first = element }
    last = element
    seen += 1
  }
  precondition(last == operatorElements - 1 && seen == operatorElements - (first ?? 0), "withLatest: wrong end")
  return seen
}

/// Sums every element through `handleEvents` with all four closures; checks the sum and that each ran as promised.
@inline(__always)
func handled<S: AsyncSequence<Int, Never>>(_ sequence: S) async -> Int {
  let events = Atomic<Int>(0)
  let traced = sequence.handleEvents {
    events.add(1, ordering: .relaxed)
  } onElement: { element in
    precondition(element >= 0)
  } onCancel: {
    preconditionFailure("handleEvents: cancelled")
  } onFinish: { _ in
    events.add(10, ordering: .relaxed)
  }
  let seen = await sumAll(traced)
  precondition(events.load(ordering: .relaxed) == 11, "handleEvents: onStart or onFinish did not run once")
  return seen
}
