import InternalRippleUtilities
import Ripple
import Testing

@Suite("mapError", .timeLimit(.minutes(1)))
struct MapErrorTests {
  enum Wrapped: Error, Equatable { case wrapped(String) }

  @Test("delivers the base's elements and throws the transformed error, once")
  func transformsTheError() async throws {
    var iterator = failingStream([1, 2]).mapError { Wrapped.wrapped("\($0)") }.makeAsyncIterator()
    var elements: [Int] = []
    do throws(Wrapped) {
      while let element = try await iterator.next() { elements.append(element) }
      Issue.record("the base's error was not thrown")
    } catch {
      #expect(error == .wrapped("boom"))
    }
    #expect(elements == [1, 2])
    // After the error the sequence is over: no second error, no element.
    #expect(try await iterator.next() == nil)
  }

  @Test("a base that finishes finishes the sequence and never calls the transform")
  func finishWithoutError() async throws {
    let calls = _Mutex(0)
    let (base, input) = AsyncThrowingStream.makeStream(of: Int.self)
    for element in [1, 2, 3] { input.yield(element) }
    input.finish()
    let mapped = base.mapError { _ in
      calls.withLock { $0 += 1 }
      return Wrapped.wrapped("called")
    }
    var elements: [Int] = []
    for try await element in mapped { elements.append(element) }
    #expect(elements == [1, 2, 3])
    #expect(calls.withLock { $0 } == 0)
  }

  @Test("the transform runs on the isolation it was written in")
  @MainActor func transformOnItsIsolation() async {
    var failures: [String] = []  // main-actor state, not Sendable-captured
    let mapped = failingStream([0]).mapError { error -> Wrapped in
      MainActor.assertIsolated()
      failures.append("\(error)")
      return .wrapped("seen")
    }
    do {
      for try await _ in mapped {}
    } catch {
      #expect(error == .wrapped("seen"))
    }
    #expect(failures == ["boom"])
  }

  @Test("cancellation is the base's: a cancelled consumer of a stream ends with nil, nothing thrown")
  func cancellationIsTheBases() async {
    let base = ControlledSequence<Int>()
    let consumer = Task {
      var iterator = base.mapError { _ in Wrapped.wrapped("boom") }.makeAsyncIterator()
      do throws(Wrapped) {
        return try await iterator.next()
      } catch {
        Issue.record("threw \(error) on cancellation")
        return nil
      }
    }
    consumer.cancel()
    #expect(await consumer.value == nil)
  }
}
