import InternalRippleUtilities
import RippleTesting
import Synchronization
import Testing

@testable import Ripple

// Adversarial stress tests of share(bufferingPolicy:), the channels and buffer(policy:) on real threads: detached
// tasks, random yields, random cancellation points. Each assertion is a documented promise, stated exactly.
// Nothing sleeps: waits are on latches, recorders or the operators themselves, and the suites' time limit turns a
// hang into a failure.

// MARK: - Support

/// A countdown: `wait()` returns once `arrive()` was called `count` times.
private final class CountDown: Sendable {
  private let remaining: Atomic<Int>
  private let latch = Latch()

  init(_ count: Int) {
    remaining = Atomic(count)
    if count == 0 { latch.open() }
  }

  func arrive() {
    if remaining.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 { latch.open() }
  }

  func wait() async { await latch.wait() }
}

/// What a base was asked for: how many elements it returned, and how its iteration ended.
private final class BaseProbe: Sendable {
  /// Elements returned so far; incremented before the element is returned.
  let produced = Atomic<Int>(0)
  /// Set once an iteration of the base saw its task cancelled.
  let sawCancellation = Atomic<Bool>(false)
  /// Opened when the base's iterator is released (the iteration ended, however).
  let iteratorReleased = Latch()
  /// Set when the base's iterator is made; counts the calls of its next().
  let made = Atomic<Bool>(false)
  let nextCalls = Atomic<Int>(0)
  /// Called with each element's index before it is returned.
  let onProduce: (@Sendable (Int) -> Void)?

  init(onProduce: (@Sendable (Int) -> Void)? = nil) {
    self.onProduce = onProduce
  }
}

/// Opens the probe's latch when the base's iterator goes away.
private final class ReleaseToken: Sendable {
  let probe: BaseProbe
  init(_ probe: BaseProbe) { self.probe = probe }
  deinit { probe.iteratorReleased.open() }
}

/// 0, 1, …, count - 1, then `nil`, or ``Boom/boom`` when `fails`, or, when `blocks`, a wait for cancellation (then
/// `nil`). With `yields`, it yields at random before each element, so the upstream's timing varies.
private struct ProbeBase: AsyncSequence, Sendable {
  typealias Element = Int
  typealias Failure = Boom

  let count: Int
  var fails = false
  var blocks = false
  var yields = true
  let probe: BaseProbe

  struct Iterator: AsyncIteratorProtocol {
    let base: ProbeBase
    let token: ReleaseToken
    var index = 0
    var ended = false

    mutating func next() async throws(Boom) -> Int? {
      base.probe.nextCalls.add(1, ordering: .sequentiallyConsistent)
      if base.yields, Int.random(in: 0..<4) == 0 { await Task.yield() }
      if Task.isCancelled { base.probe.sawCancellation.store(true, ordering: .sequentiallyConsistent) }
      guard !ended else { return nil }
      guard index < base.count else {
        ended = true
        if base.blocks {
          await waitForCancellation()
          base.probe.sawCancellation.store(true, ordering: .sequentiallyConsistent)
          return nil
        }
        if base.fails { throw Boom.boom }
        return nil
      }
      let element = index
      index += 1
      base.probe.onProduce?(element)
      base.probe.produced.add(1, ordering: .sequentiallyConsistent)
      return element
    }

    mutating func next(isolation actor: isolated (any Actor)?) async throws(Boom) -> Int? {
      try await next()
    }
  }

  func makeAsyncIterator() -> Iterator {
    probe.made.store(true, ordering: .sequentiallyConsistent)
    return Iterator(base: self, token: ReleaseToken(probe))
  }
}

/// The next element; an error becomes -999, so that tests tell it from `nil`.
private func probeNext<I: AsyncIteratorProtocol>(
  _ iterator: inout I, isolation: isolated (any Actor)? = #isolation
) async -> Int? where I.Element == Int {
  do { return try await iterator.next(isolation: isolation) } catch { return -999 }
}

private func cancelCurrentTask() {
  withUnsafeCurrentTask { $0?.cancel() }
}

private func randomYields(_ upTo: Int) async {
  for _ in 0..<Int.random(in: 0...upTo) { await Task.yield() }
}

/// What one consumer saw.
private struct Seen: Sendable, CustomStringConvertible {
  var elements: [Int] = []
  var errors = 0
  /// What `next()` returned after the end (or after the consumer cancelled itself).
  var after: [Int?] = []
  var description: String { "elements \(elements.count) \(elements.prefix(5))…, errors \(errors), after \(after)" }
}

