import InternalRippleUtilities

/// The shared state of one `buffer(policy:)` iteration, for the consumer and the task that iterates the base.
@usableFromInline
final class _BufferStorage<Base: AsyncSequence & Sendable>: _IterationStorage where Base.Element: Sendable {
  @usableFromInline typealias Machine = _BufferStateMachine<Base.Element, Base.Failure>

  @usableFromInline let base: Base
  @usableFromInline let machine: _Mutex<Machine>

  @inlinable
  init(base: Base, policy: AsyncBufferSequencePolicy.Storage) {
    self.base = base
    machine = _Mutex(Machine(policy: policy))
  }

  /// Starts the one task that iterates the base for this iteration; the first consumer already waits.
  @inlinable
  func start() {
    let task = _startOperatorTask { [self] in
      var iterator = base.makeAsyncIterator()
      do throws(Base.Failure) {
        while let element = try await iterator.next(isolation: nil) {
          switch machine.withLock({ $0.elementProduced(element) }) {
          case .produceMore:
            break
          case .resumeConsumer(let consumer, let result):
            consumer.resume(returning: result)
          case .suspend:
            let goOn = await withUnsafeContinuation { (producer: Machine.Producer) in
              if let goOn = machine.withLock({ $0.producerSuspending(producer) }) {
                producer.resume(returning: goOn)
              }
            }
            guard goOn else { return }
          case .stop:
            return
          }
        }
        perform(machine.withLock { $0.baseFinished() })
      } catch {
        perform(machine.withLock { $0.baseFailed(error) })
      }
    }
    perform(machine.withLock { $0.started(task) })
  }

  @inlinable
  func next(isolation actor: isolated (any Actor)?) async throws(Base.Failure) -> Base.Element? {
    // The steady path: an element waits, so take it without a continuation. A cancelled consumer goes the slow
    // way, whose cancellation handler ends the iteration.
    if !Task.isCancelled, case .returnResult(let result, let producer) = machine.withLock({ $0.nextReady() }) {
      producer?.resume(returning: true)
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

  /// Runs an action outside the lock.
  @inlinable
  func perform(_ action: Machine.Action) {
    switch action {
    case .none:
      break
    case .start:
      start()
    case .returnResult(_, let producer):
      producer?.resume(returning: true)
    case .resumeConsumer(let consumer, let result, let producer):
      producer?.resume(returning: true)
      consumer.resume(returning: result)
    case .cancelTask(let task):
      task.cancel()
    case .end(let consumer, let producer, let task):
      task?.cancel()
      producer?.resume(returning: false)
      consumer?.resume(returning: .success(nil))
    }
  }
}
