import RippleTesting
import Testing

@testable import Ripple

@Suite("catch, replaceError, replaceNil, replaceEmpty", .timeLimit(.minutes(1)))
struct CatchTests {
  @Test(
    "Catch.md: the base, then after its error the fallback",
    arguments: [
      ("a-b^", "----x-y|", "a-b-x-y|"),
      // An empty base: the handler never runs.
      ("|", "x|", "|"),
      // A base that fails at once.
      ("^", "x-y|", "x-y|"),
      // A fallback that itself fails: its error is thrown.
      ("a^", "--x^", "a-x^"),
      // Cancelled mid-way: the consumer's task is cancelled after the last tick.
      ("a-b-", "x|", "a-b-"),
    ])
  func catchDiagrams(base: String, fallback: String, expected: String) async {
    let output = await marbles(base, fallback) { inputs, _ in
      let fallback = inputs[1]
      return inputs[0].catch { _ in fallback }
    }
    #expect(output == expected)
  }

  @Test(
    "ReplaceError.md: replaceError(with: \"z\")",
    arguments: [("a-b^", "a-b[z|]"), ("|", "|"), ("^", "[z|]"), ("a-b-", "a-b-")])
  func replaceErrorDiagrams(input: String, expected: String) async {
    #expect(await marbles(input) { inputs, _ in inputs[0].replaceError(with: "z") } == expected)
  }

  @Test(
    "ReplaceNil.md: `_` stands for nil; replaceNil(with: \"z\")",
    arguments: [("a_b|", "azb|"), ("|", "|"), ("^", "^"), ("_-a^", "z-a^"), ("a-_-", "a-z-")])
  func replaceNilDiagrams(input: String, expected: String) async {
    let output = await marbles(input) { inputs, _ in
      inputs[0].map { $0 == "_" ? nil : $0 }.replaceNil(with: "z")
    }
    #expect(output == expected)
  }

  @Test(
    "ReplaceEmpty.md: replaceEmpty(with: \"z\")",
    arguments: [("--|", "--[z|]"), ("a-|", "a-|"), ("^", "^"), ("a-^", "a-^"), ("a-b-", "a-b-")])
  func replaceEmptyDiagrams(input: String, expected: String) async {
    #expect(await marbles(input) { inputs, _ in inputs[0].replaceEmpty(with: "z") } == expected)
  }

  @Test("the handler gets the base's error, and runs once")
  func handlerGetsTheError() async {
    let errors = Log()
    let recovered = failingStream([1, 2]).mapError { _ in Boom.boom }.catch { error in
      errors.append("\(error)")
      return [3, 4].async
    }
    #expect(await collect(recovered) == [1, 2, 3, 4])
    #expect(errors.entries == ["boom"])
  }

  @Test("the fallback's error type is the sequence's: a fallback that cannot fail gives one that cannot fail")
  func failureTypes() {
    func failure<S: AsyncSequence>(of _: S) -> ObjectIdentifier { ObjectIdentifier(S.Failure.self) }
    let boom = ControlledSequence<Int>()
    #expect(failure(of: boom.catch { _ in [1].async }) == ObjectIdentifier(Never.self))
    #expect(failure(of: failingStream([1]).catch { _ in boom }) == ObjectIdentifier(Boom.self))
    #expect(failure(of: boom.replaceError(with: 0)) == ObjectIdentifier(Never.self))
    #expect(failure(of: boom.map { Optional($0) }.replaceNil(with: 0)) == ObjectIdentifier(Boom.self))
    #expect(failure(of: boom.replaceEmpty(with: 0)) == ObjectIdentifier(Boom.self))
  }

  @Test("a main-actor handler runs on the main actor")
  @MainActor func handlerIsolation() async {
    var handled = 0
    let recovered = failingStream([1]).catch { _ in
      MainActor.assertIsolated()
      handled += 1
      return [2].async
    }
    #expect(await collect(recovered) == [1, 2])
    #expect(handled == 1)
  }
}
