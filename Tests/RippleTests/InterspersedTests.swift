import Observation
import RippleTesting
import Testing

@testable import Ripple

@Suite("interspersed", .timeLimit(.minutes(1)))
struct InterspersedTests {
  @Test(
    "a separator between each `every` elements and the next, never first or last",
    arguments: [
      ([], 1, []),
      (["a"], 1, ["a"]),
      (["a", "b"], 1, ["a", "-", "b"]),
      (["a", "b", "c"], 1, ["a", "-", "b", "-", "c"]),
      (["a", "b"], 2, ["a", "b"]),
      (["a", "b", "c", "d"], 2, ["a", "b", "-", "c", "d"]),
      (["a", "b", "c", "d", "e"], 2, ["a", "b", "-", "c", "d", "-", "e"]),
      (["a", "b", "c", "d"], 3, ["a", "b", "c", "-", "d"]),
      (["a", "b", "c"], 5, ["a", "b", "c"]),
    ] as [([String], Int, [String])])
  func separators(input: [String], every: Int, expected: [String]) async throws {
    let value = finiteStream(input).interspersed(every: every, with: "-")
    let closure = finiteStream(input).interspersed(every: every) { "-" }
    let asyncClosure = finiteStream(input).interspersed(every: every) { () async in await Text.dash() }
    let throwingClosure = finiteStream(input).interspersed(every: every) { () throws(Overdrawn) in "-" }
    #expect(await elements(value) == expected)
    #expect(await elements(closure) == expected)
    #expect(await elements(asyncClosure) == expected)
    #expect(try await elements(throwingClosure) == expected)
  }

  @Test("every defaults to 1; the doc comment's example prints one, two, three")
  func defaultEvery() async {
    var printed = ""
    for await word in ["one", "two", "three"].async.interspersed(with: ", ") {
      printed += word
    }
    #expect(printed == "one, two, three")
  }

  @Test("the closure runs once per separator, on the consumer's isolation, when the separator is due")
  @MainActor func closureCalls() async {
    // `made` is main-actor state the closure mutates without `await`.
    var made = 0
    var output: [String] = []
    for await element in finiteStream(["a", "b", "c"]).interspersed(with: {
      made += 1
      return "#\(made)"
    }) {
      output.append(element)
    }
    #expect(output == ["a", "#1", "b", "#2", "c"])
    for await _ in finiteStream(["a"]).interspersed(with: {
      made += 1; return ""
    }) {}
    for await _ in finiteStream([String]()).interspersed(with: {
      made += 1; return ""
    }) {}
    #expect(made == 2)
  }

  @Test(
    "a separator waits for the element after it, and comes in the same tick",
    arguments: [
      ("a--b-c|", 1, "a--[,b]-[,c]|"),
      ("ab---c-d|", 2, "ab---[,c]-d|"),
      ("a-b----", 1, "a-[,b]----"),
    ] as [(String, Int, String)])
  func separatorWaitsForNextElement(input: String, every: Int, expected: String) async {
    #expect(await marbles(input) { inputs, _ in inputs[0].interspersed(every: every, with: ",") } == expected)
  }

