import InternalRippleUtilities

/// Resumed with `true` to ask a base for its next element, `false` to stop.
@usableFromInline typealias _FanInProducer = UnsafeContinuation<Bool, Never>

/// Producers to resume once the lock is released: because their elements were used, or because the iteration ended.
///
/// Up to three are held inline; more (a fan-in over a collection of bases) in a buffer that ``resume(returning:)``
/// frees. No case holds a reference, so an action carrying a wake is trivial to copy.
@usableFromInline
enum _FanInWake {
  case none
  case one(_FanInProducer)
  case two(_FanInProducer, _FanInProducer)
  case three(_FanInProducer, _FanInProducer, _FanInProducer)
  case many(UnsafeMutableBufferPointer<_FanInProducer>, count: Int)

  /// Resumes every producer with `goOn`, exactly once; call it once per wake.
  @inlinable func resume(returning goOn: Bool = true) {
    switch self {
    case .none: break
    case .one(let producer): producer.resume(returning: goOn)
    case .two(let first, let second):
      first.resume(returning: goOn)
      second.resume(returning: goOn)
    case .three(let first, let second, let third):
      first.resume(returning: goOn)
      second.resume(returning: goOn)
      third.resume(returning: goOn)
    case .many(let buffer, let count):
      for index in 0..<count { buffer[index].resume(returning: goOn) }
      buffer.deallocate()
    }
  }
}

/// Gathers producers into a ``_FanInWake``, inline while there can be at most three.
@usableFromInline
struct _FanInWakeBuilder {
  @usableFromInline var wake = _FanInWake.none
  @usableFromInline var buffer: UnsafeMutableBufferPointer<_FanInProducer>?
  @usableFromInline var count = 0
  @usableFromInline let capacity: Int

  /// A builder for at most `capacity` producers.
  @inlinable init(capacity: Int) {
    self.capacity = capacity
  }

  @inlinable
  mutating func append(_ producer: _FanInProducer) {
    guard capacity <= 3 else {
      if buffer == nil { buffer = .allocate(capacity: capacity) }
      buffer!.initializeElement(at: count, to: producer)
      count += 1
      return
    }
    switch wake {
    case .none: wake = .one(producer)
    case .one(let first): wake = .two(first, producer)
    case .two(let first, let second): wake = .three(first, second, producer)
    case .three, .many: preconditionFailure("fan-in: more producers than bases (state: running)")
    }
  }

  @inlinable
  func build() -> _FanInWake {
    guard let buffer else { return wake }
    return .many(buffer, count: count)
  }
}

/// The elements a fan-in operator's bases produced that the consumer has not used yet, in each base's order.
///
/// A base's producer suspends on what it handed over until all of it is used: one element, or — from a base whose
/// iterator already held several (a channel's) — a batch. The head of each base's elements is
/// `pending`, so that the policies, which see one element per base at a time, are the same for both.
@usableFromInline
struct _FanInSlots<Value> {
  /// One base's element and its producer.
  @usableFromInline
  struct Slot {
    /// The element, until it is used.
    @usableFromInline var pending: Value?
    /// The rest of a batch, after `pending`: each becomes `pending` in turn once the one before is used.
    @usableFromInline var rest = _Queue<Value>()
    /// The producer, once it suspended on `pending` and `rest`.
    @usableFromInline var producer: _FanInProducer?
    /// `pending` and `rest` were used before their producer suspended: the producer goes on at once.
    @usableFromInline var released = false

    @inlinable init() {}
  }

  @usableFromInline var slots: [Slot]
  /// How many slots hold a pending element.
  @usableFromInline var pendingCount = 0
  /// Where the search for a pending element starts, rotating so that no base starves the others.
  @usableFromInline var cursor = 0

  @inlinable init(count: Int) {
    slots = Array(repeating: Slot(), count: count)
  }

  /// How many bases there are.
  @inlinable var count: Int { slots.count }

  @inlinable func isPending(_ index: Int) -> Bool { slots[index].pending != nil }

  /// Keeps `value` of base `index` until it is used; its producer suspends meanwhile.
  @inlinable
  mutating func hold(_ value: Value, at index: Int) {
    slots[index].pending = value
    pendingCount += 1
  }

  /// Keeps `value` and then `rest` (emptied; it gets the slot's spare storage) of base `index` until all of it is
  /// used; its producer suspends meanwhile.
  @inlinable
  mutating func hold(_ value: Value, then rest: inout _Queue<Value>, at index: Int) {
    hold(value, at: index)
    guard !rest.isEmpty else { return }
    // O(1): the queues trade storage, so neither allocates once both have grown.
    swap(&slots[index].rest, &rest)
  }

  /// Makes the next element of base `index`'s batch pending after its pending one was taken; `false` when the
  /// batch is used up, so that its producer goes on.
  @inlinable
  mutating func advance(_ index: Int) -> Bool {
    guard !slots[index].rest.isEmpty else {
      pendingCount -= 1
      return false
    }
    slots[index].pending = slots[index].rest.popFirst()
    return true
  }

  /// Takes the pending element of the next base from the cursor on, and lets its producer go on.
  @inlinable
  mutating func takeNext() -> (index: Int, value: Value, wake: _FanInWake) {
    var index = cursor
    while slots[index].pending == nil {
      index = index + 1 == slots.count ? 0 : index + 1
    }
    cursor = index + 1 == slots.count ? 0 : index + 1
    let value = slots[index].pending.take()!
    return (index, value, advance(index) ? .none : release(index))
  }

  /// Takes every pending element, in the order of the bases, and lets the producers whose batches are used up go
  /// on.
  @inlinable
  mutating func takeAll(_ body: (Int, Value) -> Void) -> _FanInWake {
    var producers = _FanInWakeBuilder(capacity: slots.count)
    for index in slots.indices {
      guard let value = slots[index].pending.take() else { continue }
      body(index, value)
      guard !advance(index) else { continue }
      if case .one(let producer) = release(index) { producers.append(producer) }
    }
    return producers.build()
  }

  /// Lets the producer of base `index`, whose element was just used, go on.
  @inlinable
  mutating func release(_ index: Int) -> _FanInWake {
    guard let producer = slots[index].producer.take() else {
      slots[index].released = true
      return .none
    }
    return .one(producer)
  }

  /// The producer of base `index` is about to suspend on its element: `nil` when it must wait, or `true` when
  /// its element was already used.
  @inlinable
  mutating func producerSuspending(at index: Int, _ producer: _FanInProducer) -> Bool? {
    if slots[index].released {
      slots[index].released = false
      return true
    }
    slots[index].producer = producer
    return nil
  }

  /// Drops every pending element; returns the suspended producers, to stop.
  @inlinable
  mutating func removeAll() -> _FanInWake {
    var producers = _FanInWakeBuilder(capacity: slots.count)
    for index in slots.indices {
      if let producer = slots[index].producer { producers.append(producer) }
      slots[index].pending = nil
      slots[index].rest.removeAll()
      slots[index].producer = nil
      slots[index].released = false
    }
    pendingCount = 0
    return producers.build()
  }
}
