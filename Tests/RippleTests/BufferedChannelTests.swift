import Testing

@testable import Ripple

@Suite("buffered channel", .timeLimit(.minutes(1)))
struct BufferedChannelTests {
  @Test("elements sent before anyone listens wait in order; finish ends after them")
  func keepsUntilTaken() async {
    let channel = AsyncBufferedChannel<Int>()
    for value in 0..<5 { channel.send(value) }
    channel.finish()
    channel.send(5)
    var collected: [Int] = []
    for await value in channel { collected.append(value) }
    #expect(collected == [0, 1, 2, 3, 4])
    var late = channel.makeAsyncIterator()
    #expect(await late.next() == nil)
  }

  @Test("a consumer waiting in another task gets every element in order")
  func waitingConsumer() async {
    let channel = AsyncBufferedChannel<Int>()
    let consumer = Task {
      var collected: [Int] = []
      for await value in channel { collected.append(value) }
      return collected
    }
    for value in 0..<1_000 { channel.send(value) }
    channel.finish()
    #expect(await consumer.value == Array(0..<1_000))
  }

  @Test("each element goes to one of several consumers, none lost or duplicated")
  func severalConsumers() async {
    let channel = AsyncBufferedChannel<Int>()
    let consumers = (0..<3).map { _ in
      Task {
        var collected: [Int] = []
        for await value in channel { collected.append(value) }
        return collected
      }
    }
    for value in 0..<300 { channel.send(value) }
    channel.finish()
    var all: [Int] = []
    for consumer in consumers {
      let collected = await consumer.value
      #expect(collected == collected.sorted())
      all += collected
    }
    #expect(all.sorted() == Array(0..<300))
  }

  @Test("a failure is thrown once by each iterator, after the buffer")
  func failure() async throws {
    let channel = AsyncThrowingBufferedChannel<Int, Boom>()
    var first = channel.makeAsyncIterator()
    var second = channel.makeAsyncIterator()
    channel.send(1)
    channel.fail(.boom)
    channel.finish()
    #expect(try await first.next() == 1)
    await #expect(throws: Boom.boom) { try await first.next() }
    #expect(try await first.next() == nil)
    await #expect(throws: Boom.boom) { try await second.next() }
    #expect(try await second.next() == nil)
  }

  @Test("an iterator dropped with elements it took gives them back, in order")
  func droppedIteratorGivesBack() async {
    let channel = AsyncBufferedChannel<Int>()
    for value in 0..<5 { channel.send(value) }
    do {
      var first = channel.makeAsyncIterator()
      #expect(await first.next() == 0)  // it took 0...4 in one step
    }
    channel.send(5)
    channel.finish()
    var collected: [Int] = []
    for await value in channel { collected.append(value) }
    #expect(collected == [1, 2, 3, 4, 5])
  }

  @Test("cancelling a consumer ends it only; what it took goes back to the channel")
  func cancellation() async {
    let channel = AsyncBufferedChannel<Int>()
    for value in 0..<3 { channel.send(value) }
    let took = Latch()
    let resume = Latch()
    let consumer = Task {
      var iterator = channel.makeAsyncIterator()
      let first = await iterator.next()
      took.open()
      await resume.wait()
      return (first, await iterator.next(), await iterator.next())
    }
    await took.wait()
    consumer.cancel()
    resume.open()
    let (first, second, third) = await consumer.value
    #expect(first == 0)
    #expect(second == nil)
    #expect(third == nil)
    channel.finish()
    var rest: [Int] = []
    for await value in channel { rest.append(value) }
    #expect(rest == [1, 2])
  }

  @Test("a cancelled waiting consumer returns nil; the next element goes to the other")
  func cancelWaiting() async {
    let channel = AsyncBufferedChannel<Int>()
    let waiting = Task {
      var iterator = channel.makeAsyncIterator()
      return await iterator.next()
    }
    waiting.cancel()
    #expect(await waiting.value == nil)
    channel.send(1)
    var iterator = channel.makeAsyncIterator()
    #expect(await iterator.next() == 1)
  }

  @Test("dropping the last reference to the channel finishes its iterators after the buffer")
  func droppedChannel() async {
    var channel: AsyncBufferedChannel<Int>? = AsyncBufferedChannel()
    var iterator = channel!.makeAsyncIterator()
    channel!.send(1)
    channel = nil
    #expect(await iterator.next() == 1)
    #expect(await iterator.next() == nil)
  }
}
