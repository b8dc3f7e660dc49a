import Observation
import RippleTesting
import Testing

@testable import Ripple

/// The examples of the table "Every Combine operator and type" in `MigratingFromCombine.md`, compiled and run: every
/// counterpart the table names exists, with the arguments it shows. A row whose counterpart is not on this branch yet
/// is a comment naming the branch it lands with, to be uncommented when it does. Change the table and this file
/// together: row for row, in the table's order.
///
/// The examples run nonisolated: the standard library's `reduce`, `min(by:)`, `contains(where:)`… do not compile with
/// a closure written in `@MainActor` code (the closure would be sent off the actor). The two that need a main-actor
/// model run in ``onTheMainActor()``.
@Suite("MigratingFromCombine.md: every counterpart in the table exists", .timeLimit(.minutes(1)))
struct MigrationTableTests {
  @Test("each example compiles and runs")
  func counterparts() async throws {
    let numbers = [1, 2, 3].async
    let other = [4, 5].async
    let optionals = [1, nil, 3].async
    let names = ["a", "bb"].async
    let start = [()].async
    let stop = [()].async
    let taps = [()].async
    let failing = AsyncThrowingStream<Int, any Error> { input in
      input.yield(1)
      input.finish(throwing: AppError.offline)
    }
    let clock = TestClock()
    let slot = TaskSlot()

    // Working with subscribers
    for await value in numbers { print(value) }
    do { for try await value in failing { print(value) } } catch { print(error) }
    // Mapping elements
    _ = numbers.map { $0 * 2 }
    _ = numbers.map { try parse($0) }
    _ = failing.mapError { _ in AppError.offline }
    _ = optionals.replaceNil(with: 0)
    _ = numbers.reductions(0, +)
    _ = numbers.reductions(0) { try add($0, $1) }
    // Filtering elements
    _ = numbers.filter { $0 > 1 }
    _ = numbers.filter { try check($0) }
    _ = optionals.compacted()
    _ = numbers.compactMap { try parse($0) }
    _ = numbers.removeDuplicates()
    _ = numbers.removeDuplicates { $0 / 10 == $1 / 10 }
    _ = numbers.removeDuplicates { try same($0, $1) }
    _ = numbers.replaceEmpty(with: 0)
    _ = failing.replaceError(with: 0)
    // Reducing elements
    _ = await Array(numbers)
    _ = numbers.chunks(ofCount: 10)
    _ = numbers.chunks(ofCount: 10, or: .repeating(every: .seconds(1), clock: clock))
    for await _ in numbers {}
    _ = await numbers.reduce(0, +)
    _ = try await numbers.reduce(0) { try add($0, $1) }
    // Applying mathematical operations on elements
    _ = await numbers.reduce(0) { count, _ in count + 1 }
    _ = await numbers.max()
    _ = await numbers.min { $0 % 10 < $1 % 10 }
    _ = try await numbers.max { try less($0, $1) }
    // Applying matching criteria to elements
    _ = await numbers.contains(2)
    _ = await numbers.contains { $0 > 2 }
    _ = await numbers.allSatisfy { $0 > 0 }
    // Applying sequence operations to elements
    _ = numbers.withLatest(from: start).map { $0.0 }
    _ = numbers.dropFirst(2)
    _ = numbers.drop { $0 < 2 }
    _ = numbers.append(4).append([4, 5]).append(other)
    _ = numbers.prepend(0).prepend([-1, 0]).prepend(other)
    _ = numbers.prefix(2)
    _ = numbers.prefix { $0 < 3 }
    _ = merge(numbers.map { Optional($0) }, stop.map { _ in Int?.none }).prefix { $0 != nil }.compacted()
    // Selecting specific elements
    _ = await numbers.first { _ in true }
    _ = await numbers.first { $0 > 1 }
    _ = await numbers.reduce(nil) { _, value in value }
    _ = await numbers.filter { $0 > 1 }.reduce(nil) { _, value in value }
    _ = await numbers.dropFirst(2).first { _ in true }
    _ = numbers.dropFirst(1).prefix(2)
    // Combining elements from multiple publishers
    _ = combineLatest(numbers, other).map(+)
    _ = merge(numbers, other, numbers, other, numbers)
    _ = zip(numbers, other).map(+)
    _ = taps.withLatest(from: numbers)
    // Republishing elements by subscribing to new publishers
    _ = numbers.flatMap { [$0, $0].async }
    _ = numbers.map { [$0].async }.switchToLatest()
    // Handling errors
    _ = failing.catch { _ in [0].async }
    _ = failing.catch { _ in failing }
    _ = failing.retry(2)
    // Controlling timing
    _ = numbers.map { _ in clock.now }.adjacentPairs().map { $0.duration(to: $1) }
    _ = numbers.debounce(for: .seconds(1), clock: clock)
    _ = numbers.delay(for: .seconds(1), clock: clock)
    _ = numbers.throttle(for: .seconds(1), clock: clock, latest: true)
    _ = numbers.timeout(.seconds(5), clock: clock)
    // Identifying properties with key paths
    _ = names.map(\.count)
    // Working with multiple subscribers
    _ = numbers.share()
    _ = numbers.multicast(AsyncPassthroughSubject<Int>())
    // Buffering elements
    _ = numbers.buffer(policy: .bounded(10))
    // Performing type erasure
    let erased: some AsyncSequence<Int, Never> = numbers.map { $0 }; _ = erased
    // Adding explicit connectability
    _ = numbers.multicast(AsyncPassthroughSubject<Int>()).autoconnect()
    // Debugging
    _ = numbers.handleEvents(onElement: { print($0) })
    _ = numbers.handleEvents(onElement: { print("value", $0) }, onFinish: { print($0) })
    // Publishers, subjects and other types
    _ = [1].async
    _ = [1, 2].async
    _ = [Int]().async
    _ = AsyncThrowingStream<Int, any Error> { $0.finish(throwing: AppError.offline) }
    let value = await Task { await compute() }.value; _ = value
    _ = MarbleInput("ab^", clock: clock)
    _ = AsyncPassthroughSubject<Int>()
    _ = AsyncCurrentValueSubject(0)
    _ = Termination<AppError>.finished
    slot.run(id: 0) { for await _ in numbers {} }
    _ = AsyncTimerSequence.repeating(every: .seconds(1), clock: clock)
    _ = numbers.debounce(for: .seconds(1), clock: ContinuousClock())
    slot.cancel()
    await onTheMainActor()
  }

  /// The examples that observe or write a main-actor model.
  @MainActor func onTheMainActor() async {
    let numbers = [1, 2, 3].async
    let model = MigrationModel()
    // Working with subscribers
    await numbers.assign(to: \.value, on: model)
    // Publishers, subjects and other types
    _ = Observed { model.value }
    #expect(model.value == 3)
  }
}

/// The error the table's examples throw.
private enum AppError: Error { case offline }

/// The model the table's examples observe and assign to.
@MainActor @Observable private final class MigrationModel {
  var value = 0
}

private func parse(_ value: Int) throws -> Int { value }
private func add(_ left: Int, _ right: Int) throws -> Int { left + right }
private func check(_ value: Int) throws -> Bool { value > 0 }
private func same(_ left: Int, _ right: Int) throws -> Bool { left == right }
private func less(_ left: Int, _ right: Int) throws -> Bool { left < right }
private func compute() async -> Int { 42 }
