import InternalRippleUtilities
import Synchronization
import Testing

@testable import Ripple

// Subjects on real threads: senders on detached tasks while iterators are made, iterate and are cancelled. Each
// assertion is a documented promise: every element sent after an iterator was made reaches it exactly once, in each
// sender's order; nothing sent before reaches it; each termination is delivered once. Nothing sleeps; the suite's time
// limit turns a hang into a failure.

private let senders = 3
private let perSender = 300

/// Element `sequence` of `sender`.
private func encode(_ sender: Int, _ sequence: Int) -> Int { sender * 1_000_000 + sequence }

/// How far one sender got.
private final class Progress: Sendable {
  let count = Atomic<Int>(0)
}

/// What one consumer saw.
private struct Seen: Sendable {
  /// Each sender's progress read just before and just after the iterator was made.
  var before: [Int]
  var after: [Int]
  var elements: [Int]
  var ends: Int
  var failures: Int
  var cancelled: Bool
}

/// Checks one consumer's elements against the promise; returns a description of the first breach, or `nil`.
private func breach(_ seen: Seen) -> String? {
  for sender in 0..<senders {
    let sequence = seen.elements.filter { $0 / 1_000_000 == sender }.map { $0 % 1_000_000 }
    guard let first = sequence.first else {
      // A consumer that ran to the end must have had every element sent after it joined.
      if !seen.cancelled && seen.after[sender] + 1 < perSender { return "sender \(sender): nothing received" }
      continue
    }
    if first < seen.before[sender] { return "sender \(sender): \(first) was sent before the iterator was made" }
    if first > seen.after[sender] + 1 { return "sender \(sender): lost elements before \(first)" }
    for (offset, value) in sequence.enumerated() where value != first + offset {
      return "sender \(sender): \(value) at \(offset) (lost, duplicated or out of order)"
    }
    if !seen.cancelled && sequence.last != perSender - 1 { return "sender \(sender): ended at \(sequence.last!)" }
  }
  if !seen.cancelled && seen.ends + seen.failures != 1 {
    return "termination delivered \(seen.ends + seen.failures) times"
  }
  return nil
}

@Suite("subject stress", .timeLimit(.minutes(3)))
struct SubjectStressTests {
  @Test("many senders, iterators made, iterating and cancelled meanwhile: nothing lost, duplicated or reordered")
  func sendersAndIterators() async {
    let rounds = Stress.rounds(150)
    var breaches: [String] = []
    for round in 0..<rounds {
      let subject = AsyncThrowingPassthroughSubject<Int, Boom>()
      let progress = (0..<senders).map { _ in Progress() }
      let sending = (0..<senders).map { sender in
        Task.detached {
          for sequence in 0..<perSender {
            subject.send(encode(sender, sequence))
            progress[sender].count.store(sequence + 1, ordering: .sequentiallyConsistent)
            if sequence % 37 == 0 { await Task.yield() }
          }
        }
      }
      let consumers = (0..<4).map { index in
        Task.detached { () -> Seen in
          for _ in 0..<Int.random(in: 0..<4) { await Task.yield() }
          let before = progress.map { $0.count.load(ordering: .sequentiallyConsistent) }
          var iterator = subject.makeAsyncIterator()
          let after = progress.map { $0.count.load(ordering: .sequentiallyConsistent) }
          var seen = Seen(before: before, after: after, elements: [], ends: 0, failures: 0, cancelled: false)
          let leaveAfter = index == 3 ? Int.random(in: 0..<200) : Int.max
          while true {
            do {
              guard let element = try await iterator.next() else {
                seen.ends += 1
                break
              }
              seen.elements.append(element)
              if seen.elements.count >= leaveAfter {
                seen.cancelled = true
                break
              }
            } catch {
              seen.failures += 1
              break
            }
          }
          // Once ended, it stays ended.
          if !seen.cancelled {
            do {
              if try await iterator.next() != nil { seen.ends += 100 }
            } catch {
              seen.ends += 100
            }
          }
          return seen
        }
      }
      // One consumer is cancelled from outside at a random point.
      let cancelledConsumer = Task.detached { () -> [Int] in
        var iterator = subject.makeAsyncIterator()
        var elements: [Int] = []
        while true {
          do {
            guard let element = try await iterator.next() else { break }
            elements.append(element)
          } catch {
            break
          }
        }
        return elements
      }
      for _ in 0..<Int.random(in: 0..<8) { await Task.yield() }
      cancelledConsumer.cancel()
      for task in sending { await task.value }
      // Two terminations race: one counts.
      let fail = round % 2 == 0
      async let first: Void = Task.detached { subject.send(fail ? .failure(.boom) : .finished) }.value
      async let second: Void = Task.detached { subject.send(.finished) }.value
      _ = await (first, second)
      for consumer in consumers {
        if let breach = breach(await consumer.value) { breaches.append("round \(round): \(breach)") }
      }
      let partial = await cancelledConsumer.value
      for sender in 0..<senders {
        let sequence = partial.filter { $0 / 1_000_000 == sender }.map { $0 % 1_000_000 }
        if sequence != Array((sequence.first ?? 0)..<((sequence.first ?? 0) + sequence.count)) {
          breaches.append("round \(round): the cancelled consumer saw a gap or a duplicate")
        }
      }
    }
    let breachCount = breaches.count
    #expect(breachCount == 0, "\(breaches.prefix(5))")
  }

