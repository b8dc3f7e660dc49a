import RippleTesting
import Synchronization
import Testing

@testable import Ripple

// The scenarios of swift-async-algorithms' own tests for the part-2 operators (TestChunk, TestReductions,
// TestInterspersed, TestJoin, TestAdjacentPairs, TestRemoveDuplicates, TestThrottle, TestLazy,
// TestBufferedByteIterator), written anew against Ripple: same inputs, the result a user of either library expects.
// Where Ripple differs on purpose the test pins Ripple's documented result and says what swift-async-algorithms
// gives. Diagrams: one tick a second, the clock starting at zero (swift-async-algorithms' harness counts its first
// column as tick 1, so a timer of n steps fires one column earlier there than a timer of n seconds here).

// MARK: - Support

/// The elements a throwing sequence gave before it threw, the error, and what `next()` returned after it.
private func collectUntilError<S: AsyncSequence>(
  _ sequence: S
) async -> (elements: [S.Element], error: (any Error)?, afterError: S.Element?) {
  var elements: [S.Element] = []
  var iterator = sequence.makeAsyncIterator()
  do {
    while let element = try await iterator.next(isolation: nil) { elements.append(element) }
    return (elements, nil, nil)
  } catch {
    let after = try? await iterator.next(isolation: nil)
    return (elements, error, after ?? nil)
  }
}

/// An endless sequence of one value, as swift-async-algorithms' `Indefinite`.
private struct Forever<Element: Sendable>: Sequence, IteratorProtocol, Sendable {
  let value: Element
  mutating func next() -> Element? { value }
}

/// An endless sequence of one value that suspends before each element and ends when its task is cancelled: the
/// scenario of `Indefinite`, for operators that may skip elements internally (a spinning loop that never suspends
/// would starve the test's own tasks of threads on a small machine).
private struct YieldingForever<Element: Sendable>: AsyncSequence, Sendable {
  let value: Element

  struct Iterator: AsyncIteratorProtocol {
    let value: Element
    mutating func next(isolation actor: isolated (any Actor)? = #isolation) async -> Element? {
      await Task.yield()
      return Task.isCancelled ? nil : value
    }
  }

  func makeAsyncIterator() -> Iterator { Iterator(value: value) }
}

/// Returns `value`, or throws ``Boom/boom`` when it equals `bad`.
private func throwOn<T: Equatable>(_ bad: T, _ value: T) throws -> T {
  if value == bad { throw Boom.boom }
  return value
}

/// Iterates `sequence` in a task until it is cancelled: the task is cancelled once it has seen one element, and
/// the test ends when the task does (the suite's time limit turns "never" into a failure). Returns the elements
/// the task saw after the first that differ from `expected`.
private func endsOnCancellation<S: AsyncSequence & Sendable>(
  _ sequence: S, expecting expected: S.Element
) async -> Int where S.Element: Equatable & Sendable, S.Failure == Never {
  let started = Signal()
  let task = Task {
    var wrong = 0
    var first = true
    for await element in sequence {
      // The consumer suspends now and then, so that a loop over a base that never does leaves threads to others.
      await Task.yield()
      if element != expected { wrong += 1 }
      if first {
        first = false
        started.ready()
      }
    }
    return wrong
  }
  await started.wait()
  task.cancel()
  return await task.value
}

/// A marble pipeline's chunks as values: each chunk's values joined, `'ab'` in a diagram.
private func concat<S: AsyncSequence>(_ chunks: S) -> AsyncMapSequence<S, String> where S.Element == [String] {
  chunks.map { $0.joined() }
}

/// A marble pipeline's chunks of digits as their sum.
private func sum<S: AsyncSequence>(_ chunks: S) -> AsyncMapSequence<S, String> where S.Element == [String] {
  chunks.map { String($0.reduce(0) { $0 + Int($1)! }) }
}

// MARK: - Suite

@Suite("swift-async-algorithms parity: part-2 operators", .timeLimit(.minutes(1)))
struct AAParityTests {
  // MARK: TestChunk

