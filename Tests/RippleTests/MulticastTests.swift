import Testing

@testable import Ripple

@Suite("multicast", .timeLimit(.minutes(1)))
struct MulticastTests {
  @Test("nothing runs before connect(); then every iterator made before gets every element")
  func connect() async {
    let pulls = PullLog()
    let multicast = pulls.stream([1, 2, 3]).multicast(AsyncPassthroughSubject<Int>())
    var first = multicast.makeAsyncIterator()
    var second = multicast.makeAsyncIterator()
    #expect(pulls.elements == [])
    let connection = multicast.connect()
    #expect(multicast.connect() == connection)
    await connection?.value
    #expect(pulls.elements == [1, 2, 3])
    #expect(await drainAll(&first) == [1, 2, 3])
    #expect(await drainAll(&second) == [1, 2, 3])
    // The connection happened once: a late iterator of a passthrough subject gets the end.
    var late = multicast.makeAsyncIterator()
    #expect(await late.next() == nil)
  }

  @Test("autoconnect with a replay subject of 1 behaves as share with a replay of the latest element")
  func shareReplay() async {
    let base = AsyncBufferedChannel<Int>()
    let shared = base.multicast(AsyncReplaySubject(bufferSize: 1)).autoconnect()
    var first = shared.makeAsyncIterator()
    base.send(1)
    #expect(await first.next() == 1)  // connects
    var second = shared.makeAsyncIterator()
    base.send(2)
    base.finish()
    #expect(await drainAll(&first) == [2])
    #expect(await drainAll(&second) == [1, 2])
    var late = shared.makeAsyncIterator()
    #expect(await drainAll(&late) == [2])
  }

  @Test("a failing base fails every iterator through a throwing subject")
  func failure() async {
    let base = AsyncThrowingBufferedChannel<Int, Boom>()
    let multicast = base.multicast(AsyncThrowingPassthroughSubject<Int, Boom>()).autoconnect()
    var iterator = multicast.makeAsyncIterator()
    base.send(1)
    base.fail(.boom)
    var collected: [Int] = []
    do {
      while let value = try await iterator.next() { collected.append(value) }
      Issue.record("no failure")
    } catch {
      #expect(error == .boom)
    }
    #expect(collected == [1])
  }

  @Test(
    "the last autoconnected iterator going away cancels the connection; the subject stays open and the next connects")
  func lastIteratorCancels() async {
    let base = AsyncBufferedChannel<Int>()
    let subject = AsyncPassthroughSubject<Int>()
    let shared = base.multicast(subject).autoconnect()
    var observer = subject.makeAsyncIterator()
    do {
      var iterator = shared.makeAsyncIterator()
      base.send(1)
      #expect(await iterator.next() == 1)
    }
    #expect(await observer.next() == 1)
    // The connection was cancelled with its last iterator; the subject did not end. A new iterator connects again,
    // with a new iteration of the base, and the element reaches the subject's every iterator once.
    var again = shared.makeAsyncIterator()
    base.send(2)
    #expect(await again.next() == 2)
    #expect(await observer.next() == 2)
    base.finish()
    #expect(await again.next() == nil)
    #expect(await observer.next() == nil)
  }
}
