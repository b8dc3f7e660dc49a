import Ripple
import Testing

@Suite("_Deque")
struct DequeTests {
  @Test("removes elements in the order they were appended, across growth and wrap-around")
  func fifoAcrossGrowth() {
    var deque = _Deque<Int>(minimumCapacity: 2)
    var expected: [Int] = []
    var removed: [Int] = []
    var next = 0
    // Interleave appends and removals so the head wraps around the ring before and after each growth.
    for round in 1...40 {
      for _ in 0..<(round % 5 + 1) {
        deque.append(next)
        expected.append(next)
        next += 1
      }
      for _ in 0..<(round % 3) {
        if let value = deque.popFirst() { removed.append(value) }
      }
      #expect(deque.count == expected.count - removed.count)
      #expect(deque.first == expected.dropFirst(removed.count).first)
    }
    while let value = deque.popFirst() { removed.append(value) }
    #expect(removed == expected)
    #expect(deque.isEmpty)
    #expect(deque.popFirst() == nil)
  }

  @Test("removeAll empties the queue and releases the elements, and the queue stays usable")
  func removeAllReleases() {
    final class Token {}
    var deque = _Deque<Token>()
    weak var first: Token?
    do {
      let token = Token()
      first = token
      deque.append(token)
      deque.append(Token())
    }
    #expect(first != nil)
    deque.removeAll()
    #expect(first == nil)
    #expect(deque.isEmpty)
    deque.append(Token())
    #expect(deque.count == 1)
  }

  @Test("an element popped is released at once, not kept by the ring")
  func popReleases() {
    final class Token {}
    var deque = _Deque<Token>()
    weak var watched: Token?
    do {
      let token = Token()
      watched = token
      deque.append(token)
    }
    _ = deque.popFirst()
    #expect(watched == nil)
  }

  @Test("removeFirst(where:) removes the first match only and keeps the others in order")
  func removeFirstWhere() {
    var deque = _Deque<Int>(minimumCapacity: 3)
    for value in [5, 1, 7, 1, 9] { deque.append(value) }
    _ = deque.popFirst()  // the head is not at index 0 of the ring
    deque.append(3)
    #expect(deque.removeFirst(where: { $0 == 1 }) == 1)
    #expect(deque.removeFirst(where: { $0 == 42 }) == nil)
    var rest: [Int] = []
    while let value = deque.popFirst() { rest.append(value) }
    #expect(rest == [7, 1, 9, 3])
  }
}
