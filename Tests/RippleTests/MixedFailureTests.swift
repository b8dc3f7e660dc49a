import Ripple
import Testing

/// The combining operators over bases of different error types — one design, the disfavoured overload of
/// `combineLatest`, `merge`, `zip` and `chain` (next to each family's entry point), so tested side by side here.
@Suite("mixed failure types", .timeLimit(.minutes(1)))
struct MixedFailureTests: FailureTypeFixtures {
  @Test("bases of one error type keep it; non-throwing bases give a non-throwing sequence")
  func sameTypesStayTyped() {
    #expect(failure(of: combineLatest(never, never)) == ObjectIdentifier(Never.self))
    #expect(failure(of: combineLatest(boom, boom)) == ObjectIdentifier(Boom.self))
    #expect(failure(of: combineLatest(boom, boom, boom)) == ObjectIdentifier(Boom.self))
    #expect(failure(of: merge(never, never, never)) == ObjectIdentifier(Never.self))
    #expect(failure(of: merge(boom, boom)) == ObjectIdentifier(Boom.self))
    #expect(failure(of: zip(boom, boom)) == ObjectIdentifier(Boom.self))
    #expect(failure(of: zip(never, never, never)) == ObjectIdentifier(Never.self))
    #expect(failure(of: chain(boom, boom)) == ObjectIdentifier(Boom.self))
    #expect(failure(of: chain(never, never, never)) == ObjectIdentifier(Never.self))
  }

  @Test("bases of different error types throw any Error")
  func differentTypesThrowAnyError() {
    #expect(failure(of: combineLatest(never, boom)) == ObjectIdentifier((any Error).self))
    #expect(failure(of: combineLatest(boom, other, never)) == ObjectIdentifier((any Error).self))
    #expect(failure(of: merge(boom, other)) == ObjectIdentifier((any Error).self))
    #expect(failure(of: merge(never, never, other)) == ObjectIdentifier((any Error).self))
    #expect(failure(of: zip(never, other)) == ObjectIdentifier((any Error).self))
    #expect(failure(of: zip(boom, never, never)) == ObjectIdentifier((any Error).self))
    #expect(failure(of: chain(other, never)) == ObjectIdentifier((any Error).self))
    #expect(failure(of: chain(never, boom, other)) == ObjectIdentifier((any Error).self))
  }

  @Test("non-throwing bases combine and map without try")
  func nonThrowingMapsWithoutTry() async {
    var sums: [Int] = []
    for await sum in combineLatest(finiteStream([1]), finiteStream([10])).map(+) { sums.append(sum) }
    for await sum in zip(finiteStream([2]), finiteStream([20])).map(+) { sums.append(sum) }
    #expect(sums == [11, 22])
  }

  @Test("merge of mixed bases delivers every element, then the base's own error")
  func mergeDeliversTheError() async {
    var elements: [Int] = []
    do {
      for try await element in merge(finiteStream([1, 2]), other) { elements.append(element) }
      Issue.record("no error")
    } catch {
      #expect(error as? Other == .other)
    }
    // The error ends the merge as soon as it is thrown, so the other base may not have delivered everything; the
    // failing base's own element comes first.
    #expect(elements.contains(3))
  }

  @Test("chain of mixed bases: the first base's elements, then the second's, then its error as thrown")
  func chainDeliversInOrder() async {
    var elements: [Int] = []
    do {
      for try await element in chain(finiteStream([1, 2]), boom) { elements.append(element) }
      Issue.record("no error")
    } catch {
      #expect(error as? Boom == .boom)
    }
    #expect(elements == [1, 2, 2])
  }

  @Test("combineLatest and zip of mixed bases rethrow the failing base's error unchanged")
  func combineLatestAndZipRethrow() async {
    // The non-throwing base produces once and stays open, so only the other base's error can end the sequence.
    let inputs = (0..<2).map { _ in AsyncStream.makeStream(of: Int.self) }
    for (_, input) in inputs { input.yield(1) }
    for sequence in [AnyFailing(combineLatest(inputs[0].stream, other)), AnyFailing(zip(inputs[1].stream, other))] {
      do {
        try await sequence.drain()
        Issue.record("no error")
      } catch {
        #expect(error as? Other == .other)
      }
    }
    for (_, input) in inputs { input.finish() }
  }
}

/// Drains any sequence that throws `any Error`, for tables of differently typed sequences.
struct AnyFailing: Sendable {
  let drain: @Sendable () async throws -> Void

  init<S: AsyncSequence & Sendable>(_ sequence: S) where S.Failure == any Error {
    drain = {
      for try await _ in sequence {}
    }
  }
}

/// AsyncExtensions' variadic `merge` and `zip`: four or more bases of one type written as arguments, while two or
/// three still take swift-async-algorithms' forms.
@Suite("merge and zip of bases written as arguments", .timeLimit(.minutes(1)))
struct VariadicFanInTests {
  @Test("four and five bases of one type merge and zip; two and three keep the tuple forms")
  func arities() async {
    let merged = merge(finiteStream([1]), finiteStream([2]), finiteStream([3]), finiteStream([4]), finiteStream([5]))
    let _: AsyncMergeSequence<AsyncStream<Int>> = merged
    #expect(await collect(merged).sorted() == [1, 2, 3, 4, 5])
    let zipped = zip(finiteStream([1, 5]), finiteStream([2, 6]), finiteStream([3, 7]), finiteStream([4, 8]))
    let _: AsyncZipSequence<AsyncStream<Int>> = zipped
    #expect(await collect(zipped) == [[1, 2, 3, 4], [5, 6, 7, 8]])
    let _: AsyncMerge2Sequence<AsyncStream<Int>, AsyncStream<Int>> = merge(finiteStream([1]), finiteStream([2]))
    let _: AsyncZip3Sequence<AsyncStream<Int>, AsyncStream<Int>, AsyncStream<Int>> = zip(
      finiteStream([1]), finiteStream([2]), finiteStream([3]))
  }
}
