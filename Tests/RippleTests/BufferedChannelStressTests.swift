import Synchronization
import Testing

@testable import Ripple

// The buffered channel on real threads: senders on detached tasks, consumers iterating, one of them cancelled at a
// random point. Every element sent reaches exactly one consumer, each consumer sees each sender's elements in order,
// and nothing is lost when a consumer leaves with elements it had taken.

@Suite("buffered channel stress", .timeLimit(.minutes(3)))
struct BufferedChannelStressTests {
  @Test("many senders, several consumers, one cancelled: each element to exactly one, in each sender's order")
  func exactlyOnce() async {
    let rounds = Stress.rounds(150)
    let senders = 3
    let perSender = 300
    var breaches: [String] = []
    for round in 0..<rounds {
      let channel = AsyncThrowingBufferedChannel<Int, Boom>()
      let sending = (0..<senders).map { sender in
        Task.detached {
          for sequence in 0..<perSender {
            channel.send(sender * 1_000_000 + sequence)
            if sequence % 41 == 0 { await Task.yield() }
          }
        }
      }
      let consumers = (0..<4).map { index in
        Task.detached { () -> (elements: [Int], failures: Int) in
          var iterator = channel.makeAsyncIterator()
          var elements: [Int] = []
          var failures = 0
          let leaveAfter = index == 3 ? Int.random(in: 0..<100) : Int.max
          while elements.count < leaveAfter {
            do {
              guard let element = try await iterator.next() else { break }
              elements.append(element)
            } catch {
              failures += 1
            }
          }
          return (elements, failures)
        }
      }
      let cancelled = Task.detached { () -> [Int] in
        var iterator = channel.makeAsyncIterator()
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
      cancelled.cancel()
      for task in sending { await task.value }
      if round % 2 == 0 { channel.fail(.boom) } else { channel.finish() }
      var all: [Int] = []
      for (index, consumer) in consumers.enumerated() {
        let (elements, failures) = await consumer.value
        if index < 3 && failures != (round % 2 == 0 ? 1 : 0) {
          breaches.append("round \(round): failure delivered \(failures) times")
        }
        for sender in 0..<senders {
          let sequence = elements.filter { $0 / 1_000_000 == sender }
          if sequence != sequence.sorted() { breaches.append("round \(round): out of sender \(sender)'s order") }
        }
        all += elements
      }
      all += await cancelled.value
      let expected = (0..<senders).flatMap { sender in (0..<perSender).map { sender * 1_000_000 + $0 } }
      if all.sorted() != expected {
        breaches.append("round \(round): \(all.count) delivered of \(expected.count), \(Set(all).count) distinct")
      }
    }
    let breachCount = breaches.count
    #expect(breachCount == 0, "\(breaches.prefix(5))")
  }
}
