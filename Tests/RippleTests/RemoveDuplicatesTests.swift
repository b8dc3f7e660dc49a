import Observation
import RippleTesting
import Testing

@testable import Ripple

@Suite("removeDuplicates")
struct RemoveDuplicatesTests {
  @Test(
    "skips only elements equal to the one delivered just before",
    arguments: [
      ([], []),
      ([1], [1]),
      ([1, 1, 1], [1]),
      ([1, 1, 2, 2, 2, 1, 3, 3], [1, 2, 1, 3]),
      ([1, 2, 1, 2], [1, 2, 1, 2]),
    ] as [([Int], [Int])])
  func equatable(input: [Int], expected: [Int]) async {
    var output: [Int] = []
    for await value in finiteStream(input).removeDuplicates() {
      output.append(value)
    }
    #expect(output == expected)
  }

  @Test("treats nil like any other value")
  func optionals() async {
    var output: [Int?] = []
    for await value in finiteStream([nil, nil, 1, 1, nil, 2] as [Int?]).removeDuplicates() {
      output.append(value)
    }
    #expect(output == [nil, 1, nil, 2])
  }

  @Test("compares with the last delivered element, as the predicate decides")
  func predicate() async {
    var output: [String] = []
    let words = finiteStream(["apple", "avocado", "banana", "blueberry", "apricot", "cherry"])
    for await word in words.removeDuplicates(by: { $0.first == $1.first }) {
      output.append(word)
    }
    #expect(output == ["apple", "banana", "apricot", "cherry"])
  }

  @Test("calls the predicate with (last delivered, next), on the consumer's isolation")
  @MainActor func predicateArguments() async {
    // `calls` is main-actor state the predicate mutates without `@Sendable` or `await`.
    var calls: [[Int]] = []
    var output: [Int] = []
    // Keeps an element when it is at least 2 above the last one kept.
    for await value in finiteStream([1, 2, 3, 4, 10]).removeDuplicates(by: { last, next in
      calls.append([last, next])
      return next - last < 2
    }) {
      output.append(value)
    }
    #expect(output == [1, 3, 10])
    #expect(calls == [[1, 2], [1, 3], [3, 4], [3, 10]])
  }

  @Test("rethrows the base's error after the elements before it")
  func baseError() async {
    var output: [Int] = []
    do {
      for try await value in failingStream([1, 1, 2]).removeDuplicates() {
        output.append(value)
      }
      Issue.record("expected the base's error")
    } catch {
      #expect(error as? Boom == .boom)
    }
    #expect(output == [1, 2])
  }

  @Test("a predicate of a throwing base may throw the base's error type")
  func predicateError() async throws {
    var iterator = BoomFailing(finiteStream([1, 2, 3])).removeDuplicates { (_, next) throws(Boom) -> Bool in
      if next == 3 { throw .boom }
      return false
    }.makeAsyncIterator()
    #expect(try await iterator.next() == 1)
    #expect(try await iterator.next() == 2)
    await #expect(throws: Boom.boom) { try await iterator.next() }
    #expect(try await iterator.next() == nil)  // the error ended iteration, as it does for `filter`
  }

  @Test("with a predicate, the sequence composes: combineLatest takes it across tasks")
  @MainActor func composesWithCombineLatest() async {
    let form = Measurements()
    var sums = tolerantSums(form).makeAsyncIterator()
    #expect(await sums.next(isolation: MainActor.shared) == 3)
    form.a = 1.004  // within the tolerance: not a change
    form.b = 3
    #expect(await sums.next(isolation: MainActor.shared) == 4)
  }

  @Test("with a predicate, the sequence composes: debounce takes it")
  func composesWithDebounce() async {
    let clock = TestClock()
    let settled = await clock.lockstep {
      async let values: [Int] = {
        var values: [Int] = []
        for await value in settledValues(finiteStream([1, 1, 2]), clock: clock) { values.append(value) }
        return values
      }()
      await clock.advance(by: .seconds(1))
      return await values
    }
    #expect(settled == [2])
  }

  @Test("a non-throwing base gives a non-throwing sequence")
  func typedThrows() async {
    let sequence = finiteStream([1, 1]).removeDuplicates()
    // Compiles without `try`: `Failure` is `Never`.
    var iterator = sequence.makeAsyncIterator()
    #expect(await iterator.next() == 1)
    #expect(await iterator.next() == nil)
    #expect(type(of: sequence).Failure.self == Never.self)
  }