  @Test("current values set from many threads: each iterator starts from a value and follows each setter's order")
  func currentValueFromThreads() async {
    let rounds = Stress.rounds(150)
    var breaches: [String] = []
    for round in 0..<rounds {
      let subject = AsyncCurrentValueSubject(-1)
      let setters = (0..<senders).map { sender in
        Task.detached {
          for sequence in 0..<perSender {
            subject.value = encode(sender, sequence)
            if sequence % 53 == 0 { await Task.yield() }
          }
        }
      }
      // Each consumer joins while the setters run (or after), but before the end: a current-value iterator made
      // after the end gets no value, by design.
      let joined = Recorder<Int>()
      let consumers = (0..<3).map { index in
        Task.detached { () -> [Int] in
          for _ in 0..<Int.random(in: 0..<4) { await Task.yield() }
          var iterator = subject.makeAsyncIterator()
          joined.record(index)
          var elements: [Int] = []
          while let value = await iterator.next() { elements.append(value) }
          return elements
        }
      }
      for setter in setters { await setter.value }
      _ = await joined.values(count: 3)
      let last = subject.value
      subject.send(.finished)
      for consumer in consumers {
        let elements = await consumer.value
        guard !elements.isEmpty else {
          breaches.append("round \(round): no current value")
          continue
        }
        for sender in 0..<senders {
          let sequence = elements.dropFirst().filter { $0 / 1_000_000 == sender }.map { $0 % 1_000_000 }
          if let first = sequence.first, sequence != Array(first..<(first + sequence.count)) {
            breaches.append("round \(round): sender \(sender) gap, duplicate or reorder")
          }
        }
        if elements.last != last { breaches.append("round \(round): ended on \(elements.last!), not \(last)") }
      }
    }
    let breachCount = breaches.count
    #expect(breachCount == 0, "\(breaches.prefix(5))")
  }

  @Test("iterators joining and leaving while a replay subject is fed: no crash, each sender's order kept")
  func churn() async {
    let rounds = Stress.rounds(100)
    var reordered = 0
    for _ in 0..<rounds {
      let subject = AsyncReplaySubject<Int>(bufferSize: 4, bufferingPolicy: .bufferingNewest(8))
      let sender = Task.detached {
        for sequence in 0..<2_000 {
          subject.send(sequence)
          if sequence % 97 == 0 { await Task.yield() }
        }
        subject.send(.finished)
      }
      let churners = (0..<3).map { _ in
        Task.detached { () -> Int in
          var reordered = 0
          for _ in 0..<20 {
            var iterator = subject.makeAsyncIterator()
            var previous = -1
            for _ in 0..<Int.random(in: 0..<30) {
              guard let value = await iterator.next() else { break }
              if value <= previous { reordered += 1 }
              previous = value
            }
          }
          return reordered
        }
      }
      await sender.value
      for churner in churners { reordered += await churner.value }
      #expect(subject.storage.machine.withLock { $0.sides.liveCount == 0 })
    }
    #expect(reordered == 0)
  }
}
