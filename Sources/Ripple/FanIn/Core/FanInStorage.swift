import InternalRippleUtilities

/// One iteration of a fan-in operator: its ``_FanInStateMachine`` in a lock, the consumer's side and the
/// producers' side, and the task that consumes the bases (one child task per base), started once the first `next()`
/// waits.
@usableFromInline
final class _FanInStorage<Policy: _FanInPolicy, Failure: Error>: _IterationStorage {
  @usableFromInline typealias Machine = _FanInStateMachine<Policy, Failure>
  @usableFromInline typealias Value = Policy.Value
  /// Consumes the bases, each with ``consume(_:at:as:)``.
  @usableFromInline typealias Run = @Sendable (_FanInStorage) async -> Void

  @usableFromInline let machine: _Mutex<Machine>

  @inlinable
  init(count: Int, policy: Policy, name: StaticString, run: @escaping Run) {
    machine = _Mutex(Machine(count: count, policy: policy, name: name, run: run))
  }

  /// Starts the task consuming the bases; the first consumer already waits. The task alone holds `run`, so the
  /// bases go when it ends.
  @inlinable
  func startTask() {
    guard let run = machine.withLock({ $0.takeRun() }) else { return }
    let task = _startOperatorTask { await run(self) }
    perform(machine.withLock { $0.taskStarted(task) })
  }

  @inlinable
  func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Policy.Output? {
    // An output that is ready costs one lock: no continuation, no cancellation handler. A cancelled task takes the
    // slow path, whose handler ends the iteration at once.
    if !Task.isCancelled, case .returnResult(let result, let wake) = machine.withLock({ $0.nextReady() }) {
      wake.resume()
      return try result.get()
    }
    return try await waitForNext(isolation: actor) { consumer in
      perform(machine.withLock { $0.nextRequested(consumer) })
    }
  }

  @inlinable
  func cancel() {
    perform(machine.withLock { $0.cancelled() })
  }

  /// Iterates `base` as base number `index`, handing each element over as `wrap(element)` and asking for the next
  /// one only once it has been used.
  @inlinable
  func consume<Base: AsyncSequence>(
    _ base: Base, at index: Int, as wrap: (Base.Element) -> Value
  ) async where Base.Failure == Failure {
    do throws(Failure) {
      // The base's iterator is gone by the time the others are cancelled or the consumer learns the end.
      guard try await produce(base, at: index, as: wrap) else { return }
      perform(machine.withLock { $0.baseFinished(at: index) })
    } catch {
      perform(machine.withLock { $0.baseFailed(error) })
    }
  }

  /// Hands over the elements of `base`; returns `true` when it finished, `false` when the iteration ended.
  @inlinable
  func produce<Base: AsyncSequence>(
    _ base: Base, at index: Int, as wrap: (Base.Element) -> Value
  ) async throws(Failure) -> Bool where Base.Failure == Failure {
    var iterator = base.makeAsyncIterator()
    // A channel's iterator holds what its consumer took out of the channel: hand it over in batches. A type check
    // rather than a protocol, so that the batch loop is specialised for the element type (through a protocol the
    // call was generic, and its metadata lookups cost more than the batches saved).
    typealias ChannelIterator = _MPSCChannelElements<Base.Element, Failure>.Iterator
    if Base.AsyncIterator.self == ChannelIterator.self {
      var channel = unsafeBitCast(consume iterator, to: ChannelIterator.self)
      return try await produceBatches(of: &channel, at: index, as: wrap)
    }
    var none = _Queue<Value>()
    while let element = try await iterator.next(isolation: nil) {
      guard await handOver(wrap(element), then: &none, at: index) else { return false }
    }
    return true
  }

  /// ``produce(_:at:as:)`` for a channel's iterator: each step hands over an element it waited for and those the
  /// channel's consumer already holds, at most ``batchLimit`` in all.
  @inlinable
  func produceBatches<Element>(
    of iterator: inout _MPSCChannelElements<Element, Failure>.Iterator, at index: Int, as wrap: (Element) -> Value
  ) async throws(Failure) -> Bool {
    var batch = _Queue<Value>()
    while let element = try await iterator.next(isolation: nil) {
      iterator.takeBuffered(upTo: Self.batchLimit - 1) { batch.append(wrap($0)) }
      guard await handOver(wrap(element), then: &batch, at: index) else { return false }
    }
    return true
  }

