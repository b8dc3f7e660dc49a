import InternalRippleUtilities

/// The state of one shared iteration: the upstream task's progress and, per iterator, its buffer and its waiting
/// consumer.
///
/// Two parties report events: the upstream task that iterates the base (`started`, `producerBegan`,
/// `elementProduced`, `producerSuspending`, `baseEnded`) and the iterators (`joined`, `nextReady`, `nextRequested`,
/// `cancelled`). Methods return
/// what to do once the lock is released.
///
/// Invariants: a side's consumer waits only while its buffer is empty; under `.bounded(n)` the upstream pulls only
/// while every side is waiting or holds fewer than `n` elements, so no buffer ever holds more than `n` (a side that
/// joins while a pull is under way may hold one element under `.bounded(0)`); once the state is `ended`, no element
/// is added to any buffer.
@usableFromInline
struct _ShareStateMachine<Element: Sendable, Failure: Error>: ~Copyable {
  @usableFromInline typealias Consumer = UnsafeContinuation<Result<Element?, Failure>, Never>
  @usableFromInline typealias Producer = UnsafeContinuation<Bool, Never>

  /// Names one iterator's side: its slot, and the token that tells it from a later side in the same slot.
  @usableFromInline typealias SideID = _SideID

  /// One iterator's view of the shared iteration.
  @usableFromInline struct Side: _SlottedSide {
    @usableFromInline let token: UInt64
    /// Elements produced since the iterator joined that it has not taken yet.
    @usableFromInline var buffer: _Queue<Element>
    /// The consumer waiting in `next()`; only while `buffer` is empty.
    @usableFromInline var consumer: Consumer?

    @inlinable init(token: UInt64, capacity: Int) {
      self.token = token
      buffer = _Queue(minimumCapacity: capacity)
    }
  }

  /// A consumer to resume with an element, once the lock is released.
  @usableFromInline struct Delivery: Sendable {
    @usableFromInline let consumer: Consumer
    @usableFromInline let result: Result<Element?, Failure>

    @inlinable init(_ consumer: Consumer, _ result: Result<Element?, Failure>) {
      self.consumer = consumer
      self.result = result
    }

    @inlinable func resume() {
      consumer.resume(returning: result)
    }
  }

  /// What a side's buffer does with an element that arrives while the iterator is busy.
  @usableFromInline enum Policy {
    /// Keep it; the upstream waits while any buffer holds the limit.
    case bounded(Int)
    case unbounded
    /// Keep the newest `limit`, dropping the oldest.
    case latest(Int)
    /// Keep the oldest `limit`, dropping the new one.
    case oldest(Int)

    @inlinable init(_ policy: AsyncBufferSequencePolicy) {
      switch policy.storage {
      case .bounded(let limit): self = .bounded(limit)
      case .unbounded: self = .unbounded
      // A limit of 0 means no buffer under every policy (see `AsyncBufferSequencePolicy`): nothing is dropped.
      case .bufferingLatest(0), .bufferingOldest(0): self = .bounded(0)
      case .bufferingLatest(let limit): self = .latest(limit)
      case .bufferingOldest(let limit): self = .oldest(limit)
      }
    }

    /// Room reserved up front in each side's buffer, so that a bounded buffer never grows on the steady path.
    @inlinable var capacity: Int {
      switch self {
      case .bounded(let limit), .latest(let limit), .oldest(let limit): Swift.min(limit, 64)
      case .unbounded: 0
      }
    }
  }

  /// The upstream task's phase.
  @usableFromInline enum State {
    /// No iterator has asked for an element yet: the upstream task does not exist.
    case initial
    /// The upstream task runs: it is asking the base for an element, or about to.
    case pulling
    /// The upstream task waits for room (a full bounded buffer) and is resumed with `true` to pull, `false` to stop.
    case suspended(Producer)
    /// The base finished (`nil`) or threw, or the last iterator left (`nil`): no element comes any more. Sides
    /// drain their buffers, then get the failure once, or `nil`.
    case ended(Failure?)
  }