  @Test(
    "TestChunk: signal and count-or-signal diagrams",
    arguments: [
      // (base, signal, count or nil, expected)
      ("ABC-DEF-GHI-|", "---X---X---X|", nil, "---'ABC'---'DEF'---'GHI'|"),  // signal_equalChunks
      ("AB-A-ABCDEFGH-|", "--X-X--------X|", nil, "--'AB'-A--------'ABCDEFGH'|"),  // signal_unequalChunks
      ("--1--|", "XX-XX|", nil, "---1-|"),  // signal_emptyChunks
      ("AB^", "---X|", nil, "--^"),  // signal_error
      ("AB-A-ABCDEFGH-|", "--X-X--------X|", 42, "--'AB'-A--------'ABCDEFGH'|"),  // signalAlwaysPrevails
      ("AB--A-B-|", "--X----X|", 2, "-'AB'----'AB'-|"),  // countAlwaysPrevails
      ("ABCDE-ABCDE|", "-----------|", 5, "----'ABCDE'-----'ABCDE'|"),  // countResetsAfterCount
      ("AB-ABCDE|", "--X-----|", 5, "--'AB'----'ABCDE'|"),  // countResetsAfterSignal
      ("ABC^", "----X|", 5, "---^"),  // signalAndCount_error
    ] as [(String, String, Int?, String)])
  func chunkSignal(base: String, signal: String, count: Int?, expected: String) async {
    let output = await marbles(base, signal) { inputs, _ in
      if let count { return concat(inputs[0].chunks(ofCount: count, or: inputs[1])) }
      return concat(inputs[0].chunked(by: inputs[1]))
    }
    #expect(output == expected)
  }

  @Test("TestChunk signal_unsignaledTrailingChunk: the rest at the base's end")
  func chunkSignalTrailing() async {
    let output = await marbles("111-111|", "---X---|") { inputs, _ in sum(inputs[0].chunked(by: inputs[1])) }
    #expect(output == "---3---[3|]")
  }

  @Test(
    "TestChunk: timer and count-or-timer diagrams, AA's, each input one tick later (see the file's header)",
    arguments: [
      // (base, every, count or nil, expected), as swift-async-algorithms writes them
      ("ABC-DEF-GHI-|", 4, nil, "---'ABC'---'DEF'---'GHI'|"),  // time_equalChunks
      ("AB------A-------ABCDEFG-|", 8, nil, "-------'AB'-------A-------'ABCDEFG'|"),  // time_unequalChunks
      ("--1---|", 2, nil, "---1--|"),  // time_emptyChunks
      ("AB^", 5, nil, "--^"),  // time_error
      ("AB------A-------ABCDEFG-|", 8, 42, "-------'AB'-------A-------'ABCDEFG'|"),  // timeAlwaysPrevails
      ("AB--A-B-|", 8, 2, "-'AB'----'AB'-|"),  // timeAndCount_countAlwaysPrevails
      ("ABCDE---ABCDE|", 8, 5, "----'ABCDE'-------'ABCDE'|"),  // timeAndCount_countResetsAfterCount
      ("AB------ABCDE|", 8, 5, "-------'AB'----'ABCDE'|"),  // timeAndCount_countResetsAfterSignal
      ("ABC^", 8, 5, "---^"),  // timeAndCount_error
    ] as [(String, Int, Int?, String)])
  func chunkTimer(base: String, every: Int, count: Int?, expected: String) async {
    // swift-async-algorithms' harness puts the first column at tick 1, the timer starting at 0: one tick of lead.
    let output = await marbles("-" + base) { inputs, clock in
      let timer = AsyncTimerSequence.repeating(every: .seconds(every), clock: clock)
      if let count { return concat(inputs[0].chunks(ofCount: count, or: timer)) }
      return concat(inputs[0].chunked(by: timer))
    }
    #expect(output == "-" + expected)
  }