  @Test(
    "the base's error comes after the elements before it, without a separator before it, then nil",
    arguments: [([], []), (["a"], ["a"]), (["a", "b"], ["a", "-", "b"])] as [([String], [String])])
  func baseError(input: [String], expected: [String]) async throws {
    var output: [String] = []
    var iterator = failingStream(input).interspersed(with: "-").makeAsyncIterator()
    await #expect(throws: Boom.boom) {
      while let element = try await iterator.next() { output.append(element) }
    }
    #expect(output == expected)
    #expect(try await iterator.next() == nil)
  }

  @Test("a separator closure's error ends the sequence: the element after it is dropped, then nil")
  func closureError() async throws {
    let base = NextCounting(BoomFailing(finiteStream([1, 2, 3])))
    var iterator = base.interspersed { () throws(Boom) -> Int in throw .boom }.makeAsyncIterator()
    #expect(try await iterator.next() == 1)
    await #expect(throws: Boom.boom) { try await iterator.next() }
    #expect(try await iterator.next() == nil)
    #expect(base.calls == 2)
  }

  @Test("a closure throwing another error gives AsyncThrowingInterspersedSequence, which ends at its error")
  func throwingClosure() async throws {
    let marked: AsyncThrowingInterspersedSequence<AsyncStream<String>> = finiteStream(["a", "b", "c"])
      .interspersed(every: 2) { throw Overdrawn() }
    var iterator = marked.makeAsyncIterator()
    #expect(try await iterator.next() == "a")
    #expect(try await iterator.next() == "b")
    await #expect(throws: Overdrawn.self) { try await iterator.next() }
    #expect(try await iterator.next() == nil)
  }

  @Test("over a base throwing any error, a throwing closure keeps AsyncInterspersedSequence")
  func throwingClosureOverThrowingBase() async throws {
    let marked: AsyncInterspersedSequence<AsyncThrowingStream<String, any Error>> = failingStream(["a", "b"])
      .interspersed { throw Overdrawn() }
    var iterator = marked.makeAsyncIterator()
    #expect(try await iterator.next() == "a")
    await #expect(throws: Overdrawn.self) { try await iterator.next() }
    #expect(try await iterator.next() == nil)
  }

  @Test("over an element type inferred from a literal, a closure is a separator closure, never an element of type Any")
  func literalBase() async throws {
    #expect(await elements(["a", "b"].async.interspersed(with: { "-" })) == ["a", "-", "b"])
    #expect(await elements(["a", "b"].async.interspersed(with: { () async in "-" })) == ["a", "-", "b"])
    #expect(try await elements(["a", "b"].async.interspersed(with: { try Text.checked("-") })) == ["a", "-", "b"])
    #expect(await elements(["a", "b"].async.interspersed(with: "-")) == ["a", "-", "b"])
  }

  @Test("a main-actor closure reads main-actor state, and the sequence is Sendable: a task off the actor takes it")
  @MainActor func mainActorState() async {
    let model = Divider()
    let lines = ["a", "b"].async.interspersed { model.text }
    let output = await Task.detached { await elements(lines) }.value
    #expect(output == ["a", "—", "b"])
  }

  @Test("cancellation is the base's: a cancelled consumer ends with the elements so far, no separator after")
  func cancellation() async {
    let base = CancellationProbe(yielding: ["a", "b"])
    let consumer = Task {
      var output: [String] = []
      for await element in base.interspersed(with: "-") { output.append(element) }
      return output
    }
    await base.waitUntilWaiting()
    consumer.cancel()
    #expect(await consumer.value == ["a", "-", "b"])
    #expect(base.wasCancelled)
  }

  #if os(macOS) || os(Linux) || os(FreeBSD) || os(Windows)  // where Swift Testing runs exit tests
  @Test("every below 1 stops the program when the sequence is made, naming the value")
  func everyBelowOne() async throws {
    let exit = try await #require(
      processExitsWith: .failure, observing: [\.standardErrorContent],
      performing: { _ = [1, 2].async.interspersed(every: 0, with: 0) })
    #if DEBUG  // an optimised build stops without printing a precondition's message
    #expect(String(decoding: exit.standardErrorContent, as: UTF8.self).contains("every >= 1, got 0"))
    #endif
    _ = exit
  }
  #endif

  @Test("a non-throwing base with a non-throwing separator gives a non-throwing sequence")
  func typedThrows() async {
    // Each loop compiles without `try`: `Failure` is `Never`.
    var count = 0
    for await _ in finiteStream([1, 2]).interspersed(with: 0) { count += 1 }
    for await _ in finiteStream([1, 2]).interspersed(with: { 0 }) { count += 1 }
    for await _ in finiteStream([1, 2]).interspersed(with: { () async in 0 }) { count += 1 }
    #expect(count == 9)
    #expect(AsyncInterspersedSequence<AsyncStream<Int>>.Failure.self == Never.self)
    #expect(AsyncInterspersedSequence<ControlledSequence<Int>>.Failure.self == Boom.self)
    #expect(AsyncThrowingInterspersedSequence<AsyncStream<Int>>.Failure.self == (any Error).self)
  }
}

/// Every element of `sequence`, in order.
private func elements<Failure>(_ sequence: some AsyncSequence<String, Failure>) async throws(Failure) -> [String] {
  var elements: [String] = []
  var iterator = sequence.makeAsyncIterator()
  while let element = try await iterator.next(isolation: #isolation) { elements.append(element) }
  return elements
}

/// An actor an async separator closure awaits.
private actor Text {
  static func dash() async -> String { "-" }
  static func checked(_ text: String) throws -> String { text }
}

/// A divider on the main actor that a separator closure reads.
@MainActor @Observable private final class Divider {
  var text = "—"
}
