import Testing

@testable import Ripple

@Suite("collection initialisers", .timeLimit(.minutes(1)))
struct CollectionsTests {
  @Test("Array, ContiguousArray and String gather every element in order", arguments: [[], [1], [3, 1, 2, 1]])
  func rangeReplaceable(elements: [Int]) async {
    #expect(await Array(elements.async) == elements)
    #expect(await ContiguousArray(finiteStream(elements)) == ContiguousArray(elements))
    #expect(await String(elements.map { Character(String($0)) }.async) == elements.map(String.init).joined())
  }

  @Test("a source's error is thrown, typed, and the elements gathered are lost")
  func rangeReplaceableThrows() async {
    let source = ControlledSequence<Int>()
    source.send(1)
    source.fail()
    do throws(Boom) {
      _ = try await Array(source)
      Issue.record("no error")
    } catch {
      #expect(error == .boom)
    }
  }

  @Test("a set keeps one of each element")
  func set() async {
    #expect(await Set([3, 1, 3, 2, 1].async) == [1, 2, 3])
    #expect(await Set([Int]().async).isEmpty)
    #expect(await Weekdays([.monday, .friday, .monday].async) == [.monday, .friday])
    await #expect(throws: Boom.boom) { _ = try await Set(failingStream([1])) }
  }

  @Test("uniqueKeysWithValues: every pair", arguments: [0, 1, 5])
  func uniqueKeys(count: Int) async {
    let pairs = (0..<count).map { ($0, String($0)) }
    let dictionary = await Dictionary(uniqueKeysWithValues: pairs.async)
    #expect(dictionary == Dictionary(uniqueKeysWithValues: pairs))
  }

  @Test("uniqueKeysWithValues: a key that comes twice stops the program, naming the key")
  func uniqueKeysTraps() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = await Dictionary(uniqueKeysWithValues: [(1, "a"), (2, "b"), (1, "c")].async)
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("got the key 1 twice"))
  }

  @Test("uniquingKeysWith: combines the kept value with each new one, in order")
  func uniquingKeys() async {
    let words = ["to", "be", "or", "not", "to", "be", "to"].async.map { ($0, 1) }
    #expect(await Dictionary(words, uniquingKeysWith: +) == ["to": 3, "be": 2, "or": 1, "not": 1])
    let latest = await Dictionary([(1, "a"), (1, "b"), (2, "c"), (1, "d")].async) { _, new in new }
    #expect(latest == [1: "d", 2: "c"])
    let orders = await Dictionary([(1, "a"), (1, "b"), (1, "c")].async) { kept, new in kept + new }
    #expect(orders == [1: "abc"])
  }

  @Test("uniquingKeysWith: the closure may throw the source's error type, or another one, and may await")
  func uniquingKeysThrows() async throws {
    let source = ControlledSequence<(Int, Int)>()
    source.send((1, 1))
    source.send((1, 2))
    source.finish()
    do throws(Boom) {
      _ = try await Dictionary(source) { _, _ throws(Boom) in throw .boom }
      Issue.record("no error")
    } catch {
      #expect(error == .boom)
    }
    await #expect(throws: Other.other) {
      _ = try await Dictionary([(1, 1), (1, 2)].async) { _, _ in throw Other.other }
    }
    let counter = Counter()
    let sums = await Dictionary([(1, 1), (1, 2), (1, 3)].async) { kept, new in
      await counter.increment()
      return kept + new
    }
    #expect(sums == [1: 6])
    #expect(await counter.value == 2)
  }

  @Test("grouping(_:by:): each group in the source's order")
  func grouping() async {
    let words = ["apple", "banana", "avocado", "blueberry", "cherry"]
    let groups = await Dictionary(grouping: words.async) { $0.first! }
    #expect(groups == Dictionary(grouping: words) { $0.first! })
    #expect(await Dictionary(grouping: [Int]().async) { $0 }.isEmpty)
  }

  @Test("grouping(_:by:): the closure may throw the source's error type, or another one, and may await")
  func groupingThrows() async throws {
    let source = ControlledSequence<Int>()
    source.send(1)
    source.finish()
    do throws(Boom) {
      _ = try await Dictionary(grouping: source) { _ throws(Boom) -> Int in throw .boom }
      Issue.record("no error")
    } catch {
      #expect(error == .boom)
    }
    await #expect(throws: Other.other) {
      _ = try await Dictionary(grouping: [1].async) { _ -> Int in throw Other.other }
    }
    let counter = Counter()
    let parity = await Dictionary(grouping: [1, 2, 3].async) { number in
      await counter.increment()
      return number % 2
    }
    #expect(parity == [1: [1, 3], 0: [2]])
    #expect(await counter.value == 3)
  }

  @Test("a cancelled task gathers what the source produced before it ended")
  func cancellation() async {
    let probe = CancellationProbe(yielding: ["a", "b"])
    let gathering = Task { await Array(probe) }
    await probe.waitUntilWaiting()
    gathering.cancel()
    #expect(await gathering.value == ["a", "b"])
    #expect(probe.wasCancelled)
  }

  @Test("a source that is not Sendable is gathered on the main actor, closures reading main-actor state")
  @MainActor
  func nonSendableSourceOnTheMainActor() async {
    // The model's source belongs to the main actor: a nonisolated initialiser could not be sent it.
    let model = SourceModel()
    #expect(await Array(model.source) == [1, 2, 3, 4])
    #expect(model.source.made == 1)
    #expect(await Set(NonSendableCounter(upTo: 2)) == [1, 2])
    var calls = 0
    let pairs = await Dictionary(NonSendableCounter(upTo: 3).map { ($0 % 2, $0) }) { kept, new in
      calls += 1
      return kept + new
    }
    #expect(pairs == [1: 4, 0: 2])
    #expect(calls == 1)
    let groups = await Dictionary(grouping: NonSendableCounter(upTo: 3)) { number in
      calls += 1
      return number % 2
    }
    #expect(groups == [1: [1, 3], 0: [2]])
    #expect(calls == 4)
    let counter = Counter()
    let awaited = await Dictionary(grouping: NonSendableCounter(upTo: 2)) { number in
      await counter.increment()
      calls += 1
      return number
    }
    #expect(awaited == [1: [1], 2: [2]])
    #expect(calls == 6)
  }
}

/// A main-actor model that holds a source that is not `Sendable`.
@MainActor private final class SourceModel {
  let source = NonSendableCounter(upTo: 4)
}

private struct Weekdays: OptionSet {
  let rawValue: Int
  static let monday = Weekdays(rawValue: 1)
  static let friday = Weekdays(rawValue: 16)
}

private actor Counter {
  var value = 0
  func increment() { value += 1 }
}

/// A sequence of 1 up to a limit whose iterator is a class: neither is `Sendable`.
private final class NonSendableCounter: AsyncSequence {
  typealias Failure = Never
  let limit: Int
  var made = 0

  init(upTo limit: Int) {
    self.limit = limit
  }

  func makeAsyncIterator() -> Iterator {
    made += 1
    return Iterator(limit: limit)
  }

  final class Iterator: AsyncIteratorProtocol {
    let limit: Int
    var current = 0

    init(limit: Int) {
      self.limit = limit
    }

    func next(isolation actor: isolated (any Actor)? = #isolation) async -> Int? {
      guard current < limit else { return nil }
      current += 1
      return current
    }
  }
}