  @Test("TestChunk time_unsignaledTrailingChunk: the rest at the base's end")
  func chunkTimerTrailing() async {
    let output = await marbles("-111-111|") { inputs, clock in
      sum(inputs[0].chunked(by: .repeating(every: .seconds(4), clock: clock)))
    }
    #expect(output == "----3---[3|]")
  }

  @Test(
    "TestChunk: chunks(ofCount:) diagrams",
    arguments: [
      ("ABCDE|", 1, "ABCDE|"),  // count_one
      ("ABCDEF|", 3, "--'ABC'--'DEF'|"),  // count
      ("A--B-C--DE-F|", 3, "-----'ABC'-----'DEF'|"),  // count_nonuniformTiming
      ("AB^", 3, "--^"),  // count_error
    ])
  func chunkCount(base: String, count: Int, expected: String) async {
    #expect(await marbles(base) { inputs, _ in concat(inputs[0].chunks(ofCount: count)) } == expected)
  }

  @Test("TestChunk count_trailingChunk")
  func chunkCountTrailing() async {
    #expect(await marbles("11111|") { inputs, _ in sum(inputs[0].chunks(ofCount: 3)) } == "--3--[2|]")
  }

  @Test(
    "TestChunk: chunked(by:) with a predicate",
    arguments: [
      ("ABCdefGHijKl|", "---'ABC'--'def'-'GH'-'ij'K[l|]"),  // group
      ("A----|", "-----[A|]"),  // group_singleValue
      ("AB^", "--^"),  // group_error
    ])
  func chunkGroup(base: String, expected: String) async {
    let output = await marbles(base) { inputs, _ in
      concat(inputs[0].chunked(by: { $0.first!.isUppercase == $1.first!.isUppercase }))
    }
    #expect(output == expected)
  }

