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
  func start() {
    guard let run = machine.withLock({ $0.takeRun() }) else { return }
    let task = _startOperatorTask { await run(self) }
    perform(machine.withLock { $0.started(task) })
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
    // An iterator that holds elements already taken out of its source hands them over in batches. The check is on
    // the type, once per iteration, and opens the protocol on the metatype rather than on the iterator: in a client
    // that names its bases' types the cast folds away and the batch loop is specialised for the concrete iterator
    // (an existential iterator, opened by `inout`, stayed generic: each batch then paid metadata lookups).
    if let batching = Base.AsyncIterator.self as? any _FanInBatchingIterator.Type {
      return try await produceBatches(as: batching, from: consume iterator, at: index, as: wrap)
    }
    var none = _Queue<Value>()
    while let element = try await iterator.next(isolation: nil) {
      guard await handOver(wrap(element), then: &none, at: index) else { return false }
    }
    return true
  }

  /// ``produce(_:at:as:)`` for a batching iterator: `Iterator` is `Base`, found so by the caller's check on the
  /// type. Each step hands over an element it waited for and those the iterator already holds, at most
  /// ``batchLimit`` in all.
  ///
  /// The protocol is opened on its plain metatype, which a client that names its bases' types folds away; so its
  /// element and failure types, which equal `Base`'s, are converted by `unsafeBitCast` from one name to the other.
  @inlinable
  func produceBatches<Iterator: _FanInBatchingIterator, Base: AsyncIteratorProtocol>(
    as _: Iterator.Type, from iterator: consuming Base, at index: Int, as wrap: (Base.Element) -> Value
  ) async throws(Failure) -> Bool where Base.Failure == Failure {
    var iterator = unsafeBitCast(iterator, to: Iterator.self)
    func value(_ element: Iterator.Element) -> Value { wrap(unsafeBitCast(element, to: Base.Element.self)) }
    var batch = _Queue<Value>()
    do throws(Iterator.Failure) {
      while let element = try await iterator.next(isolation: nil) {
        iterator.takeBuffered(upTo: Self.batchLimit - 1) { batch.append(value($0)) }
        guard await handOver(value(element), then: &batch, at: index) else { return false }
      }
    } catch {
      throw unsafeBitCast(error, to: Failure.self)
    }
    return true
  }

  /// The most elements a producer hands over in one step: what a batching iterator holds beyond it waits for the
  /// next step, so that a fan-in holds at most this many elements per base.
  @inlinable static var batchLimit: Int { 256 }

  /// Hands `value` and then `rest` (emptied) over as base `index`'s, waiting until they are used when the
  /// consumer cannot use them at once; `false` when the iteration ended.
  @inlinable
  func handOver(_ value: Value, then rest: inout _Queue<Value>, at index: Int) async -> Bool {
    switch machine.withLock({ $0.elementsProduced(value, then: &rest, at: index) }) {
    case .produceMore:
      return true
    case .resumeConsumer(let consumer, let result, let wake):
      wake.resume()
      consumer.resume(returning: result)
      return true
    case .suspend:
      break
    case .resumeConsumerThenSuspend(let consumer, let result, let wake):
      wake.resume()
      consumer.resume(returning: result)
    case .stop:
      return false
    }
    return await withUnsafeContinuation(isolation: nil) { (producer: _FanInProducer) in
      if let goOn = machine.withLock({ $0.producerSuspending(at: index, producer) }) {
        producer.resume(returning: goOn)
      }
    }
  }

  /// Runs an action outside the lock.
  @inlinable
  func perform(_ action: Machine.Action) {
    switch action {
    case .none:
      break
    case .returnResult(_, let wake):
      wake.resume()
    case .resumeConsumer(let consumer, let result, let wake):
      wake.resume()
      consumer.resume(returning: result)
    case .start:
      start()
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
  /// A new iteration over `count` bases, whose task adds one child task per base with `addTasks`, each consuming
  /// its base with ``consume(_:at:as:)``.
  @inlinable
  static func iteration(
    count: Int, policy: Policy, name: StaticString,
    addTasks: @escaping @Sendable (_FanInStorage, inout DiscardingTaskGroup) -> Void
  ) -> _IterationHandle<_FanInStorage> {
    let storage = _FanInStorage(count: count, policy: policy, name: name) { storage in
      await withDiscardingTaskGroup { group in addTasks(storage, &group) }
    }
    return _IterationHandle(storage)
  }

  /// A new iteration of `bases` under `policy`, base number `index` being `bases[index]`: the storage of the
  /// fan-in operators of any number of bases of one type.
  @inlinable
  static func iteration<Base: AsyncSequence & Sendable>(
    of bases: [Base], policy: Policy, name: StaticString
  ) -> _IterationHandle<_FanInStorage> where Base.Element == Value, Base.Failure == Failure {
    iteration(count: bases.count, policy: policy, name: name) { storage, group in
      for (index, base) in bases.enumerated() {
        group.addTask { await storage.consume(base, at: index, as: { $0 }) }
      }
    }
  }
}
