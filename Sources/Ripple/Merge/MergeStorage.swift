/// One `merge` iteration: its state machine in a lock, the consumer's and the producers' sides.
@usableFromInline
final class _MergeStorage<Element: Sendable, Failure: Error>: Sendable {
  @usableFromInline typealias Machine = _MergeStateMachine<Element, Failure>

  @usableFromInline let machine: _Mutex<Machine>

  @inlinable
  init(count: Int) {
    machine = _Mutex(Machine(count: count))
  }

  /// Waits for the next element, on the caller's isolation; `nil` once the iteration is over.
  @inlinable
  func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
    // An element that is ready costs one lock: no continuation, no cancellation handler. A cancelled task
    // takes the slow path, whose handler ends the iteration at once.
    if !Task.isCancelled, let (result, producer) = machine.withLock({ $0.nextReady() }) {
      producer?.resume(returning: true)
      return try result.get()
    }
    let result = await withTaskCancellationHandler {
      await withUnsafeContinuation(isolation: actor) { (consumer: Machine.Consumer) in
        if let (result, producer) = machine.withLock({ $0.nextRequested(consumer) }) {
          producer?.resume(returning: true)
          consumer.resume(returning: result)
        }
      }
    } onCancel: {
      cancelled()
    }
    return try result.get()
  }

  /// Iterates `base` as base number `index`, handing each element over and asking for the next one only
  /// once the consumer has taken it.
  @inlinable
  func consume<Base: AsyncSequence>(_ base: Base, at index: Int) async
  where Base.Element == Element, Base.Failure == Failure {
    do throws(Failure) {
      // The base's iterator is gone by the time the others are cancelled or the consumer learns the end.
      guard try await produce(base, at: index) else { return }
      perform(machine.withLock { $0.baseFinished(at: index) })
    } catch {
      perform(machine.withLock { $0.baseFailed(error) })
    }
  }

  /// Hands over the elements of `base`; returns `true` when it finished, `false` when the iteration ended.
  @inlinable
  func produce<Base: AsyncSequence>(_ base: Base, at index: Int) async throws(Failure) -> Bool
  where Base.Element == Element, Base.Failure == Failure {
    var iterator = base.makeAsyncIterator()
    while let element = try await iterator.next(isolation: nil) {
      switch machine.withLock({ $0.elementProduced(element, at: index) }) {
      case .resumeConsumer(let consumer):
        consumer.resume(returning: .success(element))
      case .suspend:
        let goOn = await withUnsafeContinuation(isolation: nil) { (producer: Machine.Producer) in
          if let goOn = machine.withLock({ $0.producerSuspending(at: index, producer) }) {
            producer.resume(returning: goOn)
          }
        }
        guard goOn else { return false }
      case .stop:
        return false
      }
    }
    return true
  }

  /// Stops the iteration: the consuming task was cancelled or its iterator was dropped.
  @inlinable
  func cancelled() {
    perform(machine.withLock { $0.cancelled() })
  }

  /// Records the task consuming the bases, or cancels it when the iteration is already over.
  @inlinable
  func taskStarted(_ task: Task<Void, Never>) {
    if !machine.withLock({ $0.taskStarted(task) }) {
      task.cancel()
    }
  }

  @inlinable
  func perform(_ action: Machine.EndAction) {
    guard case .end(let consumer, let result, let producers, let task) = action else { return }
    task?.cancel()
    for producer in producers {
      producer.resume(returning: false)
    }
    consumer?.resume(returning: result)
  }
}

/// The iterator-side handle of one `merge` iteration: starts the task on the first `next()` and stops
/// everything when the iterator goes away.
///
/// Only the iterator holds it (the task holds the storage), so its `deinit` runs when the iterator is
/// dropped, for instance by a `break` out of a `for await` loop.
@usableFromInline
final class _MergeIteration<Element: Sendable, Failure: Error> {
  @usableFromInline typealias Storage = _MergeStorage<Element, Failure>
  @usableFromInline typealias Run = @Sendable (Storage) async -> Void

  @usableFromInline let storage: Storage
  /// Consumes the bases; taken by the first `next()`.
  @usableFromInline var run: Run?

  @inlinable
  init(count: Int, run: @escaping Run) {
    storage = Storage(count: count)
    self.run = count == 0 ? nil : run
  }

  @inlinable
  func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
    if let run {
      self.run = nil
      let storage = storage
      storage.taskStarted(_startOperatorTask { await run(storage) })
    }
    return try await storage.next(isolation: actor)
  }

  deinit {
    storage.cancelled()
  }
}