  /// The most elements a producer hands over in one step: what a channel's consumer holds beyond it waits for the
  /// next step, so that a fan-in holds at most this many elements per base.
  @inlinable static var batchLimit: Int { 256 }

  /// Hands `value` and then `rest` (emptied) over as base `index`'s, waiting until they are used when the
  /// consumer cannot use them at once; `false` when the iteration ended.
  @inlinable
  func handOver(_ value: Value, then rest: inout _Queue<Value>, at index: Int) async -> Bool {
    let action = machine.withLock { $0.elementsProduced(value, then: &rest, at: index) }
    switch action {
    case .suspendProducer, .resumeConsumerThenSuspendProducer:
      perform(action)
      return await withUnsafeContinuation(isolation: nil) { (producer: _FanInProducer) in
        perform(machine.withLock { $0.producerSuspending(at: index, producer) })
      }
    case .stopProducer:
      return false
    default:
      perform(action)
      return true
    }
  }

  /// Runs an action outside the lock.
  @inlinable
  func perform(_ action: Machine.Action) {
    switch action {
    case .none, .suspendProducer, .stopProducer:
      break
    case .returnResult(_, let wake):
      wake.resume()
    case .resumeConsumer(let consumer, let result, let wake),
      .resumeConsumerThenSuspendProducer(let consumer, let result, let wake):
      wake.resume()
      consumer.resume(returning: result)
    case .resumeProducer(let producer, let goOn):
      producer.resume(returning: goOn)
    case .startTask:
      startTask()
    case .cancelTask:
      machine.withLock { $0.takeTask() }?.cancel()
    case .end(let consumer, let result, let producers, let cancelTask):
      if cancelTask { machine.withLock { $0.takeTask() }?.cancel() }
      producers.resume(returning: false)
      consumer?.resume(returning: result)
    }
  }
}

extension _FanInStorage {
  /// Consumes two bases of possibly different types, as base 0 and base 1.
  @inlinable
  static func run<Base1: AsyncSequence & Sendable, Base2: AsyncSequence & Sendable>(
    _ base1: Base1, as wrap1: @escaping @Sendable (Base1.Element) -> Value,
    _ base2: Base2, as wrap2: @escaping @Sendable (Base2.Element) -> Value
  ) -> Run where Base1.Failure == Failure, Base2.Failure == Failure {
    { storage in
      await withDiscardingTaskGroup { group in
        group.addTask { await storage.consume(base1, at: 0, as: wrap1) }
        group.addTask { await storage.consume(base2, at: 1, as: wrap2) }
      }
    }
  }

  /// Consumes three bases of possibly different types, as bases 0, 1 and 2.
  @inlinable
  static func run<Base1: AsyncSequence & Sendable, Base2: AsyncSequence & Sendable, Base3: AsyncSequence & Sendable>(
    _ base1: Base1, as wrap1: @escaping @Sendable (Base1.Element) -> Value,
    _ base2: Base2, as wrap2: @escaping @Sendable (Base2.Element) -> Value,
    _ base3: Base3, as wrap3: @escaping @Sendable (Base3.Element) -> Value
  ) -> Run where Base1.Failure == Failure, Base2.Failure == Failure, Base3.Failure == Failure {
    { storage in
      await withDiscardingTaskGroup { group in
        group.addTask { await storage.consume(base1, at: 0, as: wrap1) }
        group.addTask { await storage.consume(base2, at: 1, as: wrap2) }
        group.addTask { await storage.consume(base3, at: 2, as: wrap3) }
      }
    }
  }

  /// Consumes every base of a collection, in its order.
  @inlinable
  static func run<Base: AsyncSequence & Sendable>(_ bases: [Base]) -> Run
  where Base.Element == Value, Base.Failure == Failure {
    { storage in
      await withDiscardingTaskGroup { group in
        for (index, base) in bases.enumerated() {
          group.addTask { await storage.consume(base, at: index, as: { $0 }) }
        }
      }
    }
  }
}
