import Observation
import Ripple
import Testing

/// A main-actor model whose state a `mapLatest` transform reads.
@MainActor @Observable final class Scale {
  var input = 1
  var factor = 10
}

/// Compiles only if a transform written in main-actor code inherits the main actor: it reads `factor`
/// synchronously.
@MainActor func scaledInputs(_ scale: Scale) -> AsyncMapLatestSequence<Observed<Int, Never>, Int, Never> {
  Observed { scale.input }.mapLatest { input in input * scale.factor }
}

/// The same with a throwing transform over a non-throwing base.
@MainActor func checkedScaledInputs(_ scale: Scale) -> AsyncMapLatestSequence<Observed<Int, Never>, Int, any Error> {
  Observed { scale.input }.mapLatest { input throws in
    guard scale.factor != 0 else { throw Boom.boom }
    return input * scale.factor
  }
}

@Suite("mapLatest isolation", .timeLimit(.minutes(1)))
struct MapLatestIsolationTests {
  @Test("a transform written on the main actor runs there and reads main-actor state")
  @MainActor func mainActorTransform() async throws {
    let scale = Scale()
    var iterator = scaledInputs(scale).makeAsyncIterator()
    #expect(await iterator.next() == 10)
    scale.factor = 3
    scale.input = 2
    #expect(await iterator.next() == 6)
    var checked = checkedScaledInputs(scale).makeAsyncIterator()
    #expect(try await checked.next() == 6)
    scale.factor = 0
    scale.input = 5
    await #expect(throws: Boom.boom) { try await checked.next() }
  }

}