  @Test("an async predicate may await, here an actor's tolerance, and stays non-throwing")
  func asyncPredicate() async {
    let settings = ToleranceSettings(tolerance: 2)
    var output: [Int] = []
    // Compiles without `try`: the predicate awaits but throws nothing.
    for await value in finiteStream([1, 2, 3, 4, 10, 11]).removeDuplicates(by: { last, next in
      await settings.isWithinTolerance(next - last)
    }) {
      output.append(value)
    }
    #expect(output == [1, 3, 10])
  }

  @Test("a predicate throwing what the base does not picks the throwing sequence, which ends with the error")
  func throwingPredicate() async throws {
    let sequence = finiteStream([1, 1, 2, -1, 3]).removeDuplicates { (last: Int, next: Int) throws -> Bool in
      guard next >= 0 else { throw Boom.boom }
      return last == next
    }
    #expect(type(of: sequence) == AsyncThrowingRemoveDuplicatesSequence<AsyncStream<Int>>.self)
    var iterator = sequence.makeAsyncIterator()
    #expect(try await iterator.next() == 1)
    #expect(try await iterator.next() == 2)
    await #expect(throws: Boom.boom) { try await iterator.next() }
    // Unlike swift-async-algorithms' throwing variant, the error ends the sequence: 3 is never delivered.
    #expect(try await iterator.next() == nil)
  }

  @Test("the throwing sequence delivers the base's error, then ends")
  func throwingPredicateBaseError() async throws {
    var iterator = failingStream([1, 1, 2]).removeDuplicates { (last: Int, next: Int) async throws -> Bool in
      last == next
    }.makeAsyncIterator()
    #expect(try await iterator.next() == 1)
    #expect(try await iterator.next() == 2)
    await #expect(throws: Boom.boom) { try await iterator.next() }
    #expect(try await iterator.next() == nil)
  }

  @Test("a predicate that throws nothing, or the base's error type, keeps the typed sequence")
  func typedOverloadPreferred() {
    let nonThrowing = finiteStream([1]).removeDuplicates(by: { $0 == $1 })
    #expect(type(of: nonThrowing) == AsyncRemoveDuplicatesByPredicateSequence<AsyncStream<Int>>.self)
    // A base failing with `any Error` takes a throwing predicate on the typed overload: nothing to widen.
    let anyError = failingStream([1]).removeDuplicates { (last: Int, next: Int) throws -> Bool in last == next }
    #expect(
      type(of: anyError) == AsyncRemoveDuplicatesByPredicateSequence<AsyncThrowingStream<Int, any Error>>.self)
  }
}

/// A tolerance behind an actor, for a predicate that must await it.
actor ToleranceSettings {
  private let tolerance: Int

  init(tolerance: Int) {
    self.tolerance = tolerance
  }

  func isWithinTolerance(_ difference: Int) -> Bool {
    difference < tolerance
  }
}

/// Gives any non-throwing sequence of `Int` the failure type ``Boom``, for closures that throw it.
struct BoomFailing<Base: AsyncSequence<Int, Never>>: AsyncSequence {
  typealias Failure = Boom
  let base: Base

  init(_ base: Base) {
    self.base = base
  }

  func makeAsyncIterator() -> Iterator {
    Iterator(base: base.makeAsyncIterator())
  }

  struct Iterator: AsyncIteratorProtocol {
    var base: Base.AsyncIterator

    mutating func next(isolation actor: isolated (any Actor)? = #isolation) async throws(Boom) -> Int? {
      await base.next(isolation: actor)
    }
  }
}

/// Two measurements on the main actor, compared within a tolerance.
@MainActor @Observable final class Measurements {
  var a = 1.0
  var b = 2.0
  var tolerance = 0.01
}

/// Compiles only if `removeDuplicates(by:)` with a predicate reading main-actor state gives a `Sendable`
/// sequence that `combineLatest` accepts.
@MainActor func tolerantSums(_ form: Measurements) -> some AsyncSequence<Double, Never> {
  combineLatest(
    Observed { form.a }.removeDuplicates(by: { abs($0 - $1) < form.tolerance }),
    Observed { form.b }
  ).map(+)
}

/// Compiles only if `removeDuplicates(by: ==)` can be debounced.
func settledValues(_ values: AsyncStream<Int>, clock: TestClock) -> some AsyncSequence<Int, Never> {
  values.removeDuplicates(by: ==).debounce(for: .seconds(1), clock: clock)
}
