/// A first-in, first-out queue in a ring of storage: appending at the back and removing at the front are O(1).
///
/// The buffering operators (`buffer(policy:)`, `share(bufferingPolicy:)`, the channels) keep their elements in it.
/// An `Array` with `removeFirst()` would move every element on each removal; this moves none, and keeps its storage
/// once grown, so a queue that is filled and drained over and over allocates only while it grows.
@usableFromInline
package struct _Queue<Element> {
  /// The ring; `nil` slots are free. Its count is the capacity.
  @usableFromInline var slots: [Element?]
  /// The index in `slots` of the first element.
  @usableFromInline var head = 0
  /// The number of elements.
  @usableFromInline package private(set) var count = 0

  /// Creates an empty queue with room for `minimumCapacity` elements before it grows.
  @inlinable
  package init(minimumCapacity: Int = 0) {
    slots = Array(repeating: nil, count: Swift.max(minimumCapacity, 0))
  }

  @inlinable package var isEmpty: Bool { count == 0 }

  /// The first element, or `nil` when the queue is empty.
  @inlinable package var first: Element? { count == 0 ? nil : slots[head] }

  /// Adds `element` at the back.
  @inlinable
  package mutating func append(_ element: Element) {
    if count == slots.count { grow() }
    slots[(head + count) % slots.count] = element
    count += 1
  }

  /// Removes and returns the first element, or returns `nil` when the queue is empty.
  @inlinable
  package mutating func popFirst() -> Element? {
    guard count > 0 else { return nil }
    let element = slots[head].take()
    head = (head + 1) % slots.count
    count -= 1
    return element
  }

  /// Removes every element, keeping the storage.
  @inlinable
  package mutating func removeAll() {
    while popFirst() != nil {}
    head = 0
  }

  /// Doubles the capacity (at least 4), moving the elements to the front of the new ring in order.
  @usableFromInline
  mutating func grow() {
    var grown = [Element?](repeating: nil, count: Swift.max(slots.count * 2, 4))
    for offset in 0..<count {
      grown[offset] = slots[(head + offset) % slots.count].take()
    }
    slots = grown
    head = 0
  }
}

extension _Queue {
  /// Removes and returns the first element that matches, keeping the others in order; O(count). The channels use
  /// it only when a waiting party is cancelled, off the steady path.
  package mutating func removeFirst(where matches: (Element) -> Bool) -> Element? {
    var found: Element?
    for _ in 0..<count {
      let element = popFirst()!
      if found == nil, matches(element) {
        found = element
      } else {
        append(element)
      }
    }
    return found
  }
}

extension _Queue: Sendable where Element: Sendable {}