private let losslessPolicies: [AsyncBufferSequencePolicy] = [.bounded(0), .bounded(1), .bounded(3), .unbounded]
private let droppingPolicies: [AsyncBufferSequencePolicy] = [
  .bufferingLatest(1), .bufferingLatest(3), .bufferingOldest(1), .bufferingOldest(3),
]

private func isStrictlyIncreasing(_ elements: [Int]) -> Bool {
  zip(elements, elements.dropFirst()).allSatisfy { $0 < $1 }
}

// MARK: - share

@Suite("share under stress", .timeLimit(.minutes(3)))
struct BufferingStressShareTests {
  /// Every iterator made before the first element gets every element in order, then `nil`, then `nil` again;
  /// an iterator whose consumer cancels itself gets `nil` from its very next `next()`, and the others go on;
  /// an iterator cancelled from outside gets a prefix.
  @Test("share, random self and outside cancellation", arguments: losslessPolicies)
  func randomCancellation(policy: AsyncBufferSequencePolicy) async {
    for round in 0..<Stress.rounds(150) {
      let total = 60
      let probe = BaseProbe()
      let shared = ProbeBase(count: total, probe: probe).share(bufferingPolicy: policy)
      let consumers = Int.random(in: 1...4)
      let joined = CountDown(consumers)
      let go = Latch()
      // nil: iterate to the end; k: cancel itself after k elements; -1: may be cancelled from outside.
      let plans: [Int?] = (0..<consumers).map { _ in
        switch Int.random(in: 0..<3) {
        case 0: nil
        case 1: Int.random(in: 0...total)
        default: -1
        }
      }
      let tasks = plans.map { plan in
        Task.detached { () -> Seen in
          var iterator = shared.makeAsyncIterator()
          joined.arrive()
          await go.wait()
          var seen = Seen()
          do {
            while true {
              if let plan, plan >= 0, seen.elements.count == plan {
                cancelCurrentTask()
                seen.after.append(try await iterator.next())
                seen.after.append(try await iterator.next())
                return seen
              }
              guard let element = try await iterator.next() else { break }
              seen.elements.append(element)
            }
            seen.after.append(try await iterator.next())
          } catch {
            seen.errors += 1
          }
          return seen
        }
      }
      await joined.wait()
      go.open()
      for (index, plan) in plans.enumerated() where plan == -1 {
        let victim = tasks[index]
        Task.detached {
          await randomYields(40)
          victim.cancel()
        }
      }
      for (index, task) in tasks.enumerated() {
        let seen = await task.value
        #expect(seen.errors == 0, "round \(round)")
        switch plans[index] {
        case nil:
          #expect(seen.elements == Array(0..<total), "round \(round) \(policy): \(seen)")
          #expect(seen.after == [nil], "round \(round)")
        case let k? where k >= 0:
          #expect(seen.elements == Array(0..<k), "round \(round)")
          #expect(seen.after == [nil, nil], "round \(round) \(policy): a self-cancelled next() returned an element")
        default:
          #expect(seen.elements == Array(0..<seen.elements.count), "round \(round) \(policy): \(seen)")
        }
      }
    }
  }

