import Testing

@testable import Ripple

@Suite("combineLatest", .timeLimit(.minutes(1)))
struct CombineLatestTests {
  // MARK: Elements

  @Test("before the first pair a burst folds into its latest element; from the first pair on, none is skipped")
  func burstBeforeTheFirstPairFolds() async throws {
    let a = ControlledSequence<Int>()
    let b = ControlledSequence<String>()
    var iterator = combineLatest(a, b).makeAsyncIterator()
    a.send(1)
    a.send(2)
    a.send(3)
    b.send("x")
    // How much of a's burst its producer absorbed before "x" arrived depends on scheduling; what follows must not.
    var pairs: [String] = []
    while pairs.last != "3x", pairs.count < 3 {
      pairs.append(try await iterator.next().map { "\($0)\($1)" } ?? "nil")
    }
    #expect([["1x", "2x", "3x"], ["2x", "3x"], ["3x"]].contains(pairs))
    b.send("y")
    #expect(try await iterator.next().map { "\($0)\($1)" } == "3y")
  }

  @Test("an error from a base that produced ends the sequence, though another base has not produced yet")
  func errorBeforeTheFirstPair() async {
    let a = ControlledSequence<Int>()
    let b = ControlledSequence<Int>()
    var iterator = combineLatest(a, b).makeAsyncIterator()
    a.send(1)
    a.fail()
    do {
      _ = try await iterator.next()
      Issue.record("no error")
    } catch {
      #expect(error == .boom)
    }
    #expect(await b.ending() == true)
  }

  @Test("a base that produced and finished before the other produced still counts, with its last element")
  func finishedBaseKeepsItsLatest() async throws {
    let a = ControlledSequence<Int>()
    let b = ControlledSequence<Int>()
    let consumer = Task {
      var iterator = combineLatest(a, b).makeAsyncIterator()
      let first = try await iterator.next().map { [$0, $1] }
      return (first, try await iterator.next() == nil)
    }
    a.send(1)
    a.send(2)
    a.finish()
    #expect(await a.ending() == false)  // a finished on its own, read to its end before b produced
    b.send(10)
    b.finish()
    let (first, ended) = try await consumer.value
    #expect(first == [2, 10])
    #expect(ended)
  }

  @Test("after the first pair, every element of either base gives a pair with the other's latest")
  func everyElementGivesAPair() async throws {
    let a = ControlledSequence<Int>()
    let b = ControlledSequence<Int>()
    var iterator = combineLatest(a, b).makeAsyncIterator()
    var pairs: [[Int]] = []
    a.send(1)
    b.send(10)
    pairs.append(try await iterator.next().map { [$0, $1] } ?? [])
    b.send(20)
    pairs.append(try await iterator.next().map { [$0, $1] } ?? [])
    a.send(2)
    pairs.append(try await iterator.next().map { [$0, $1] } ?? [])
    a.send(3)
    pairs.append(try await iterator.next().map { [$0, $1] } ?? [])
    #expect(pairs == [[1, 10], [1, 20], [2, 20], [3, 20]])
  }

  @Test("the first pair is right whether the consumer or the last base arrives last")
  func firstPairUnderRaces() async throws {
    // Both orders happen over the repetitions; each must give the same pair.
    for round in 0..<200 {
      let a = ControlledSequence<Int>()
      let b = ControlledSequence<Int>()
      let consumer = Task {
        var iterator = combineLatest(a, b).makeAsyncIterator()
        let first = try await iterator.next().map { [$0, $1] }
        b.send(round + 1)
        let second = try await iterator.next().map { [$0, $1] }
        return [first, second]
      }
      a.send(round)
      b.send(-round)
      #expect(try await consumer.value == [[round, -round], [round, round + 1]])
    }
  }

  @Test("three bases give triples of their latest elements")
  func triples() async throws {
    let a = ControlledSequence<Int>()
    let b = ControlledSequence<String>()
    let c = ControlledSequence<Bool>()
    var iterator = combineLatest(a, b, c).makeAsyncIterator()
    a.send(1)
    b.send("x")
    c.send(true)
    var triples: [String] = []
    triples.append(try await iterator.next().map { "\($0)\($1)\($2)" } ?? "nil")
    b.send("y")
    triples.append(try await iterator.next().map { "\($0)\($1)\($2)" } ?? "nil")
    c.send(false)
    triples.append(try await iterator.next().map { "\($0)\($1)\($2)" } ?? "nil")
    a.finish()
    b.finish()
    c.finish()
    triples.append(try await iterator.next().map { "\($0)\($1)\($2)" } ?? "nil")
    #expect(triples == ["1xtrue", "1ytrue", "1yfalse", "nil"])
  }

  @Test("combineLatest(a, b).map(+) compiles in a main-actor task over non-throwing bases")
  @MainActor func mapPlusOnMainActor() async {
    let (a, aInput) = AsyncStream.makeStream(of: Int.self)
    let (b, bInput) = AsyncStream.makeStream(of: Int.self)
    let task = Task { @MainActor in
      var sums: [Int] = []
      for await x in combineLatest(a, b).map(+) {
        sums.append(x)
      }
      return sums
    }
    aInput.yield(1)
    bInput.yield(10)
    aInput.finish()
    bInput.finish()
    #expect(await task.value == [11])
  }

  // MARK: Finishing