  @usableFromInline var state = State.initial
  @usableFromInline let policy: Policy
  /// The sides by slot; a free slot is `nil`.
  @usableFromInline var sides = _SideSlots<Side>()
  /// The upstream task, once started, so that the last iterator leaving can cancel it.
  @usableFromInline var upstream: Task<Void, Never>?

  @inlinable init(policy: AsyncBufferSequencePolicy) {
    self.policy = Policy(policy)
  }

  /// The side effect of an event, run by the storage once the lock is released.
  @usableFromInline enum Action {
    case none
    /// The first demand: start the upstream task.
    case start
    /// Resume the consumer, then the suspended upstream task when present, with `true`: pull the next element.
    case resume(Delivery?, Producer?)
    /// A task was started after the iteration ended: cancel it.
    case cancelTask(Task<Void, Never>)
    /// The iteration ended: resume the consumer with the end, cancel the upstream task, and resume it, when
    /// suspended, with `false`: stop.
    case stopUpstream(Delivery?, Task<Void, Never>?, Producer?)
  }

  /// What the upstream task does after handing an element out.
  @usableFromInline enum ProduceAction {
    /// Ask the base for the next element at once.
    case produceMore
    /// Wait for room: call `producerSuspending(_:)`.
    case suspend
    /// The iteration ended meanwhile: stop.
    case stop
  }

  // MARK: - Iterators

  /// An iterator was made: it gets every element produced from now on.
  @inlinable
  mutating func joined() -> SideID {
    let capacity = policy.capacity
    return sides.insert { Side(token: $0, capacity: capacity) }
  }

  /// An iterator calls `next()` and takes a buffered element without preparing to wait; `nil` when its buffer is
  /// empty, and it must wait through `nextRequested(_:_:)`. Taking an element may let a suspended upstream pull.
  @inlinable
  mutating func nextReady(_ id: SideID) -> (element: Element, producer: Producer?)? {
    guard sides.isLive(id), let element = sides[id.index]!.buffer.popFirst() else { return nil }
    return (element, resumeIfRoom())
  }

  /// An iterator calls `next()`; `.none` means it waits.
  @inlinable
  mutating func nextRequested(_ id: SideID, _ consumer: Consumer) -> Action {
    guard sides.isLive(id) else {
      return .resume(Delivery(consumer, .success(nil)), nil)  // it already had the end
    }
    precondition(sides[id.index]!.consumer == nil, "share: one iterator's next() called concurrently")
    if let element = sides[id.index]!.buffer.popFirst() {
      // Taking an element makes room: a bounded upstream waiting for this side may pull again.
      return .resume(Delivery(consumer, .success(element)), resumeIfRoom())
    }
    switch state {
    case .initial:
      sides[id.index]!.consumer = consumer
      state = .pulling
      return .start
    case .pulling:
      sides[id.index]!.consumer = consumer
      return .none
    case .suspended:
      sides[id.index]!.consumer = consumer
      // Under `.bounded(0)` the upstream waits until every side waits: this one may be the last.
      return .resume(nil, resumeIfRoom())
    case .ended(let failure):
      removeSide(id.index)
      return .resume(Delivery(consumer, failure.map { .failure($0) } ?? .success(nil)), nil)
    }
  }

  /// An iterator's consuming task was cancelled, or the iterator went away; it gets no more elements. The last
  /// iterator leaving a running iteration ends it and cancels the upstream.
  @inlinable
  mutating func cancelled(_ id: SideID) -> Action {
    guard sides.isLive(id) else { return .none }
    let consumer = sides[id.index]!.consumer.map { Delivery($0, .success(nil)) }
    removeSide(id.index)
    switch state {
    case .initial, .ended:
      return .resume(consumer, nil)
    case .pulling, .suspended:
      guard sides.liveCount == 0 else {
        // The side that left may have been the one the upstream waited for.
        return .resume(consumer, resumeIfRoom())
      }
      var producer: Producer?
      if case .suspended(let suspended) = state { producer = suspended }
      state = .ended(nil)
      defer { upstream = nil }
      return .stopUpstream(consumer, upstream, producer)
    }
  }

