import Testing

@testable import Ripple

@Suite("merge", .timeLimit(.minutes(1)))
struct MergeTests {
  // MARK: Elements

  @Test("delivers elements as they arrive, from whichever base")
  func interleaves() async throws {
    let a = ControlledSequence<Int>()
    let b = ControlledSequence<Int>()
    var iterator = merge(a, b).makeAsyncIterator()
    var output: [Int?] = []
    a.send(1)
    output.append(try await iterator.next())
    b.send(10)
    output.append(try await iterator.next())
    b.send(20)
    output.append(try await iterator.next())
    a.send(2)
    output.append(try await iterator.next())
    #expect(output == [1, 10, 20, 2])
  }

  /// Element `j` of base `i` is `1000 * i + j`.
  static func tagged(_ counts: [Int]) -> [[Int]] {
    counts.indices.map { base in (0..<counts[base]).map { 1000 * base + $0 } }
  }

  /// Checks that `output` holds every element of `inputs` once, each base's elements in their order.
  static func expectEveryElementOnce(_ output: [Int], of inputs: [[Int]]) {
    #expect(output.sorted() == inputs.joined().sorted())
    for (base, input) in inputs.enumerated() {
      #expect(output.filter { $0 / 1000 == base } == input)
    }
  }

  @Test(
    "two finite bases: every element exactly once, each base's order kept",
    arguments: [[3, 5], [0, 4], [4, 0], [0, 0], [200, 200]])
  func everyElementOnceOfTwo(counts: [Int]) async {
    let inputs = Self.tagged(counts)
    var output: [Int] = []
    for await element in merge(finiteStream(inputs[0]), finiteStream(inputs[1])) {
      output.append(element)
    }
    Self.expectEveryElementOnce(output, of: inputs)
  }

  @Test(
    "three finite bases: every element exactly once, each base's order kept",
    arguments: [[3, 5, 1], [0, 0, 4], [7, 0, 2], [100, 100, 100]])
  func everyElementOnceOfThree(counts: [Int]) async {
    let inputs = Self.tagged(counts)
    var output: [Int] = []
    for await element in merge(finiteStream(inputs[0]), finiteStream(inputs[1]), finiteStream(inputs[2])) {
      output.append(element)
    }
    Self.expectEveryElementOnce(output, of: inputs)
  }

  @Test("a collection of bases: every element exactly once, each base's order kept", arguments: [0, 1, 2, 50])
  func everyElementOnceOfMany(count: Int) async {
    let inputs = Self.tagged((0..<count).map { $0 % 5 })
    var output: [Int] = []
    for await element in merge(inputs.map(finiteStream)) {
      output.append(element)
    }
    Self.expectEveryElementOnce(output, of: inputs)
    if count == 0 { #expect(output.isEmpty) }
  }

  @Test("one base behaves like that base")
  func singleBase() async throws {
    let a = ControlledSequence<Int>()
    var iterator = merge([a]).makeAsyncIterator()
    a.send(1)
    a.send(2)
    #expect(try await iterator.next() == 1)
    #expect(try await iterator.next() == 2)
    a.send(3)
    a.finish()
    #expect(try await iterator.next() == 3)
    #expect(try await iterator.next() == nil)
    #expect(await a.ending() == false)
  }

  @Test("merge(a, b) compiles without try in a main-actor task over non-throwing bases")
  @MainActor func nonThrowingOnMainActor() async {
    let (a, aInput) = AsyncStream.makeStream(of: Int.self)
    let (b, bInput) = AsyncStream.makeStream(of: Int.self)
    let task = Task { @MainActor in
      var total = 0
      for await x in merge(a, b).map({ $0 * 2 }) {
        total += x
      }
      return total
    }
    aInput.yield(1)
    bInput.yield(10)
    aInput.finish()
    bInput.finish()
    #expect(await task.value == 22)
  }

  // MARK: Finishing

  @Test("finishes only when every base has finished, cancelling none")
  func finishesWhenAllFinish() async throws {
    let a = ControlledSequence<Int>()
    let b = ControlledSequence<Int>()
    var iterator = merge(a, b).makeAsyncIterator()
    a.finish()
    b.send(1)
    #expect(try await iterator.next() == 1)
    #expect(await a.ending() == false)
    b.finish()
    #expect(try await iterator.next() == nil)
    #expect(try await iterator.next() == nil)
    #expect(await b.ending() == false)
  }

  // MARK: Errors and cancellation

  @Test("an error ends it, cancels the other bases and is thrown once", arguments: [false, true])
  func errorStopsEverything(otherHasAnElement: Bool) async throws {
    let a = ControlledSequence<Int>()
    let b = ControlledSequence<Int>()
    var iterator = merge(a, b).makeAsyncIterator()
    a.send(1)
    #expect(try await iterator.next() == 1)
    if otherHasAnElement { b.send(2) }
    a.fail()
    #expect(await b.ending() == true)
    // `b`'s element, if it got in, may or may not precede the error; the error comes, once.
    var output: [Int] = []
    do {
      while let element = try await iterator.next() { output.append(element) }
      Issue.record("expected the base's error")
    } catch {
      #expect(error == .boom)
    }
    #expect(output.allSatisfy { $0 == 2 })
    #expect(try await iterator.next() == nil)
  }

  @Test("cancelling the consuming task cancels every base and ends iteration")
  func cancellationStopsBases() async throws {
    let a = ControlledSequence<Int>()
    let b = ControlledSequence<Int>()
    let received = Signal()
    let consumer = Task {
      var iterator = merge(a, b).makeAsyncIterator()
      let first = try await iterator.next()
      received.ready()
      let afterCancellation = try await iterator.next()
      return (first, afterCancellation)
    }
    a.send(1)
    await received.wait()
    consumer.cancel()
    #expect(await a.ending() == true)
    #expect(await b.ending() == true)
    let (first, afterCancellation) = try await consumer.value
    #expect(first == 1)
    #expect(afterCancellation == nil)
  }

  @Test("dropping the iterator cancels every base")
  func droppingTheIteratorStopsBases() async throws {
    let a = ControlledSequence<Int>()
    let b = ControlledSequence<Int>()
    a.send(1)
    a.send(2)
    for try await element in merge(a, b) {
      #expect(element == 1)
      break
    }
    #expect(await a.ending() == true)
    #expect(await b.ending() == true)
  }
}
