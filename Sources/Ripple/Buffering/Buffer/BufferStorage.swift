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

  /// Starts the one task that iterates the base for this iteration.
  @inlinable
  func startBase() {
    let task = _startOperatorTask { [self] in
      var iterator = base.makeAsyncIterator()
      do throws(Base.Failure) {
        while let element = try await iterator.next(isolation: nil) {
          switch machine.withLock({ $0.elementProduced(element) }) {
          case .waitForRoom:
            let goOn = await withUnsafeContinuation { (producer: Machine.Producer) in
              perform(machine.withLock { $0.producerWaits(producer) })
            }
            guard goOn else { return }
          case .stopProducing:
            return
          case let action:
            perform(action)
          }
        }
        perform(machine.withLock { $0.baseFinished() })
      } catch {
        perform(machine.withLock { $0.baseFailed(error) })
      }
    }
    perform(machine.withLock { $0.baseStarted(task) })
  }

  @inlinable
  func next(isolation actor: isolated (any Actor)?) async throws(Base.Failure) -> Base.Element? {
    // The steady path: an element waits, so take it without a continuation. A cancelled consumer goes the slow
    // way, whose cancellation handler ends the iteration.
    if !Task.isCancelled, case .returnResult(let result, let producer) = machine.withLock({ $0.nextRequested() }) {
      producer?.resume(returning: true)
      return try result.get()
    }
    return try await waitForNext(isolation: actor) { consumer in
      perform(machine.withLock { $0.consumerWaits(consumer) })
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
    case .none, .wait, .returnResult, .waitForRoom, .stopProducing:
      break
    case .startBase:
      startBase()
    case .resumeConsumer(let consumer, let result, let producer):
      producer?.resume(returning: true)
      consumer.resume(returning: result)
    case .resumeProducer(let producer, let goOn):
      producer.resume(returning: goOn)
    case .cancelTask(let task):
      task.cancel()
    case .end(let consumer, let producer, let task):
      task?.cancel()
      producer?.resume(returning: false)
      consumer?.resume(returning: .success(nil))
    }
  }
}
