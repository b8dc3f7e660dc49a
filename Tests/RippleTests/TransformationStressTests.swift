import Synchronization
import Testing

@testable import Ripple

// Adversarial stress tests of the concurrent transformations — the count-or-signal chunking forms and
// throttle(for:clock:reducing:) — on real threads: producers are detached tasks feeding `AsyncStream`s or an
// `AsyncChannel`, yielding at random, and each test repeats its scenario many times. Each assertion is a documented
// promise: no element lost or duplicated, order kept, chunks within the count, the end reached, cancellation
// reaching both sides. Nothing sleeps to wait: waits are on latches and on the sequences themselves, and the suite's
// time limit turns a hang into a failure.

// MARK: - Support

/// How many times each scenario runs.
private let runs = Stress.rounds(2_000)

/// Checks the chunks of `0..<count`: every element once, in order, each chunk holding 1 to `limit` elements.
private func checkChunks(_ chunks: [[Int]], count: Int, limit: Int, run: Int) {
  let flat = chunks.flatMap { $0 }
  #expect(flat == Array(0..<count), "run \(run): elements lost, repeated or reordered")
  #expect(chunks.allSatisfy { !$0.isEmpty && $0.count <= limit }, "run \(run): chunk sizes \(chunks.map(\.count))")
}

// MARK: - Suite

@Suite("Transformation stress: chunk signal forms, throttle(reducing:)", .timeLimit(.minutes(3)))
struct TransformationStressTests {
  @Test("chunks(ofCount:or:) with a concurrent signal: every element once, in order, chunks within the count")
  func countOrSignal() async {
    for run in 0..<runs {
      let count = Int.random(in: 0...40)
      let limit = Int.random(in: 1...5)
      var chunks: [[Int]] = []
      for await chunk in producedStream(count).chunks(ofCount: limit, or: producedStream(Int.random(in: 0...20))) {
        chunks.append(chunk)
      }
      checkChunks(chunks, count: count, limit: limit, run: run)
    }
  }

  @Test("chunked(by:) with a concurrent signal: every element once, in order, no empty chunk")
  func signalOnly() async {
    for run in 0..<runs {
      let count = Int.random(in: 0...40)
      var chunks: [[Int]] = []
      for await chunk in producedStream(count).chunked(by: producedStream(Int.random(in: 0...20))) {
        chunks.append(chunk)
      }
      checkChunks(chunks, count: count, limit: .max, run: run)
    }
  }

  @Test("chunks(ofCount:or:) over an AsyncChannel whose sender awaits each send")
  func channelBase() async {
    for run in 0..<runs {
      let count = Int.random(in: 0...30)
      let channel = AsyncChannel<Int>()
      let sender = Task.detached {
        for element in 0..<count { await channel.send(element) }
        channel.finish()
      }
      var chunks: [[Int]] = []
      for await chunk in channel.chunks(ofCount: 3, or: producedStream(Int.random(in: 0...10))) {
        chunks.append(chunk)
      }
      await sender.value
      checkChunks(chunks, count: count, limit: 3, run: run)
    }
  }

  @Test("the timer forms, on a clock whose sleeps return at once: every element once, in order, then the end")
  func timerForms() async {
    for run in 0..<runs / 4 {
      let count = Int.random(in: 0...40)
      let timer = AsyncTimerSequence.repeating(every: .microseconds(Int.random(in: 20...200)), clock: ImmediateClock())
      var chunks: [[Int]] = []
      if run.isMultiple(of: 2) {
        for await chunk in producedStream(count).chunks(ofCount: 4, or: timer) { chunks.append(chunk) }
        checkChunks(chunks, count: count, limit: 4, run: run)
      } else {
        for await chunk in producedStream(count).chunked(by: timer) { chunks.append(chunk) }
        checkChunks(chunks, count: count, limit: .max, run: run)
      }
    }
  }

  @Test("cancelling the consumer mid-stream ends it and the iterations of base and signal; nothing gathered is lost")
  func cancellation() async {
    for run in 0..<runs {
      let baseReleased = Latch()
      let signalReleased = Latch()
      let limit = Int.random(in: 1...4)
      let cancelAtOnce = Bool.random()
      // Waiting for a first chunk needs a base that fills one.
      let count = cancelAtOnce ? Int.random(in: 0...30) : Int.random(in: limit...30)
      let firstChunk = Latch()
      let consumer = Task {
        // Made here, so that only the iteration holds them.
        let base = TrackedBase(base: producedStream(count, endless: true), released: baseReleased)
        let signal = TrackedBase(base: producedStream(Int.random(in: 0...10), endless: true), released: signalReleased)
        var chunks: [[Int]] = []
        for await chunk in base.chunks(ofCount: limit, or: signal) {
          chunks.append(chunk)
          firstChunk.open()
        }
        return chunks
      }
      // Cancel at once, or once the consumer has a chunk (when the base gives enough for one).
      if cancelAtOnce {
        consumer.cancel()
      } else {
        Task {
          await firstChunk.wait()
          consumer.cancel()
        }
      }
      if Bool.random() { Task.detached { consumer.cancel() } }
      let chunks = await consumer.value
      await baseReleased.wait()
      await signalReleased.wait()
      let flat = chunks.flatMap { $0 }
      #expect(flat == Array(0..<flat.count), "run \(run): a gap or a repeat in \(flat)")
      #expect(chunks.allSatisfy { !$0.isEmpty && $0.count <= limit }, "run \(run)")
    }
  }

  @Test("throttle(reducing:) with a consumer that keeps up: the reductions hold every element once, in order")
  func throttleReducingFastConsumer() async {
    for run in 0..<runs / 4 {
      let count = Int.random(in: 0...40)
      let throttled = producedStream(count).throttle(
        for: .microseconds(Int.random(in: 20...200)), clock: ImmediateClock(), reducing: { ($0 ?? []) + [$1] })
      var reductions: [[Int]] = []
      for await reduction in throttled { reductions.append(reduction) }
      let flat = reductions.flatMap { $0 }
      #expect(Set(flat).count == flat.count, "run \(run): an element folded twice")
      #expect(flat == flat.sorted(), "run \(run): order")
      #expect(reductions.allSatisfy { !$0.isEmpty }, "run \(run)")
      // Since throttle keeps what is due for a consumer that is not waiting, nothing is lost either.
      #expect(flat == Array(0..<count), "run \(run): an element lost")
    }
  }
}