  @Test("TestChunk group_singleGroup")
  func chunkSingleGroup() async {
    #expect(
      await marbles("ABCDE|") { inputs, _ in concat(inputs[0].chunked(by: { _, _ in true })) } == "-----['ABCDE'|]")
  }

  @Test(
    "TestChunk: chunked(on:)",
    arguments: [
      ("A'Aa''ab'b'BB''bb''cc''CC'|", "---'AAa'--'bBb'-['cC'|]"),  // projection
      ("A----|", "-----[A|]"),  // projection_singleValue
      ("Aa^", "--^"),  // projection_error
    ])
  func chunkProjection(base: String, expected: String) async {
    let output = await marbles(base) { inputs, _ in
      inputs[0].chunked(on: { $0.first!.lowercased() }).map { $0.1.map { String($0.first!) }.joined() }
    }
    #expect(output == expected)
  }

  @Test("TestChunk projection_singleGroup")
  func chunkProjectionSingleGroup() async {
    let output = await marbles("ABCDE|") { inputs, _ in
      inputs[0].chunked(on: { _ in 42 }).map { $0.1.joined() }
    }
    #expect(output == "-----['ABCDE'|]")
  }

  // MARK: TestReductions

  @Test("TestReductions: exclusive reductions, plain and into, plain and throwing; nil past the end")
  func reductions() async throws {
    var plain = [1, 2, 3, 4].async.reductions("") { partial, value in partial + "\(value)" }.makeAsyncIterator()
    var collected: [String] = []
    while let item = await plain.next() { collected.append(item) }
    #expect(collected == ["1", "12", "123", "1234"])
    #expect(await plain.next() == nil)

    var into = [1, 2, 3, 4].async.reductions(into: "") { partial, value in partial.append("\(value)") }
      .makeAsyncIterator()
    collected = []
    while let item = await into.next() { collected.append(item) }
    #expect(collected == ["1", "12", "123", "1234"])
    #expect(await into.next() == nil)

    // A closure written `throws` that does not throw: the throwing sequence, the same elements.
    let throwing = [1, 2, 3, 4].async.reductions("") { (partial, value) throws -> String in partial + "\(value)" }
    let throwingInto = [1, 2, 3, 4].async.reductions(into: "") { (partial, value) throws -> Void in
      partial.append("\(value)")
    }
    #expect(type(of: throwing) == AsyncThrowingExclusiveReductionsSequence<AsyncSyncSequence<[Int]>, String>.self)
    var throwingIterator = throwing.makeAsyncIterator()
    collected = []
    while let item = try await throwingIterator.next() { collected.append(item) }
    #expect(collected == ["1", "12", "123", "1234"])
    #expect(try await throwingIterator.next() == nil)
    let intoResult = await collectUntilError(throwingInto)
    #expect(intoResult.elements == ["1", "12", "123", "1234"] && intoResult.error == nil)
  }

  @Test("TestReductions: the base's error after the results before it, then nil; with either closure")
  func reductionsUpstreamError() async {
    let base = [1, 2, 3, 4].async.map { try throwOn(3, $0) }
    let plain = await collectUntilError(base.reductions("") { partial, value in partial + "\(value)" })
    #expect(plain.elements == ["1", "12"] && plain.error as? Boom == .boom && plain.afterError == nil)
    let throwing = await collectUntilError(
      base.reductions("") { (partial, value) throws -> String in partial + "\(value)" })
    #expect(throwing.elements == ["1", "12"] && throwing.error as? Boom == .boom && throwing.afterError == nil)
  }

  @Test("TestReductions throwing_reductions_into_throws: the closure's error, then nil")
  func reductionsIntoClosureError() async {
    let result = await collectUntilError(
      [1, 2, 3, 4].async.reductions(into: "") { partial, value in
        _ = try throwOn("12", partial)
        partial.append("\(value)")
      })
    #expect(result.elements == ["1", "12"] && result.error as? Boom == .boom && result.afterError == nil)
  }

  @Test("TestReductions test_cancellation: an endless base ends when the consuming task is cancelled")
  func reductionsCancellation() async {
    let sequence = Forever(value: "test").async.reductions(into: "") { partial, value in partial = value }
    #expect(await endsOnCancellation(sequence, expecting: "test") == 0)
  }

  // MARK: TestInterspersed

  @Test("TestInterspersed: between every two elements; empty gives empty; nil past the end")
  func interspersed() async {
    var iterator = [1, 2, 3, 4, 5].async.interspersed(with: 0).makeAsyncIterator()
    var actual: [Int] = []
    while let item = await iterator.next() { actual.append(item) }
    #expect(actual == [1, 0, 2, 0, 3, 0, 4, 0, 5])
    #expect(await iterator.next() == nil)
    #expect(await collect([Int]().async.interspersed(with: 0)).isEmpty)
  }

  @Test("TestInterspersed with_throwing_upstream: a separator only before an element, then the error, then nil")
  func interspersedUpstreamError() async {
    let result = await collectUntilError([1, 2, 3, -1, 4, 5].async.map { try throwOn(-1, $0) }.interspersed(with: 0))
    // swift-async-algorithms gives [1, 0, 2, 0, 3, 0]: it delivers the separator before asking the base for the
    // next element. Ripple delivers a separator only once the element after it has come (Intersperse.md), so the
    // error follows 3 directly.
    #expect(result.elements == [1, 0, 2, 0, 3] && result.error as? Boom == .boom && result.afterError == nil)
  }

  @Test("TestInterspersed test_cancellation")
  func interspersedCancellation() async {
    let task = Task {
      var iterator = Forever(value: "test").async.interspersed(with: "sep").makeAsyncIterator()
      _ = await iterator.next()
      withUnsafeCurrentTask { $0?.cancel() }
      while await iterator.next() != nil {}
      return await iterator.next()
    }
    #expect(await task.value == nil)
  }

  // MARK: TestJoin

  @Test(
    "TestJoin: separator between inner sequences, none around one, nothing for none; nil past the end",
    arguments: [
      ([[1, 2, 3], [4, 5, 6], [7, 8, 9]], [1, 2, 3, -1, -2, -3, 4, 5, 6, -1, -2, -3, 7, 8, 9]),
      ([[1, 2, 3]], [1, 2, 3]),
      ([], []),
    ])
  func joined(inners: [[Int]], expected: [Int]) async {
    var iterator = inners.map { $0.async }.async.joined(separator: [-1, -2, -3].async).makeAsyncIterator()
    var actual: [Int] = []
    while let item = await iterator.next() { actual.append(item) }
    #expect(actual == expected)
    #expect(await iterator.next() == nil)
  }

  @Test("TestJoin test_throwing and test_throwing_separator: the error where it happens, then nil")
  func joinedErrors() async {
    let inners = [[1, 2, 3], [4, 5, 6]].map { inner in inner.async.map { try throwOn(5, $0) } }.async
    let inner = await collectUntilError(inners.joined(separator: [-1, -2, -3].async))
    #expect(inner.elements == [1, 2, 3, -1, -2, -3, 4] && inner.error as? Boom == .boom && inner.afterError == nil)

    let plain = [[1, 2, 3], [4, 5, 6]].map { $0.async }.async
    let separator = [-1, -2, -3].async.map { try throwOn(-2, $0) }
    let failing = await collectUntilError(plain.joined(separator: separator))
    #expect(failing.elements == [1, 2, 3, -1] && failing.error as? Boom == .boom && failing.afterError == nil)
  }

  @Test("TestJoin test_cancellation: an endless inner sequence ends on cancellation, without the separator")
  func joinedCancellation() async {
    let sequence = [Forever(value: "test").async].async.joined(separator: ["past indefinite"].async)
    #expect(await endsOnCancellation(sequence, expecting: "test") == 0)
    #expect(await endsOnCancellation([Forever(value: "test").async].async.joined(), expecting: "test") == 0)
  }

  // MARK: TestAdjacentPairs

  @Test("TestAdjacentPairs: overlapping pairs; one element gives none")
  func adjacentPairs() async {
    let pairs = await collect((1...5).async.adjacentPairs())
    #expect(pairs.map(\.0) == [1, 2, 3, 4] && pairs.map(\.1) == [2, 3, 4, 5])
    #expect(await collect((0..<1).async.adjacentPairs()).isEmpty)
  }

  @Test("TestAdjacentPairs test_cancellation")
  func adjacentPairsCancellation() async {
    let sequence = Forever(value: 0).async.adjacentPairs().map { $0.0 + $0.1 }
    #expect(await endsOnCancellation(sequence, expecting: 0) == 0)
  }

  // MARK: TestRemoveDuplicates

  @Test("TestRemoveDuplicates: equal neighbours, and a predicate given as a trailing closure")
  func removeDuplicates() async {
    #expect(await collect([1, 2, 2, 2, 3, 4, 5, 6, 5, 5].async.removeDuplicates()) == [1, 2, 3, 4, 5, 6, 5])
    let close = [1, 2.001, 2.005, 2.011, 3, 4, 5, 6, 5, 5].async.removeDuplicates() { abs($0 - $1) < 0.01 }
    #expect(await collect(close) == [1, 2.001, 2.011, 3, 4, 5, 6, 5])
  }

  @Test("TestRemoveDuplicates: a throwing predicate's error, and the base's, after the elements before it")
  func removeDuplicatesErrors() async {
    let source = [1, 2, 2, 2, 3, -1, 5, 6, 5, 5]
    let predicate = await collectUntilError(
      source.async.removeDuplicates() { previous, next in
        let next = try throwOn(-1, next)
        return previous == next
      })
    #expect(predicate.elements == [1, 2, 3] && predicate.error as? Boom == .boom)
    let upstream = await collectUntilError(source.async.map { try throwOn(-1, $0) }.removeDuplicates())
    #expect(upstream.elements == [1, 2, 3] && upstream.error as? Boom == .boom)
  }

  @Test("TestRemoveDuplicates test_cancellation: one element, then the end on cancellation")
  func removeDuplicatesCancellation() async {
    let started = Signal()
    let task = Task {
      var count = 0
      for await _ in YieldingForever(value: "test").removeDuplicates() {
        count += 1
        started.ready()
      }
      return count
    }
    await started.wait()
    task.cancel()
    #expect(await task.value == 1)
  }

  // MARK: TestThrottle

  @Test(
    "TestThrottle: where elements are at least an interval apart, or the interval is 0 or 1, the same as AA",
    arguments: [
      ("abcdefghijk|", 0, true, "abcdefghijk|"),  // rate_0
      ("abcdefghijk|", 0, false, "abcdefghijk|"),  // rate_0_leading_edge
      ("abcdefghijk|", 1, true, "abcdefghijk|"),  // rate_1
      ("abcdefghijk|", 1, false, "abcdefghijk|"),  // rate_1_leading_edge
      ("-a-b-c-d-e-f-g-h-i-j-k-|", 1, true, "-a-b-c-d-e-f-g-h-i-j-k-|"),  // emission_2_rate_1
      ("-a-b-c-d-e-f-g-h-i-j-k-|", 2, true, "-a-b-c-d-e-f-g-h-i-j-k-|"),  // emission_2_rate_2
      ("--a--b--c--d--e--f--g|", 2, true, "--a--b--c--d--e--f--g|"),  // emission_3_rate_2
    ] as [(String, Int, Bool, String)])
  func throttleSame(input: String, interval: Int, latest: Bool, expected: String) async {
    let output = await marbles(input) { $0[0].throttle(for: .seconds(interval), clock: $1, latest: latest) }
    #expect(output == expected)
  }

  @Test(
    "TestThrottle: a burst — Ripple emits the held element at the interval's end (Throttle.md), AA on a later input",
    arguments: [
      // (input, interval, latest, Ripple's result; swift-async-algorithms' in the comment)
      ("abcdefghijk|", 2, true, "a-b-d-f-h-j-[k|]"),  // AA rate_2: a-c-e-g-i-k|
      ("abcdefghijk|", 2, false, "a-b-c-e-g-i-[k|]"),  // AA rate_2_leading_edge: a-b-d-f-h-j|
      ("abcdefghijk|", 3, true, "a--c--f--i--[k|]"),  // AA rate_3: a--d--g--j-|
      ("abcdefghijk|", 3, false, "a--b--d--g--[j|]"),  // AA rate_3_leading_edge: a--b--e--h-|
      // The interval ending at 6 emits its element before the error of the same tick is seen.
      ("abcdef^", 2, true, "a-b-d-[f^]"),  // AA throwing (abcdef^hijk|): a-c-e-^
      ("abcdef^", 2, false, "a-b-c-[e^]"),  // AA throwing_leading_edge (abcdef^hijk|): a-b-d-^
      // AA emission_2_rate_3: -a---c---e---g---i---k-|
      ("-a-b-c-d-e-f-g-h-i-j-k-|", 3, true, "-a--b--c--e--f--h--i--k|"),
    ] as [(String, Int, Bool, String)])
  func throttleDiffers(input: String, interval: Int, latest: Bool, expected: String) async {
    let output = await marbles(input) { $0[0].throttle(for: .seconds(interval), clock: $1, latest: latest) }
    #expect(output == expected)
  }

  // MARK: TestLazy

  @Test("TestLazy: an array, a set, an empty array")
  func lazy() async {
    #expect(await collect([1, 2, 3, 4].async) == [1, 2, 3, 4])
    #expect(Set(await collect(Set([1, 2, 3, 4]).async)) == [1, 2, 3, 4])
    #expect(await collect([Int]().async).isEmpty)
  }

  @Test("TestLazy: one makeIterator, one next per element and one for the end, none past the end")
  func lazyIteratorEvents() async {
    let source = ReportingSequence([1, 2, 3])
    #expect(source.events.isEmpty)
    var iterator = source.async.makeAsyncIterator()
    var collected: [Int] = []
    while let item = await iterator.next() { collected.append(item) }
    #expect(collected == [1, 2, 3])
    #expect(source.events == [.makeIterator, .next, .next, .next, .next])
    #expect(await iterator.next() == nil)
    #expect(source.events == [.makeIterator, .next, .next, .next, .next])
  }

  @Test("TestLazy test_lazy_finishes_when_task_is_cancelled")
  func lazyCancellation() async {
    #expect(await endsOnCancellation(Forever(value: "test").async, expecting: "test") == 0)
  }

  // MARK: TestBufferedByteIterator

  @Test("TestBufferedByteIterator immediately_empty: one read of the full capacity, then nil")
  func bytesImmediatelyEmpty() async throws {
    let reads = Atomic(0)
    var iterator = AsyncBufferedByteIterator(capacity: 3) { buffer in
      #expect(buffer.count == 3)
      reads.add(1, ordering: .sequentiallyConsistent)
      return 0
    }
    #expect(reads.load(ordering: .sequentiallyConsistent) == 0)
    #expect(try await iterator.next() == nil)
    #expect(reads.load(ordering: .sequentiallyConsistent) == 1)
  }

  @Test(
    "TestBufferedByteIterator one_pass, three_pass, three_pass_throwing: a read per block, none past the end",
    arguments: [(1, nil), (3, nil), (3, 2)] as [(Int, Int?)])
  func bytesPasses(blocks: Int, failingRead: Int?) async throws {
    let reads = Atomic(0)
    var iterator = AsyncBufferedByteIterator(capacity: 3) { buffer in
      let count = reads.add(1, ordering: .sequentiallyConsistent).oldValue
      if count >= blocks { return 0 }
      if count == failingRead { throw Boom.boom }
      buffer.copyBytes(from: [1, 2, 3])
      return 3
    }
    var failed = false
    blocks: for block in 1...blocks {
      for byte: UInt8 in [1, 2, 3] {
        do {
          #expect(try await iterator.next() == byte)
          #expect(reads.load(ordering: .sequentiallyConsistent) == block)
        } catch {
          #expect(block == 3 && error as? Boom == .boom)
          failed = true
          break blocks
        }
      }
    }
    #expect(failed == (failingRead != nil))
    let readsAtEnd = failingRead == nil ? blocks + 1 : blocks
    #expect(try await iterator.next() == nil)
    #expect(reads.load(ordering: .sequentiallyConsistent) == readsAtEnd)
    #expect(try await iterator.next() == nil)
    #expect(reads.load(ordering: .sequentiallyConsistent) == readsAtEnd)
  }

  @Test("TestBufferedByteIterator test_cancellation: an endless source throws CancellationError")
  func bytesCancellation() async {
    struct RepeatingBytes: AsyncSequence {
      typealias Element = UInt8
      func makeAsyncIterator() -> AsyncBufferedByteIterator {
        AsyncBufferedByteIterator(capacity: 3) { buffer in
          buffer.copyBytes(from: [1, 2, 3])
          return 3
        }
      }
    }
    let started = Signal()
    let task = Task {
      var first = true
      do {
        for try await _ in RepeatingBytes() {
          await Task.yield()
          if first {
            first = false
            started.ready()
          }
        }
        return false
      } catch {
        return error is CancellationError
      }
    }
    await started.wait()
    task.cancel()
    #expect(await task.value)
  }
}

/// A sequence that records the calls made of it, as swift-async-algorithms' `ReportingSequence`.
private final class ReportingSequence<Element: Sendable>: Sequence, IteratorProtocol, @unchecked Sendable {
  // One task at a time touches it: the test's.
  enum Event: Equatable { case makeIterator, next }
  private(set) var events: [Event] = []
  private var elements: [Element]

  init(_ elements: [Element]) { self.elements = elements }

  func makeIterator() -> ReportingSequence {
    events.append(.makeIterator)
    return self
  }

  func next() -> Element? {
    events.append(.next)
    return elements.isEmpty ? nil : elements.removeFirst()
  }
}