  // MARK: - Upstream

  /// The upstream task was created; it is cancelled when the last iterator leaves.
  @inlinable
  mutating func started(_ task: Task<Void, Never>) -> Action {
    if case .ended = state { return .cancelTask(task) }  // everyone left before it was recorded
    upstream = task
    return .none
  }

  /// The upstream task runs, before its first pull: it pulls at once when every side has room.
  @inlinable
  mutating func producerBegan() -> ProduceAction {
    guard case .pulling = state else { return .stop }
    return hasRoom ? .produceMore : .suspend
  }

  /// The base produced `element`: waiting consumers get it (appended to `deliveries`), busy sides buffer it.
  @inlinable
  mutating func elementProduced(_ element: Element, deliveries: inout [Delivery]) -> ProduceAction {
    guard case .pulling = state else { return .stop }
    for index in sides.indices where sides[index] != nil {
      if let consumer = sides[index]!.consumer {
        sides[index]!.consumer = nil
        deliveries.append(Delivery(consumer, .success(element)))
        continue
      }
      switch policy {
      case .bounded, .unbounded:
        sides[index]!.buffer.append(element)
      case .latest(let limit):
        if sides[index]!.buffer.count == limit { _ = sides[index]!.buffer.popFirst() }
        sides[index]!.buffer.append(element)
      case .oldest(let limit):
        if sides[index]!.buffer.count < limit { sides[index]!.buffer.append(element) }
      }
    }
    return hasRoom ? .produceMore : .suspend
  }

  /// The upstream task is about to wait for room as `producer`: `nil` means it waits; otherwise resume it at once,
  /// to pull (`true`: there is room already) or to stop (`false`: the iteration ended).
  @inlinable
  mutating func producerSuspending(_ producer: Producer) -> Bool? {
    switch state {
    case .ended:
      return false
    case .pulling:
      if hasRoom { return true }
      state = .suspended(producer)
      return nil
    case .initial, .suspended:
      preconditionFailure("share: the upstream suspended twice (state: \(state))")
    }
  }

  /// The base finished (`failure` is `nil`) or threw: waiting consumers get the end at once (appended to
  /// `deliveries`), the others after their buffers.
  @inlinable
  mutating func baseEnded(_ failure: Failure?, deliveries: inout [Delivery]) {
    guard case .pulling = state else { return }  // the last iterator left while the base was returning
    state = .ended(failure)
    upstream = nil
    for index in sides.indices {
      guard let consumer = sides[index]?.consumer else { continue }
      deliveries.append(Delivery(consumer, failure.map { .failure($0) } ?? .success(nil)))
      removeSide(index)
    }
  }

  // MARK: - Helpers

  /// Whether every side can take one more element: it waits, or its bounded buffer is below the limit. The
  /// dropping and unbounded policies never hold the upstream back.
  @inlinable var hasRoom: Bool {
    guard case .bounded(let limit) = policy else { return true }
    for index in sides.indices where sides[index] != nil {
      // Read in place: copying a side would retain its buffer.
      if sides[index]!.consumer == nil && sides[index]!.buffer.count >= limit { return false }
    }
    return true
  }

  /// The suspended upstream task, when there is now room for it to pull; the state becomes `pulling`.
  @inlinable
  mutating func resumeIfRoom() -> Producer? {
    guard case .suspended(let producer) = state, hasRoom else { return nil }
    state = .pulling
    return producer
  }

  @inlinable
  mutating func removeSide(_ index: Int) {
    sides.remove(at: index)
  }
}