  /// An iterator made while elements flow gets exactly the elements produced after it was made, in order: a
  /// contiguous run ending with the last, starting no later than the first element the base returned after the
  /// iterator was made.
  @Test("share, late joiners during delivery", arguments: losslessPolicies)
  func lateJoiners(policy: AsyncBufferSequencePolicy) async {
    for round in 0..<Stress.rounds(150) {
      let total = 80
      let probe = BaseProbe()
      let shared = ProbeBase(count: total, probe: probe).share(bufferingPolicy: policy)
      // The first iterator is made before any joiner's, so it gets every element.
      let firstJoined = Latch()
      let first = Task.detached { () -> [Int] in
        var iterator = shared.makeAsyncIterator()
        firstJoined.open()
        var elements: [Int] = []
        while let element = await probeNext(&iterator) { elements.append(element) }
        return elements
      }
      let joiners = (0..<3).map { _ in
        Task.detached { () -> (producedAfterJoin: Int, elements: [Int], after: Int?) in
          await firstJoined.wait()
          await randomYields(60)
          var iterator = shared.makeAsyncIterator()
          let producedAfterJoin = probe.produced.load(ordering: .sequentiallyConsistent)
          var elements: [Int] = []
          while let element = await probeNext(&iterator) { elements.append(element) }
          return (producedAfterJoin, elements, await probeNext(&iterator))
        }
      }
      let firstElements = await first.value
      #expect(firstElements == Array(0..<total), "round \(round) \(policy): \(firstElements.prefix(5))…")
      for joiner in joiners {
        let (producedAfterJoin, elements, after) = await joiner.value
        let start = elements.first ?? total
        #expect(elements == Array(start..<total), "round \(round) \(policy): a late joiner lost or reordered elements")
        #expect(
          start <= producedAfterJoin, "round \(round) \(policy): joiner missed an element produced after it joined")
        #expect(after == nil)
      }
    }
  }

  /// Share.md and `share(bufferingPolicy:)`: "when the last iterator of a running iteration ends, the base is
  /// cancelled. The shared iteration happens once: an iterator made after it ended gets `nil`". Consumers break out of
  /// their loops after a few elements, or are cancelled from outside at a random moment, some before their first
  /// `next()`. Once all are done: if the iteration started, a later iterator gets `nil` and the base's iterator, once
  /// made, is released; if every consumer was cancelled before its first `next()`, nothing started ("a consumer
  /// cancelled before its first next() gets nil and does not start the base") and a later iterator starts it. A
  /// consumer cancelled during its first `next()` may have started it: the upstream task then sees the end before it
  /// touches the base.
  @Test(
    "share, every loop broken or cancelled: the base released, a later iterator ends at once",
    arguments: [
      AsyncBufferSequencePolicy.bounded(0), .bounded(1), .bounded(3), .bufferingOldest(0), .bufferingLatest(2),
      .unbounded,
    ])
  func everyConsumerLeaves(policy: AsyncBufferSequencePolicy) async {
    for round in 0..<Stress.rounds(500) {
      let probe = BaseProbe()
      let shared = ProbeBase(count: 1_000_000, probe: probe).share(bufferingPolicy: policy)
      let consumers = (0..<Int.random(in: 1...4)).map { _ in
        let limit = Int.random(in: 0...5)
        return Task.detached { () -> (received: Int, cancelledFirst: Bool) in
          var received = 0
          await randomYields(2)
          // A `for await` loop, spelled out: the iterator goes away at the `break`.
          var iterator = shared.makeAsyncIterator()
          let cancelledFirst = Task.isCancelled
          while await probeNext(&iterator) != nil {
            received += 1
            if received > limit { break }
          }
          return (received, cancelledFirst)
        }
      }
      for consumer in consumers where Int.random(in: 0..<3) == 0 {
        Task.detached {
          await randomYields(20)
          consumer.cancel()
        }
      }
      var received = 0
      var everyCancelledFirst = true
      for consumer in consumers {
        let (count, cancelledFirst) = await consumer.value
        received += count
        everyCancelledFirst = everyCancelledFirst && cancelledFirst
      }
      let ran = probe.made.load(ordering: .sequentiallyConsistent)
      var later = shared.makeAsyncIterator()
      let first = await probeNext(&later)
      if ran { #expect(first == nil, "round \(round) \(policy): a later iterator got an element") }
      if everyCancelledFirst {
        #expect(first == 0, "round \(round) \(policy): consumers cancelled before their first next() started it")
      }
      if first == nil {
        // It had started — a consumer's next() came before its cancellation — and the last consumer to leave
        // ended it. The upstream task may not have reached the base yet; once it made the base's iterator, it
        // releases it.
        if probe.made.load(ordering: .sequentiallyConsistent) { await probe.iteratorReleased.wait() }
      } else {
        // Nothing had started: no consumer got an element, and the later iterator starts the base from its first.
        #expect(received == 0, "round \(round) \(policy)")
        #expect(first == 0, "round \(round) \(policy): the unstarted iteration did not start")
      }
    }
  }

  /// The base throws: every iterator gets its elements, then the error once, then `nil`; so does (error once,
  /// then nil) an iterator made after the end. With the dropping policies the elements are an increasing
  /// subsequence.
  @Test("share, error once then nil", arguments: losslessPolicies + droppingPolicies)
  func errorOnce(policy: AsyncBufferSequencePolicy) async {
    let lossless = losslessPolicies.contains(policy)
    for round in 0..<Stress.rounds(150) {
      let total = Int.random(in: 0...30)
      let probe = BaseProbe()
      let shared = ProbeBase(count: total, fails: true, probe: probe).share(bufferingPolicy: policy)
      let consumers = Int.random(in: 1...4)
      let joined = CountDown(consumers)
      let go = Latch()
      let tasks = (0..<consumers).map { _ in
        Task.detached { () -> Seen in
          var iterator = shared.makeAsyncIterator()
          joined.arrive()
          await go.wait()
          var seen = Seen()
          while true {
            do {
              guard let element = try await iterator.next() else { break }
              seen.elements.append(element)
              if Bool.random() { await Task.yield() }
            } catch {
              seen.errors += 1
              seen.after.append(await probeNext(&iterator))
              seen.after.append(await probeNext(&iterator))
              break
            }
          }
          return seen
        }
      }
      await joined.wait()
      go.open()
      for task in tasks {
        let seen = await task.value
        #expect(seen.errors == 1, "round \(round) \(policy): \(seen)")
        #expect(seen.after == [nil, nil], "round \(round) \(policy): \(seen)")
        if lossless {
          #expect(seen.elements == Array(0..<total), "round \(round) \(policy): \(seen)")
        } else {
          #expect(isStrictlyIncreasing(seen.elements) && seen.elements.allSatisfy { $0 < total })
        }
      }
      // Made after the end.
      var late = shared.makeAsyncIterator()
      var lateErrors = 0
      do { _ = try await late.next() } catch { lateErrors += 1 }
      #expect(lateErrors == 1, "round \(round)")
      #expect(await probeNext(&late) == nil)
    }
  }

  /// `.bounded(n)`: the base is not asked for element k while some iterator has begun fewer than k - n + 1
  /// `next()` calls (it then holds n elements, or, under `.bounded(0)`, does not wait).
  @Test("share, bounded(n) pacing", arguments: [0, 1, 3])
  func boundedPacing(limit: Int) async {
    for round in 0..<Stress.rounds(100) {
      let consumers = Int.random(in: 1...4)
      let requested = Counts(consumers)
      let violations = Atomic<Int>(0)
      let probe = BaseProbe { index in
        let counts = requested.value.withLock { $0 }
        for count in counts where index >= count + limit {
          violations.add(1, ordering: .sequentiallyConsistent)
        }
      }
      let total = 60
      let shared = ProbeBase(count: total, probe: probe).share(bufferingPolicy: .bounded(limit))
      let joined = CountDown(consumers)
      let go = Latch()
      let tasks = (0..<consumers).map { index in
        Task.detached { () -> [Int] in
          var iterator = shared.makeAsyncIterator()
          joined.arrive()
          await go.wait()
          var elements: [Int] = []
          while true {
            requested.value.withLock { $0[index] += 1 }
            guard let element = await probeNext(&iterator) else { break }
            elements.append(element)
            await randomYields(2)
          }
          return elements
        }
      }
      await joined.wait()
      go.open()
      for task in tasks { #expect(await task.value == Array(0..<total), "round \(round)") }
      #expect(violations.load(ordering: .sequentiallyConsistent) == 0, "round \(round): bounded(\(limit)) pulled ahead")
    }
  }

  /// Everything at once: iterators made before the start and during it, some cancelled from inside or outside at
  /// random points, some dropped after a random number of elements. Each gets a contiguous run in order; one
  /// that stays to the end gets every element produced after it was made; nothing hangs; afterwards a new
  /// iterator gets nil.
  @Test("share, joiners, leavers and cancellation together", arguments: losslessPolicies)
  func chaos(policy: AsyncBufferSequencePolicy) async {
    for round in 0..<Stress.rounds(150) {
      let total = 60
      let probe = BaseProbe()
      let shared = ProbeBase(count: total, probe: probe).share(bufferingPolicy: policy)
      // The anchor iterates to the end, so the iteration runs to its end.
      let anchorJoined = Latch()
      let anchor = Task.detached { () -> [Int] in
        var iterator = shared.makeAsyncIterator()
        anchorJoined.open()
        var elements: [Int] = []
        while let element = await probeNext(&iterator) { elements.append(element) }
        return elements
      }
      let others = (0..<Int.random(in: 1...4)).map { _ in
        let plan = Int.random(in: 0..<4)  // 0: to the end; 1: cancel itself; 2: cancelled from outside; 3: drop
        let stopAfter = Int.random(in: 0...20)
        let task = Task.detached { () -> (producedAfterJoin: Int, elements: [Int], plan: Int, after: Int?) in
          await anchorJoined.wait()
          await randomYields(30)
          var iterator = shared.makeAsyncIterator()
          let producedAfterJoin = probe.produced.load(ordering: .sequentiallyConsistent)
          var elements: [Int] = []
          while true {
            if plan == 1, elements.count == stopAfter {
              cancelCurrentTask()
              return (producedAfterJoin, elements, plan, await probeNext(&iterator))
            }
            if plan == 3, elements.count == stopAfter { return (producedAfterJoin, elements, plan, nil) }
            guard let element = await probeNext(&iterator) else { break }
            elements.append(element)
            if Bool.random() { await Task.yield() }
          }
          return (producedAfterJoin, elements, plan, await probeNext(&iterator))
        }
        if plan == 2 {
          Task.detached {
            await randomYields(40)
            task.cancel()
          }
        }
        return task
      }
      #expect(await anchor.value == Array(0..<total), "round \(round) \(policy)")
      for other in others {
        let (producedAfterJoin, elements, plan, after) = await other.value
        let start = elements.first ?? 0
        #expect(elements == Array(start..<(start + elements.count)), "round \(round) \(policy): \(elements)")
        #expect(after == nil, "round \(round) \(policy) plan \(plan)")
        if plan == 0 {
          let start = elements.first ?? total
          #expect(elements == Array(start..<total), "round \(round) \(policy): a joiner lost elements")
          #expect(start <= producedAfterJoin, "round \(round) \(policy): missed an element produced after joining")
        }
      }
      var late = shared.makeAsyncIterator()
      #expect(await probeNext(&late) == nil)
    }
  }

  /// The last iterator leaves a started iteration: the upstream stops and releases the base's iterator; a base
  /// blocked in next() sees the cancellation.
  @Test("share, the last iterator leaving stops the upstream", arguments: losslessPolicies)
  func lastLeavesStopsUpstream(policy: AsyncBufferSequencePolicy) async {
    for round in 0..<Stress.rounds(150) {
      let probe = BaseProbe()
      let total = Int.random(in: 1...6)
      // After `total` elements the base waits in next() until its task is cancelled.
      let shared = ProbeBase(count: total, blocks: true, probe: probe).share(bufferingPolicy: policy)
      let consumers = Int.random(in: 1...3)
      // Consumer 0 takes 1...total elements, so the iteration surely starts, then cancels itself or drops its
      // iterator. The others take up to total + 1, waiting in the upstream's blocked pull; those are cancelled
      // from outside.
      let takes = (0..<consumers).map { index in Int.random(in: 1...(index == 0 ? total : total + 1)) }
      // Every iterator exists before the first next(), so each of them gets a prefix of the elements.
      let joined = CountDown(consumers)
      let go = Latch()
      let tasks = takes.map { take in
        Task.detached { () -> [Int] in
          var iterator = shared.makeAsyncIterator()
          joined.arrive()
          await go.wait()
          var elements: [Int] = []
          while elements.count < take, let element = await probeNext(&iterator) { elements.append(element) }
          if Bool.random() {
            cancelCurrentTask()
            #expect(await probeNext(&iterator) == nil)
          }
          return elements  // the iterator is dropped here
        }
      }
      await joined.wait()
      go.open()
      for (index, task) in tasks.enumerated() where takes[index] == total + 1 || (index > 0 && Bool.random()) {
        Task.detached {
          await randomYields(10)
          task.cancel()
        }
      }
      for task in tasks {
        let elements = await task.value
        #expect(elements == Array(0..<elements.count), "round \(round) \(policy)")
      }
      // Every iterator is gone: the upstream stops — whether it was in the base's next() or suspended for room —
      // and releases the base's iterator (a hang here fails by the time limit).
      await probe.iteratorReleased.wait()
      var late = shared.makeAsyncIterator()
      #expect(await probeNext(&late) == nil, "round \(round): an iterator made after the iteration ended")
    }
  }

  /// The upstream blocked in the base's next() sees the cancellation when the last iterator leaves.
  @Test("share, the base sees the cancellation", arguments: losslessPolicies)
  func baseSeesCancellation(policy: AsyncBufferSequencePolicy) async {
    for round in 0..<Stress.rounds(150) {
      let probe = BaseProbe()
      let shared = ProbeBase(count: 0, blocks: true, probe: probe).share(bufferingPolicy: policy)
      let consumers = Int.random(in: 1...3)
      let tasks = (0..<consumers).map { _ in
        Task.detached {
          var iterator = shared.makeAsyncIterator()
          return await probeNext(&iterator)
        }
      }
      for task in tasks {
        Task.detached {
          await randomYields(10)
          task.cancel()
        }
      }
      for task in tasks { #expect(await task.value == nil) }
      // The upstream may not have started at all if every consumer was cancelled before it waited; once the
      // base's iterator exists, it must be released, and a next() called on it must have seen the cancellation.
      if probe.made.load(ordering: .sequentiallyConsistent) {
        await probe.iteratorReleased.wait()
        #expect(
          probe.nextCalls.load(ordering: .sequentiallyConsistent) == 0
            || probe.sawCancellation.load(ordering: .sequentiallyConsistent), "round \(round)")
      }
    }
  }
}

/// Per-consumer counts of the next() calls begun.
private final class Counts: Sendable {
  let value: _Mutex<[Int]>
  init(_ count: Int) { value = _Mutex([Int](repeating: 0, count: count)) }
}

// MARK: - channels

@Suite("channel under stress", .timeLimit(.minutes(3)))
struct BufferingStressChannelTests {
  /// Several senders and consumers; some sends and next() calls are cancelled at random, from inside or outside.
  /// Every element is delivered at most once, each sender's in order; every element of a sender that was never
  /// cancelled is delivered; a next() begun after its task was cancelled returns nil; a send begun after its task
  /// was cancelled delivers nothing; everything returns.
  @Test("channel, random cancellation of senders and consumers")
  func randomCancellation() async {
    for round in 0..<Stress.rounds(200) {
      let channel = AsyncChannel<Int>()
      let senders = Int.random(in: 1...4)
      let perSender = 40
      let consumers = Int.random(in: 1...4)
      // Consumer 0 is never cancelled, so every uncancelled send completes.
      let consumerTasks = (0..<consumers).map { index in
        Task.detached { () -> (elements: [Int], lateTakes: Int) in
          var iterator = channel.makeAsyncIterator()
          var elements: [Int] = []
          var lateTakes = 0
          let cancelAfter = index == 0 ? nil : (Bool.random() ? Int.random(in: 0...20) : nil)
          while true {
            if let cancelAfter, elements.count == cancelAfter { cancelCurrentTask() }
            let cancelledBefore = Task.isCancelled
            guard let element = await probeNext(&iterator) else { break }
            if cancelledBefore { lateTakes += 1 }
            elements.append(element)
          }
          return (elements, lateTakes)
        }
      }
      let cancelledSenders = (0..<senders).map { _ in Int.random(in: 0..<3) == 0 }
      let senderTasks = (0..<senders).map { sender in
        Task.detached { () -> Set<Int> in
          // The elements sent after the task was already cancelled: none of them may be delivered.
          var sentCancelled: Set<Int> = []
          let cancelAt = cancelledSenders[sender] ? Int.random(in: 0..<perSender) : nil
          for index in 0..<perSender {
            if index == cancelAt { cancelCurrentTask() }
            let element = sender * 1000 + index
            if Task.isCancelled { sentCancelled.insert(element) }
            await channel.send(element)
          }
          return sentCancelled
        }
      }
      // Outside cancellation of some consumers (never consumer 0) and of cancelled-marked senders.
      for index in 1..<consumers where Bool.random() {
        let victim = consumerTasks[index]
        Task.detached {
          await randomYields(30)
          victim.cancel()
        }
      }
      var mustNotArrive: Set<Int> = []
      for task in senderTasks { mustNotArrive.formUnion(await task.value) }
      channel.finish()
      var all: [Int] = []
      for task in consumerTasks {
        let (elements, lateTakes) = await task.value
        #expect(lateTakes == 0, "round \(round): a next() in a cancelled task took an element")
        for sender in 0..<senders {
          let own = elements.filter { $0 / 1000 == sender }
          #expect(own == own.sorted(), "round \(round): sender \(sender)'s elements out of order")
        }
        all += elements
      }
      #expect(Set(all).count == all.count, "round \(round): an element was delivered twice")
      #expect(Set(all).isDisjoint(with: mustNotArrive), "round \(round): a send in a cancelled task delivered")
      for sender in 0..<senders where !cancelledSenders[sender] {
        let own = all.filter { $0 / 1000 == sender }.sorted()
        #expect(own == (0..<perSender).map { sender * 1000 + $0 }, "round \(round): sender \(sender) lost elements")
      }
      // After finish, sends return at once and next() returns nil.
      await channel.send(-1)
      var iterator = channel.makeAsyncIterator()
      #expect(await probeNext(&iterator) == nil)
    }
  }

  /// fail(_:) races with sends and next() calls: every send returns; each consumer throws at most once, then gets
  /// nil; the error is thrown at least once (to the waiting consumers, or else to the next next()); no element
  /// is delivered twice.
  @Test("throwing channel, fail races with send and next")
  func failRaces() async {
    for round in 0..<Stress.rounds(300) {
      let channel = AsyncThrowingChannel<Int, Boom>()
      let consumers = Int.random(in: 1...4)
      let consumerTasks = (0..<consumers).map { _ in
        Task.detached { () -> Seen in
          var iterator = channel.makeAsyncIterator()
          var seen = Seen()
          while true {
            do {
              guard let element = try await iterator.next() else { break }
              seen.elements.append(element)
            } catch {
              seen.errors += 1
              seen.after.append(await probeNext(&iterator))
              break
            }
          }
          return seen
        }
      }
      let senderTasks = (0..<Int.random(in: 1...3)).map { sender in
        Task.detached {
          for index in 0..<Int.random(in: 0...30) { await channel.send(sender * 1000 + index) }
        }
      }
      let failer = Task.detached {
        await randomYields(30)
        channel.fail(.boom)
        if Bool.random() { channel.finish() }
        if Bool.random() { channel.fail(.boom) }
      }
      await failer.value
      for task in senderTasks { await task.value }
      var errors = 0
      var all: [Int] = []
      for task in consumerTasks {
        let seen = await task.value
        #expect(seen.errors <= 1)
        if seen.errors == 1 { #expect(seen.after == [nil], "round \(round)") }
        errors += seen.errors
        all += seen.elements
      }
      #expect(errors >= 1, "round \(round): the error was lost")
      #expect(Set(all).count == all.count, "round \(round): an element was delivered twice")
      var iterator = channel.makeAsyncIterator()
      #expect(await probeNext(&iterator) == nil, "round \(round): the error was thrown again")
    }
  }

  /// finish() races with sends and next() calls: every party returns, no element twice.
  @Test("channel, finish races with send and next")
  func finishRaces() async {
    for round in 0..<Stress.rounds(300) {
      let channel = AsyncChannel<Int>()
      let consumerTasks = (0..<Int.random(in: 1...4)).map { _ in
        Task.detached { () -> [Int] in
          var elements: [Int] = []
          for await element in channel { elements.append(element) }
          return elements
        }
      }
      let senderTasks = (0..<Int.random(in: 1...3)).map { sender in
        Task.detached {
          for index in 0..<Int.random(in: 0...30) { await channel.send(sender * 1000 + index) }
        }
      }
      await randomYields(30)
      channel.finish()
      for task in senderTasks { await task.value }
      var all: [Int] = []
      for task in consumerTasks { all += await task.value }
      #expect(Set(all).count == all.count, "round \(round)")
    }
  }
}

// MARK: - buffer

@Suite("buffer under stress", .timeLimit(.minutes(3)))
struct BufferingStressBufferTests {
  /// Lossless policies: every element in order, then nil (or the error once, then nil); a consumer that cancels
  /// itself gets nil from its very next next(); one cancelled from outside gets a prefix; the base's task is
  /// cancelled and its iterator released once the consumer leaves.
  /// (A limit of 0 has no buffer and iterates the base on the consumer's task: see the limit-0 test below.)
  @Test(
    "buffer, end, error and random cancellation",
    arguments: [AsyncBufferSequencePolicy.bounded(1), .bounded(3), .unbounded] + droppingPolicies)
  func randomCancellation(policy: AsyncBufferSequencePolicy) async {
    let lossless = losslessPolicies.contains(policy)
    for round in 0..<Stress.rounds(200) {
      let total = Int.random(in: 0...50)
      let fails = Bool.random()
      let probe = BaseProbe()
      let buffered = ProbeBase(count: total, fails: fails, probe: probe).buffer(policy: policy)
      let plan = Int.random(in: 0..<3)  // 0: to the end; 1: cancel itself; 2: cancelled from outside
      let cancelAfter = Int.random(in: 0...total)
      let task = Task.detached { () -> Seen in
        var iterator = buffered.makeAsyncIterator()
        var seen = Seen()
        while true {
          if plan == 1, seen.elements.count == cancelAfter {
            cancelCurrentTask()
            seen.after.append(await probeNext(&iterator))
            seen.errors = -1  // marks the self-cancellation
            return seen
          }
          do {
            guard let element = try await iterator.next() else { break }
            seen.elements.append(element)
            await randomYields(1)
          } catch {
            seen.errors += 1
            break
          }
        }
        seen.after.append(await probeNext(&iterator))
        seen.after.append(await probeNext(&iterator))
        return seen
      }
      if plan == 2 {
        Task.detached {
          await randomYields(20)
          task.cancel()
        }
      }
      let seen = await task.value
      if lossless {
        #expect(seen.elements == Array(0..<seen.elements.count), "round \(round) \(policy): \(seen)")
      } else {
        #expect(isStrictlyIncreasing(seen.elements) && seen.elements.allSatisfy { $0 < total })
      }
      switch plan {
      case 0:
        if lossless { #expect(seen.elements.count == total, "round \(round) \(policy): lost elements \(seen)") }
        if !lossless, total > 0, case .bufferingLatest = policy.storage {
          #expect(seen.elements.last == total - 1, "round \(round) \(policy): the newest element was dropped")
        }
        #expect(seen.errors == (fails ? 1 : 0), "round \(round) \(policy): \(seen)")
        #expect(seen.after == [nil, nil], "round \(round) \(policy): \(seen)")
      case 1 where seen.errors == -1:
        #expect(seen.after == [nil], "round \(round) \(policy): a cancelled next() returned \(seen.after)")
      default:
        #expect(seen.errors <= (fails ? 1 : 0))
      }
      // The base's task, once it made the base's iterator, ends and releases it (a hang fails by the time limit).
      if probe.made.load(ordering: .sequentiallyConsistent) { await probe.iteratorReleased.wait() }
    }
  }

  /// `.bounded(n)`, n > 0: the base is not asked for element k before the consumer began its (k - n + 1)th
  /// next() — at most n elements wait.
  @Test("buffer, bounded(n) pacing", arguments: [1, 2, 5])
  func boundedPacing(limit: Int) async {
    for round in 0..<Stress.rounds(200) {
      let box = Counts(1)
      let violations = Atomic<Int>(0)
      let probe = BaseProbe { index in
        if index >= box.value.withLock({ $0[0] }) + limit {
          violations.add(1, ordering: .sequentiallyConsistent)
        }
      }
      let total = 50
      let buffered = ProbeBase(count: total, probe: probe).buffer(policy: .bounded(limit))
      let task = Task.detached { () -> [Int] in
        var iterator = buffered.makeAsyncIterator()
        var elements: [Int] = []
        while true {
          box.value.withLock { $0[0] += 1 }
          guard let element = await probeNext(&iterator) else { break }
          elements.append(element)
          await randomYields(3)
        }
        return elements
      }
      #expect(await task.value == Array(0..<total), "round \(round)")
      #expect(violations.load(ordering: .sequentiallyConsistent) == 0, "round \(round): bounded(\(limit)) pulled ahead")
    }
  }
}

// MARK: - doc checks

@Suite("documented edges", .timeLimit(.minutes(3)))
struct BufferingStressDocTests {
  /// Share.md: a consumer cancelled while busy outside `next()` leaves at its next `next()`; until then its full
  /// buffer holds a bounded upstream back, and then the others go on.
  @Test("share: a cancelled consumer busy outside next() holds a bounded upstream back until its next next()")
  func cancelledBusyConsumer() async {
    let clock = TestClock()
    await clock.lockstep {
      let shared = (0..<4).async.share(bufferingPolicy: .bounded(1))
      let gate = Gate()
      let seenByStaying = _Mutex<[Int]>([])
      let busy = Task {
        var iterator = shared.makeAsyncIterator()
        _ = await iterator.next()
        await gate.wait()  // busy, ignoring cancellation
        return await iterator.next()
      }
      let staying = Task {
        var iterator = shared.makeAsyncIterator()
        while let element = await iterator.next() { seenByStaying.withLock { $0.append(element) } }
      }
      await clock.advance(by: .zero)
      #expect(seenByStaying.withLock { $0 } == [0, 1])  // the busy one holds 1: the upstream waits
      busy.cancel()
      await clock.advance(by: .zero)
      // Cancellation is cooperative: the busy consumer leaves at its next `next()`, and holds the upstream till then.
      #expect(seenByStaying.withLock { $0 } == [0, 1])
      gate.open()
      #expect(await busy.value == nil)
      await staying.value
      #expect(seenByStaying.withLock { $0 } == [0, 1, 2, 3])
    }
  }
}
