import InternalRippleUtilities
import Ripple
import Testing

@Suite("_Queue")
struct QueueTests {
  @Test("removes elements in the order they were appended, across growth and wrap-around")
  func fifoAcrossGrowth() {
    var queue = _Queue<Int>(minimumCapacity: 2)
    var expected: [Int] = []
    var removed: [Int] = []
    var next = 0
    // Interleave appends and removals so the head wraps around the ring before and after each growth.
    for round in 1...40 {
      for _ in 0..<(round % 5 + 1) {
        queue.append(next)
        expected.append(next)
        next += 1
      }
      for _ in 0..<(round % 3) {
        if let value = queue.popFirst() { removed.append(value) }
      }
      #expect(queue.count == expected.count - removed.count)
      #expect(queue.first == expected.dropFirst(removed.count).first)
    }
    while let value = queue.popFirst() { removed.append(value) }
    #expect(removed == expected)
    #expect(queue.isEmpty)
    #expect(queue.popFirst() == nil)
  }

  @Test("removeAll empties the queue and releases the elements, and the queue stays usable")
  func removeAllReleases() {
    final class Token {}
    var queue = _Queue<Token>()
    weak var first: Token?
    do {
      let token = Token()
      first = token
      queue.append(token)
      queue.append(Token())
    }
    #expect(first != nil)
    queue.removeAll()
    #expect(first == nil)
    #expect(queue.isEmpty)
    queue.append(Token())
    #expect(queue.count == 1)
  }

  @Test("an element popped is released at once, not kept by the ring")
  func popReleases() {
    final class Token {}
    var queue = _Queue<Token>()
    weak var watched: Token?
    do {
      let token = Token()
      watched = token
      queue.append(token)
    }
    _ = queue.popFirst()
    #expect(watched == nil)
  }

  @Test("removeFirst(where:) removes the first match only and keeps the others in order")
  func removeFirstWhere() {
    var queue = _Queue<Int>(minimumCapacity: 3)
    for value in [5, 1, 7, 1, 9] { queue.append(value) }
    _ = queue.popFirst()  // the head is not at index 0 of the ring
    queue.append(3)
    #expect(queue.removeFirst(where: { $0 == 1 }) == 1)
    #expect(queue.removeFirst(where: { $0 == 42 }) == nil)
    var rest: [Int] = []
    while let value = queue.popFirst() { rest.append(value) }
    #expect(rest == [7, 1, 9, 3])
  }
}
