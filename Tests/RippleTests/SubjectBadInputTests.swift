import Testing

@testable import Ripple

// Bad input stops the program with a message naming the argument, before anything is built; zero limits have a
// defined meaning (tested in `SubjectStateMachineTests` and `SubjectTests`).
@Suite("subject bad input")
struct SubjectBadInputTests {
  #if os(macOS) || os(Linux) || os(FreeBSD) || os(Windows)  // where Swift Testing runs exit tests
  @Test("a negative bufferSize is a precondition failure")
  func negativeBufferSize() async {
    await #expect(processExitsWith: .failure) {
      _ = AsyncReplaySubject<Int>(bufferSize: -1)
    }
  }

  @Test("a negative buffering limit is a precondition failure")
  func negativeLimit() async {
    await #expect(processExitsWith: .failure) {
      _ = AsyncSubjectBufferingPolicy.bufferingNewest(-1)
    }
    await #expect(processExitsWith: .failure) {
      _ = AsyncSubjectBufferingPolicy.bufferingOldest(-1)
    }
  }
  #endif

  @Test("bufferSize 0 is a passthrough subject; a limit of 0 delivers only to a waiting iterator")
  func zeroes() async {
    let replay = AsyncReplaySubject<Int>(bufferSize: 0)
    replay.send(1)
    var iterator = replay.makeAsyncIterator()
    replay.send(2)
    replay.send(.finished)
    #expect(await drainAll(&iterator) == [2])

    let none = AsyncPassthroughSubject<Int>(bufferingPolicy: .bufferingNewest(0))
    var busy = none.makeAsyncIterator()
    none.send(1)  // nobody waits in next(): dropped
    none.send(.finished)
    #expect(await busy.next() == nil)
  }
}
