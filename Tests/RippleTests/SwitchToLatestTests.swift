import RippleTesting
import Testing

@testable import Ripple

@Suite("switchToLatest, and AsyncExtensions' flatMapLatest spellings", .timeLimit(.minutes(1)))
struct SwitchToLatestTests {
  @Test(
    "SwitchToLatest.md: the same diagrams as flatMapLatest's, with the inner sequences made by map",
    arguments: [
      ("a---bc----|", "-Aa---Cc--|"),
      ("a--c-d----|", "-Aa-C-Dd--|"),
      ("ab|", "--B[b|]"),
      // An empty base.
      ("|", "|"),
      // A base that fails at once, and after elements.
      ("^", "^"),
      ("a-^", "-A^"),
      // The newest inner fails.
      ("a-e---", "-A-^"),
      // Cancelled mid-way: the consumer's task is cancelled after the last tick.
      ("a----", "-Aa--"),
    ])
  func diagrams(input: String, expected: String) async {
    let switched = await marbles(input) { inputs, clock in
      inputs[0].map { value in FlatMapLatestTimingTests.inner(value, clock) }.switchToLatest()
    }
    let flatMapped = await marbles(input) { inputs, clock in
      inputs[0].flatMapLatest { value in FlatMapLatestTimingTests.inner(value, clock) }
    }
    #expect(switched == expected)
    #expect(switched == flatMapped)
  }

  @Test("switchToLatest keeps the error types as flatMapLatest does")
  func failureTypes() {
    func failure<S: AsyncSequence>(of _: S) -> ObjectIdentifier { ObjectIdentifier(S.Failure.self) }
    let never = [[1].async].async
    let boomInner = [ControlledSequence<Int>()].async
    #expect(failure(of: never.switchToLatest()) == ObjectIdentifier(Never.self))
    #expect(failure(of: boomInner.switchToLatest()) == ObjectIdentifier(Boom.self))
    let boomBase = ControlledSequence<AsyncSyncSequence<[Int]>>()
    #expect(failure(of: boomBase.switchToLatest()) == ObjectIdentifier(Boom.self))
    let mixed = ControlledSequence<AsyncMapErrorSequence<AsyncSyncSequence<[Int]>, Other>>()
    #expect(failure(of: mixed.switchToLatest()) == ObjectIdentifier((any Error).self))
  }

  @Test("flatMapLatest with a throwing transform returning a sequence: the transform's error ends it")
  func throwingTransformToSequence() async {
    let sequence = [1, 2].async.flatMapLatest { value throws in
      guard value == 1 else { throw Boom.boom }
      return [value].async
    }
    let _: AsyncFlatMapLatestSequence<AsyncSyncSequence<[Int]>, AsyncSyncSequence<[Int]>, any Error> = sequence
    var iterator = sequence.makeAsyncIterator()
    await #expect(throws: Boom.boom) {
      while try await iterator.next() != nil {}
    }
  }

  @Test("flatMapLatest with an async transform returning a sequence makes inner sequences")
  func asyncTransformToSequence() async throws {
    let sequence = [1].async.flatMapLatest { value async in [value, value * 10].async }
    let _: AsyncFlatMapLatestSequence<AsyncSyncSequence<[Int]>, AsyncSyncSequence<[Int]>, any Error> = sequence
    #expect(try await collect(sequence) == [1, 10])
  }

  @Test("flatMapLatest with an async transform returning an element is mapLatest, typed as it is")
  func asyncTransformToElement() async throws {
    let sums = [1].async.flatMapLatest { value async in value + 1 }
    let _: AsyncMapLatestSequence<AsyncSyncSequence<[Int]>, Int, Never> = sums
    #expect(await collect(sums) == [2])
    let thrown = [1].async.flatMapLatest { value async throws in value + 2 }
    let _: AsyncMapLatestSequence<AsyncSyncSequence<[Int]>, Int, any Error> = thrown
    #expect(try await collect(thrown) == [3])
  }

  @Test("a synchronous transform returning a sequence still gives the typed flatMapLatest")
  func synchronousTransformUnchanged() async {
    let sequence = [1].async.flatMapLatest { value in [value].async }
    let _: AsyncFlatMapLatestSequence<AsyncSyncSequence<[Int]>, AsyncSyncSequence<[Int]>, Never> = sequence
    #expect(await collect(sequence) == [1])
  }
}