  @Test("finishes once every base has finished, after their last elements, cancelling none")
  func finishesWhenAllFinish() async throws {
    let a = ControlledSequence<Int>()
    let b = ControlledSequence<Int>()
    var iterator = combineLatest(a, b).makeAsyncIterator()
    a.send(1)
    b.send(10)
    a.finish()
    #expect(try await iterator.next().map { [$0, $1] } == [1, 10])
    b.send(20)
    #expect(try await iterator.next().map { [$0, $1] } == [1, 20])
    b.finish()
    #expect(try await iterator.next() == nil)
    #expect(try await iterator.next() == nil)
    #expect(await a.ending() == false)
    #expect(await b.ending() == false)
  }

  @Test("finishes as soon as a base finishes without producing, cancelling the others", arguments: [false, true])
  func finishesWhenABaseNeverProduces(otherHasAnElement: Bool) async throws {
    let a = ControlledSequence<Int>()
    let b = ControlledSequence<Int>()
    var iterator = combineLatest(a, b).makeAsyncIterator()
    if otherHasAnElement { a.send(1) }
    b.finish()
    #expect(try await iterator.next() == nil)
    #expect(await a.ending() == true)
    #expect(await b.ending() == false)
  }

  // MARK: Errors and cancellation

  @Test("an error from one base cancels the others and is thrown once")
  func errorStopsEverything() async throws {
    let a = ControlledSequence<Int>()
    let b = ControlledSequence<Int>()
    var iterator = combineLatest(a, b).makeAsyncIterator()
    a.send(1)
    b.send(10)
    #expect(try await iterator.next().map { [$0, $1] } == [1, 10])
    b.fail()
    await #expect(throws: Boom.boom) { try await iterator.next() }
    #expect(await a.ending() == true)
    #expect(try await iterator.next() == nil)
  }

  @Test("an error that arrives while no one waits is thrown by the next next()")
  func errorWhileIdle() async throws {
    let a = ControlledSequence<Int>()
    let b = ControlledSequence<Int>()
    var iterator = combineLatest(a, b).makeAsyncIterator()
    a.send(1)
    b.send(10)
    #expect(try await iterator.next().map { [$0, $1] } == [1, 10])
    a.fail()
    // `b` is cancelled when the error arrives, so once it reports, the error is stored.
    #expect(await b.ending() == true)
    await #expect(throws: Boom.boom) { try await iterator.next() }
    #expect(try await iterator.next() == nil)
  }

  @Test("cancelling the consuming task cancels every base and ends iteration")
  func cancellationStopsBases() async {
    let a = ControlledSequence<Int>()
    let b = ControlledSequence<Int>()
    let received = Signal()
    let consumer = Task {
      var iterator = combineLatest(a, b).makeAsyncIterator()
      let first = try await iterator.next()
      received.ready()
      let afterCancellation = try await iterator.next()
      return (first.map { [$0, $1] }, afterCancellation == nil)
    }
    a.send(1)
    b.send(10)
    await received.wait()
    consumer.cancel()
    #expect(await a.ending() == true)
    #expect(await b.ending() == true)
    let (first, ended) = try! await consumer.value
    #expect(first == [1, 10])
    #expect(ended)
  }

  @Test("dropping the iterator cancels every base")
  func droppingTheIteratorStopsBases() async throws {
    let a = ControlledSequence<Int>()
    let b = ControlledSequence<Int>()
    a.send(1)
    b.send(10)
    a.send(2)
    for try await pair in combineLatest(a, b) {
      #expect(pair == (1, 10) || pair == (2, 10))
      break
    }
    #expect(await a.ending() == true)
    #expect(await b.ending() == true)
  }

  // MARK: Runtime arity

  @Test("a collection of bases gives arrays, in the bases' order", arguments: [0, 1, 2, 50])
  func collection(count: Int) async {
    // Base `i` produces `i`, then `100 + i`, then finishes.
    let bases = (0..<count).map { finiteStream([$0, 100 + $0]) }
    var arrays: [[Int]] = []
    for await values in combineLatest(bases) {
      arrays.append(values)
    }
    guard count > 0 else {
      #expect(arrays.isEmpty)
      return
    }
    // One array with every base's latest element — the first or, if the base got that far before the last base
    // produced, the second — then one per second element still to come, each changing one position.
    let first = try! #require(arrays.first)
    #expect(first.indices.allSatisfy { first[$0] == $0 || first[$0] == 100 + $0 })
    #expect(arrays.count == 1 + first.indices.filter { first[$0] == $0 }.count)
    #expect(arrays.last == Array(100..<(100 + count)))
    for (previous, next) in zip(arrays, arrays.dropFirst()) {
      let changed = previous.indices.filter { previous[$0] != next[$0] }
      #expect(changed.count == 1)
      #expect(changed.allSatisfy { next[$0] == previous[$0] + 100 })
    }
  }

  @Test("one base behaves like that base, each element in a one-element array")
  func singleBase() async throws {
    let a = ControlledSequence<Int>()
    var iterator = combineLatest([a]).makeAsyncIterator()
    a.send(1)
    #expect(try await iterator.next() == [1])
    a.send(2)
    a.send(3)
    #expect(try await iterator.next() == [2])
    #expect(try await iterator.next() == [3])
    a.fail()
    await #expect(throws: Boom.boom) { try await iterator.next() }
    #expect(try await iterator.next() == nil)
  }
}
