import InternalRippleUtilities

/// The state of one subject: what it keeps for new iterators, whether it ended, and per iterator its buffer and its
/// waiting consumer.
///
/// Every subject runs on this one machine; they differ only in what a new iterator gets first (`replayLimit`: none,
/// the current value, the last `bufferSize` elements) and whether it still gets it after the subject ended
/// (`replaysAfterTermination`). Two parties report events: senders (`elementSent`, `terminated`) and iterators
/// (`joined`, `batchRequested`, `nextRequested`, `cancelled`). The machine is generic over `Waiter`, what a waiting
/// consumer is: a continuation in the storage, a plain value in the tests.
///
/// Invariants: a side's `waiter` is set only while its buffer is empty; once the state is `terminated`, no element is
/// added to any buffer; a side leaves `sides` when it takes its end or is cancelled, and never comes back (a later
/// side in the same slot has a new token).
@usableFromInline
struct _SubjectStateMachine<Element, Failure: Error, Waiter>: ~Copyable {
  /// Names one iterator's side: its slot, and the token that tells it from a later side in the same slot.
  @usableFromInline typealias SideID = _SideID

  /// One iterator's part: the elements sent since it joined that it has not taken yet.
  @usableFromInline struct Side: _SlottedSide {
    @usableFromInline let token: UInt64
    @usableFromInline var buffer: _Queue<Element>
    /// The consumer waiting in `next()`; only while `buffer` is empty.
    @usableFromInline var waiter: Waiter?

    @inlinable init(token: UInt64, buffer: _Queue<Element>) {
      self.token = token
      self.buffer = buffer
    }
  }

  /// The subject's phase.
  @usableFromInline enum State {
    /// `send` delivers to every side.
    case active
    /// A termination was sent (or the subject went away): sides drain their buffers, then get it once.
    case terminated(Termination<Failure>)
  }

  /// What an iterator's request for its buffer gave.
  @usableFromInline enum BatchAction: Equatable {
    /// The buffer moved into the iterator's batch (all of it under `.unbounded`, its first element otherwise).
    case batch
    /// Nothing is buffered and the subject is active: wait through `nextRequested(_:_:)`.
    case wait
    /// The iteration is over: throw `failure` when there is one, else return `nil`.
    case end(Failure?)

    @inlinable static func == (lhs: Self, rhs: Self) -> Bool {
      switch (lhs, rhs) {
      case (.batch, .batch), (.wait, .wait): true
      case (.end(let lhs), .end(let rhs)): (lhs == nil) == (rhs == nil)
      default: false
      }
    }
  }

  @usableFromInline var state = State.active
  @usableFromInline let policy: AsyncSubjectBufferingPolicy.Storage
  /// How many of the latest elements a new iterator gets first: 0 (passthrough), 1 (current value), `bufferSize`.
  @usableFromInline let replayLimit: Int
  @usableFromInline let replaysAfterTermination: Bool
  /// The latest `replayLimit` elements, oldest first.
  @usableFromInline var history = _Queue<Element>()
  /// The sides by slot; a free slot is `nil`.
  @usableFromInline var sides = _SideSlots<Side>()

  @inlinable
  init(
    policy: AsyncSubjectBufferingPolicy, replayLimit: Int, replaysAfterTermination: Bool, initial: Element? = nil
  ) {
    self.policy = policy.storage
    self.replayLimit = replayLimit
    self.replaysAfterTermination = replaysAfterTermination
    if let initial { history.append(initial) }
  }

  /// A current-value subject's value: the one element it keeps (`replayLimit` is 1).
  @inlinable var current: Element? { history.first }

  // MARK: - Senders

  /// An element was sent: it becomes the latest kept for new iterators, and goes to every side's buffer under the
  /// policy. The sides that waited are appended to `wakes`, to resume once the lock is released.
  @inlinable
  mutating func elementSent(_ element: Element, wakes: inout _SubjectWakes<Waiter>) {
    guard case .active = state else { return }
    if replayLimit > 0 {
      if history.count == replayLimit { _ = history.popFirst() }
      history.append(element)
    }
    for index in sides.indices where sides[index] != nil {
      if let waiter = sides[index]!.waiter {
        sides[index]!.waiter = nil
        sides[index]!.buffer.append(element)
        wakes.append(waiter)
        continue
      }
      switch policy {
      case .unbounded:
        sides[index]!.buffer.append(element)
      case .bufferingNewest(let limit):
        guard limit > 0 else { continue }
        if sides[index]!.buffer.count == limit { _ = sides[index]!.buffer.popFirst() }
        sides[index]!.buffer.append(element)
      case .bufferingOldest(let limit):
        if sides[index]!.buffer.count < limit { sides[index]!.buffer.append(element) }
      }
    }
  }

