import Ripple
import Testing

private typealias BoomChannel = MultiProducerSingleConsumerAsyncChannel<Int, Boom>

/// More than one batch of a fan-in producer (256), so that the batches' seams are crossed.
private let manyElements = 700

/// A channel that already holds `values`, then ends — with `failure` when given — as a sequence.
private func filledChannel(
  _ values: Range<Int>, failing failure: Boom? = nil
) -> some AsyncSequence<Int, Boom>
  & Sendable
{
  var channelAndSource = BoomChannel.makeChannel(
    of: Int.self, throwing: Boom.self, backpressureStrategy: .watermark(low: 1 << 20, high: 1 << 20))
  let channel = channelAndSource.takeChannel()
  var source = consume channelAndSource.source
  for value in values {
    // Far below the high watermark: every send says "produce more".
    _ = try? source.send(value)
  }
  source.finish(throwing: failure)
  return channel.elements()
}

/// A channel fed `values` by a task of its own through small watermarks, so that the producer waits on the
/// consumer over and over and the batches come in every size.
private func fedChannel(_ values: Range<Int>) -> some AsyncSequence<Int, Boom> & Sendable {
  var channelAndSource = BoomChannel.makeChannel(
    of: Int.self, throwing: Boom.self, backpressureStrategy: .watermark(low: 3, high: 7))
  let channel = channelAndSource.takeChannel()
  feed(values, into: consume channelAndSource.source)
  return channel.elements()
}

private func feed(_ values: Range<Int>, into source: consuming sending BoomChannel.Source) {
  var source = source
  Task {
    for value in values {
      try await source.send(value)
    }
  }
}

/// A channel that never sends, open until the iteration over it ends it; `ended` opens then.
private func silentChannel(ended: Latch = Latch()) -> some AsyncSequence<Int, Boom> & Sendable {
  var channelAndSource = BoomChannel.makeChannel(
    of: Int.self, throwing: Boom.self, backpressureStrategy: .watermark(low: 1, high: 1))
  let channel = channelAndSource.takeChannel()
  let source = consume channelAndSource.source
  source.setOnTerminationCallback { ended.open() }
  holdOpen(source, until: ended)
  return channel.elements()
}

/// Keeps `source` (whose going away would finish its channel) until `ended` opens.
private func holdOpen(_ source: consuming sending BoomChannel.Source, until ended: Latch) {
  let source = source
  Task {
    await ended.wait()
    _ = source
  }
}

/// The fan-in operators over Ripple's channel, whose elements they take in batches: what the channel's consumer
/// already holds goes over in one step. Each promise of the one-element path holds for the batches too.
@Suite("fan-in over channels", .timeLimit(.minutes(1)))
struct FanInChannelTests {
  @Test("merge: every element exactly once, each channel's order kept", arguments: [false, true])
  func mergeKeepsEveryElement(fed: Bool) async throws {
    for _ in 0..<Stress.rounds(20) {
      let seen =
        fed
        ? try await collect(merge(fedChannel(0..<manyElements), fedChannel(manyElements..<2 * manyElements)))
        : try await collect(merge(filledChannel(0..<manyElements), filledChannel(manyElements..<2 * manyElements)))
      #expect(seen.filter { $0 < manyElements } == Array(0..<manyElements))
      #expect(seen.filter { $0 >= manyElements } == Array(manyElements..<2 * manyElements))
    }
  }

  @Test("merge: a channel's error comes after all the elements it sent, in order")
  func mergeErrorAfterElements() async {
    var seen: [Int] = []
    await #expect(throws: Boom.boom) {
      for try await value in merge(filledChannel(0..<manyElements, failing: Boom.boom), silentChannel()) {
        seen.append(value)
      }
    }
    #expect(seen == Array(0..<manyElements))
  }

  @Test("merge: breaking out mid-batch ends the iteration and every channel")
  func mergeBreakMidBatch() async throws {
    let ended = Latch()
    var seen = 0
    for try await _ in merge(filledChannel(0..<manyElements), silentChannel(ended: ended)) {
      seen += 1
      if seen == 10 { break }
    }
    #expect(seen == 10)
    // The silent channel's termination callback runs once the merge let go of it; a hang here fails the limit.
    await ended.wait()
  }

  @Test("combineLatest: after the first output, each element makes exactly one, in its channel's order")
  func combineLatestEveryElement() async throws {
    for _ in 0..<Stress.rounds(20) {
      var outputs: [(Int, Int)] = []
      for try await pair in combineLatest(fedChannel(0..<manyElements), filledChannel(0..<manyElements)) {
        outputs.append(pair)
      }
      let last = try #require(outputs.last)
      #expect(last == (manyElements - 1, manyElements - 1))
      // Consecutive outputs differ in one base's value, which moved to that base's next element.
      for (before, after) in zip(outputs, outputs.dropFirst()) {
        let advanced =
          (after.0 == before.0 + 1 && after.1 == before.1) || (after.0 == before.0 && after.1 == before.1 + 1)
        #expect(advanced, "\(before) then \(after)")
        if !advanced { return }
      }
    }
  }

  @Test("zip: pairs the channels' elements by position, to the shorter one's end")
  func zipPairs() async throws {
    for _ in 0..<Stress.rounds(20) {
      var pairs: [(Int, Int)] = []
      for try await pair in zip(filledChannel(0..<manyElements), fedChannel(0..<manyElements + 5)) {
        pairs.append(pair)
      }
      #expect(pairs.count == manyElements)
      #expect(pairs.allSatisfy { $0 == $1 })
      #expect(pairs.map(\.0) == Array(0..<manyElements))
    }
  }

  @Test("one channel beside another kind of base: both paths in one iteration")
  func channelBesideStream() async throws {
    let (stream, continuation) = AsyncThrowingStream<Int, any Error>.makeStream()
    for value in manyElements..<manyElements + 50 { continuation.yield(value) }
    continuation.finish()
    var seen: [Int] = []
    for try await value in merge(filledChannel(0..<manyElements).mapError { $0 as any Error }, stream) {
      seen.append(value)
    }
    #expect(seen.filter { $0 < manyElements } == Array(0..<manyElements))
    #expect(seen.filter { $0 >= manyElements } == Array(manyElements..<manyElements + 50))
  }
}
