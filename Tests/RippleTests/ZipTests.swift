import Testing

@testable import Ripple

@Suite("zip", .timeLimit(.minutes(1)))
struct ZipTests {
  // MARK: Elements

  @Test("pairs the bases' elements in step, whichever base is faster")
  func pairsInStep() async throws {
    let a = ControlledSequence<Int>()
    let b = ControlledSequence<String>()
    var iterator = zip(a, b).makeAsyncIterator()
    a.send(1)
    a.send(2)
    b.send("x")
    var pair = try await iterator.next()
    #expect(pair?.0 == 1 && pair?.1 == "x")
    b.send("y")
    b.send("z")
    pair = try await iterator.next()
    #expect(pair?.0 == 2 && pair?.1 == "y")
    a.send(3)
    pair = try await iterator.next()
    #expect(pair?.0 == 3 && pair?.1 == "z")
  }

  @Test(
    "finite bases: as many tuples as the shortest base has elements, in order",
    arguments: [[3, 5], [5, 3], [0, 4], [4, 0], [0, 0], [200, 200]])
  func shortestBaseDecides(counts: [Int]) async {
    var output: [String] = []
    for await (number, letter) in zip(
      finiteStream(Array(0..<counts[0])), finiteStream(Array(0..<counts[1]).map { "l\($0)" }))
    {
      output.append("\(number)\(letter)")
    }
    #expect(output == (0..<counts.min()!).map { "\($0)l\($0)" })
  }

  @Test("three bases of different element types: triples in step", arguments: [[3, 5, 1], [4, 4, 4], [0, 2, 2]])
  func triples(counts: [Int]) async {
    var output: [String] = []
    let zipped = zip(
      finiteStream(Array(0..<counts[0])), finiteStream(Array(0..<counts[1]).map(String.init)),
      finiteStream(Array(0..<counts[2]).map(Double.init)))
    for await (int, string, double) in zipped {
      output.append("\(int)/\(string)/\(double)")
    }
    #expect(output == (0..<counts.min()!).map { "\($0)/\($0)/\(Double($0))" })
  }

  @Test("a collection of bases: arrays in step, in the collection's order", arguments: [0, 1, 2, 50])
  func collectionOfBases(count: Int) async {
    let inputs = (0..<count).map { base in (0..<(3 + base % 4)).map { 1000 * base + $0 } }
    var output: [[Int]] = []
    for await values in zip(inputs.map(finiteStream)) {
      output.append(values)
    }
    let length = inputs.map(\.count).min() ?? 0
    #expect(output == (0..<length).map { step in inputs.map { $0[step] } })
    if count == 0 { #expect(output.isEmpty) }
  }

  @Test("zip(a, b) compiles without try in a main-actor task over non-throwing bases")
  @MainActor func nonThrowingOnMainActor() async {
    let (a, aInput) = AsyncStream.makeStream(of: Int.self)
    let (b, bInput) = AsyncStream.makeStream(of: Int.self)
    let task = Task { @MainActor in
      var total = 0
      for await product in zip(a, b).map(*) {
        total += product
      }
      return total
    }
    aInput.yield(2)
    aInput.yield(3)
    bInput.yield(10)
    bInput.yield(100)
    aInput.finish()
    #expect(await task.value == 320)
  }

  @Test("a base's end ends it even while the other base has elements not yet paired")
  func endDropsUnpairedElements() async throws {
    let a = ControlledSequence<Int>()
    let b = ControlledSequence<Int>()
    var iterator = zip(a, b).makeAsyncIterator()
    for element in 1...3 { a.send(element) }
    b.send(10)
    let first = try await iterator.next()
    #expect(first?.0 == 1 && first?.1 == 10)
    // `a` has 2 and 3 to give, but no pair can be complete once `b` has finished.
    b.finish()
    #expect(try await iterator.next() == nil)
    #expect(await a.ending() == true)
  }

  // MARK: Finishing

  @Test("finishes as soon as either base finishes, cancelling the other", arguments: [0, 1])
  func finishesWithEitherBase(finishing: Int) async throws {
    let a = ControlledSequence<Int>()
    let b = ControlledSequence<Int>()
    var iterator = zip(a, b).makeAsyncIterator()
    a.send(1)
    b.send(2)
    let pair = try await iterator.next()
    #expect(pair?.0 == 1 && pair?.1 == 2)
    let (finished, other) = finishing == 0 ? (a, b) : (b, a)
    finished.finish()
    #expect(try await iterator.next() == nil)
    #expect(try await iterator.next() == nil)
    #expect(await finished.ending() == false)
    #expect(await other.ending() == true)
  }

  // MARK: Errors and cancellation

  @Test("an error ends it, cancels the other base and is thrown once", arguments: [false, true])
  func errorStopsEverything(otherHasAnElement: Bool) async throws {
    let a = ControlledSequence<Int>()
    let b = ControlledSequence<Int>()
    var iterator = zip(a, b).makeAsyncIterator()
    a.send(1)
    b.send(1)
    _ = try await iterator.next()
    if otherHasAnElement { b.send(2) }
    a.fail()
    #expect(await b.ending() == true)
    do {
      _ = try await iterator.next()
      Issue.record("expected the base's error")
    } catch {
      #expect(error == .boom)
    }
    #expect(try await iterator.next() == nil)
  }

  @Test("cancelling the consuming task cancels every base and ends iteration")
  func cancellationStopsBases() async throws {
    let a = ControlledSequence<Int>()
    let b = ControlledSequence<Int>()
    let received = Signal()
    let consumer = Task {
      var iterator = zip(a, b).makeAsyncIterator()
      let first = try await iterator.next()
      received.ready()
      let afterCancellation = try await iterator.next()
      return (first?.0, afterCancellation == nil)
    }
    a.send(1)
    b.send(2)
    await received.wait()
    consumer.cancel()
    #expect(await a.ending() == true)
    #expect(await b.ending() == true)
    let (first, ended) = try await consumer.value
    #expect(first == 1)
    #expect(ended)
  }

  @Test("dropping the iterator cancels every base")
  func droppingTheIteratorStopsBases() async throws {
    let a = ControlledSequence<Int>()
    let b = ControlledSequence<Int>()
    a.send(1)
    b.send(1)
    for try await pair in zip(a, b) {
      #expect(pair.0 == 1)
      break
    }
    #expect(await a.ending() == true)
    #expect(await b.ending() == true)
  }
}