  /// A termination was sent; the first one counts. Waiting sides are appended to `wakes`; the others get it after
  /// their buffers. Returns whether this one counted.
  @inlinable
  @discardableResult
  mutating func terminated(_ termination: Termination<Failure>, wakes: inout _SubjectWakes<Waiter>) -> Bool {
    guard case .active = state else { return false }
    state = .terminated(termination)
    for index in sides.indices where sides[index] != nil {
      if let waiter = sides[index]!.waiter {
        sides[index]!.waiter = nil
        wakes.append(waiter)
      }
    }
    return true
  }

  // MARK: - Iterators

  /// An iterator was made: its buffer starts with what the subject replays (trimmed to the policy's limit), and it
  /// gets every element sent from now on.
  @inlinable
  mutating func joined() -> SideID {
    var buffer = _Queue<Element>()
    if case .terminated = state, !replaysAfterTermination {
      // Nothing to replay: the side only takes the end.
    } else {
      buffer = history
      switch policy {
      case .unbounded: break
      case .bufferingNewest(let limit): while buffer.count > limit { _ = buffer.popFirst() }
      case .bufferingOldest(let limit) where buffer.count > limit:
        var oldest = _Queue<Element>()
        for _ in 0..<limit { oldest.append(buffer.popFirst()!) }
        buffer = oldest
      case .bufferingOldest: break
      }
    }
    return sides.insert { Side(token: $0, buffer: buffer) }
  }

  /// The iterator's batch is empty and it asks for its buffer: under `.unbounded` the whole buffer moves into
  /// `batch` (one lock for a burst), under a limit one element does (the limit stays exact). At the end, the side
  /// leaves and gets the termination once.
  @inlinable
  mutating func batchRequested(_ id: SideID, into batch: inout _Queue<Element>) -> BatchAction {
    guard isLive(id) else { return .end(nil) }  // it had its end, or was cancelled
    precondition(sides[id.index]!.waiter == nil, "subject: one iterator's next() called concurrently")
    if !sides[id.index]!.buffer.isEmpty {
      if case .unbounded = policy {
        swap(&batch, &sides[id.index]!.buffer)
      } else {
        batch.append(sides[id.index]!.buffer.popFirst()!)
      }
      return .batch
    }
    switch state {
    case .active:
      return .wait
    case .terminated(let termination):
      removeSide(id.index)
      if case .failure(let failure) = termination { return .end(failure) }
      return .end(nil)
    }
  }

  /// The iterator waits as `waiter`; returns it to resume at once when something is there already (an element or
  /// the end arrived since `batchRequested`, or the side was cancelled meanwhile).
  @inlinable
  mutating func nextRequested(_ id: SideID, _ waiter: Waiter) -> Waiter? {
    guard isLive(id) else { return waiter }
    guard case .active = state, sides[id.index]!.buffer.isEmpty else { return waiter }
    sides[id.index]!.waiter = waiter
    return nil
  }

  /// The iterator's task was cancelled or the iterator went away: the side leaves at once. Returns its waiter, to
  /// resume, and its buffer, to drop once the lock is released (an element's deinitialiser may run any code).
  @inlinable
  mutating func cancelled(_ id: SideID) -> (waiter: Waiter?, dropped: _Queue<Element>)? {
    guard isLive(id) else { return nil }
    let side = sides[id.index]!
    removeSide(id.index)
    return (side.waiter, side.buffer)
  }

  /// Whether `id`'s side is still in the subject (the slots shrink when every side left).
  @inlinable
  func isLive(_ id: SideID) -> Bool {
    sides.isLive(id)
  }

  @inlinable
  mutating func removeSide(_ index: Int) {
    sides.remove(at: index)
    // A subject whose iterators all left holds no slots.
    sides.removeAllIfFree()
  }
}

/// The waiters one event resumes once the lock is released: up to four inline, more in an array, so that waking the
/// iterators of a send allocates nothing until more than four waited at once.
@usableFromInline
struct _SubjectWakes<Waiter> {
  @usableFromInline var first: Waiter?
  @usableFromInline var second: Waiter?
  @usableFromInline var third: Waiter?
  @usableFromInline var fourth: Waiter?
  @usableFromInline var more: [Waiter] = []
  @usableFromInline var count = 0

  @inlinable init() {}

  @inlinable
  mutating func append(_ waiter: Waiter) {
    switch count {
    case 0: first = waiter
    case 1: second = waiter
    case 2: third = waiter
    case 3: fourth = waiter
    default: more.append(waiter)
    }
    count += 1
  }

  @inlinable
  func forEachWaiter(_ body: (Waiter) -> Void) {
    guard count > 0 else { return }
    body(first!)
    guard count > 1 else { return }
    body(second!)
    guard count > 2 else { return }
    body(third!)
    guard count > 3 else { return }
    body(fourth!)
    for waiter in more { body(waiter) }
  }
}

extension _SubjectWakes: Sendable where Waiter: Sendable {}
