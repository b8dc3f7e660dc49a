/// Resumed with `true` to ask a base for its next element, `false` to stop.
@usableFromInline typealias _FanInProducer = UnsafeContinuation<Bool, Never>

/// The producers to resume because their elements were used.
@usableFromInline
enum _FanInWake {
  case none
  case one(_FanInProducer)
  case all([_FanInProducer])

  @inlinable func resume() {
    switch self {
    case .none: break
    case .one(let producer): producer.resume(returning: true)
    case .all(let producers): for producer in producers { producer.resume(returning: true) }
    }
  }
}

/// The elements a fan-in operator's bases produced that the consumer has not used yet: at most one per base,
/// because a base's producer suspends on its element until it is used.
@usableFromInline
struct _FanInSlots<Value> {
  /// One base's element and its producer.
  @usableFromInline
  struct Slot {
    /// The element, until it is used.
    @usableFromInline var pending: Value?
    /// The producer, once it suspended on `pending`.
    @usableFromInline var producer: _FanInProducer?
    /// `pending` was used before its producer suspended: the producer goes on at once.
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

  /// Takes the pending element of the next base from the cursor on, and lets its producer go on.
  @inlinable
  mutating func takeNext() -> (index: Int, value: Value, wake: _FanInWake) {
    var index = cursor
    while slots[index].pending == nil {
      index = index + 1 == slots.count ? 0 : index + 1
    }
    cursor = index + 1 == slots.count ? 0 : index + 1
    let value = slots[index].pending.take()!
    pendingCount -= 1
    return (index, value, release(index))
  }

  /// Takes every pending element, in the order of the bases, and lets their producers go on.
  @inlinable
  mutating func takeAll(_ body: (Int, Value) -> Void) -> _FanInWake {
    var producers: [_FanInProducer] = []
    producers.reserveCapacity(slots.count)
    for index in slots.indices {
      guard let value = slots[index].pending.take() else { continue }
      body(index, value)
      if case .one(let producer) = release(index) { producers.append(producer) }
    }
    pendingCount = 0
    return .all(producers)
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
  mutating func removeAll() -> [_FanInProducer] {
    var producers: [_FanInProducer] = []
    for index in slots.indices {
      if let producer = slots[index].producer { producers.append(producer) }
      slots[index] = Slot()
    }
    pendingCount = 0
    return producers
  }
}
