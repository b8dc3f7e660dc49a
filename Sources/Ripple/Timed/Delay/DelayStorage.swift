import InternalRippleUtilities

/// One iteration of ``AsyncDelaySequence``: its ``_DelayStateMachine`` in a lock, and the task iterating the base
/// that it starts once the first `next()` waits. The consumer sleeps until each delivery is due.
@usableFromInline
final class _DelayStorage<Base: AsyncSequence & Sendable, C: Clock>: _IterationStorage where Base.Element: Sendable {
  @usableFromInline typealias Delivery = _DelayDelivery<Base.Element, Base.Failure, C.Instant>
  @usableFromInline typealias Machine = _DelayStateMachine<
    Base.Element, Base.Failure, C.Instant, UnsafeContinuation<Delivery, Never>, Task<Void, Never>
  >

  @usableFromInline let machine = _Mutex(Machine())
  @usableFromInline let timed: _TimedBase<Base, C>

  @inlinable
  init(_ timed: _TimedBase<Base, C>) {
    self.timed = timed
  }

  /// The next element once it is due; `nil` once the finish is due or the iteration was cancelled. Throws the
  /// base's failure once it is due.
  @inlinable
  func next(isolation actor: isolated (any Actor)?) async throws(Base.Failure) -> Base.Element? {
    // A cancelled consumer gets nothing more, even what is already due (the type's doc: cancelling drops the queue).
    if Task.isCancelled {
      cancel()
      return nil
    }
    let delivery: Delivery
    if let ready = machine.withLock({ $0.nextReady() }) {
      delivery = ready
    } else {
      delivery = await withTaskCancellationHandler {
        await withUnsafeContinuation(isolation: actor) { (consumer: UnsafeContinuation<Delivery, Never>) in
          perform(machine.withLock { $0.nextRequested(consumer) })
        }
      } onCancel: {
        cancel()
      }
    }
    switch delivery {
    case .element(let element, let due):
      return await waitUntil(due) ? element : nil
    case .finished(let due):
      _ = await waitUntil(due)
      return nil
    case .failed(let failure, let due):
      guard await waitUntil(due) else { return nil }
      throw failure
    case .over:
      return nil
    }
  }

  /// Sleeps until `due` unless it has passed; `false` (and the iteration ends) when the consumer is cancelled.
  @inlinable
  func waitUntil(_ due: C.Instant) async -> Bool {
    guard timed.clock.now < due else { return true }
    do {
      try await timed.sleep(until: due)
      return true
    } catch {
      cancel()
      return false
    }
  }

  @inlinable
  func cancel() {
    perform(machine.withLock { $0.cancelled() })
  }

  /// Starts the task iterating the base; the first consumer already waits.
  @inlinable
  func start() {
    let task = _startOperatorTask { await self.iterateBase() }
    perform(machine.withLock { $0.started(task) })
  }

  /// The body of the base task: stamps every element, and the end, with the instant it is due.
  @inlinable
  func iterateBase() async {
    var iterator = timed.base.makeAsyncIterator()
    while true {
      let element: Base.Element?
      do {
        element = try await iterator.next(isolation: nil)
      } catch {
        let due = timed.deadlineFromNow()
        perform(machine.withLock { $0.baseFailed(error, due: due) })
        return
      }
      let due = timed.deadlineFromNow()
      guard let element else {
        perform(machine.withLock { $0.baseFinished(due: due) })
        return
      }
      switch machine.withLock({ $0.elementProduced(element, due: due) }) {
      case .produceMore:
        break
      case .resumeConsumer(let consumer, let delivery):
        consumer.resume(returning: delivery)
      case .stop:
        return
      }
    }
  }

  /// Runs an action outside the lock.
  @inlinable
  func perform(_ action: Machine.Action) {
    switch action {
    case .none:
      break
    case .start:
      start()
    case .resumeConsumer(let consumer, let delivery):
      consumer.resume(returning: delivery)
    case .cancelTasks(let task):
      task.cancel()
    case .end(let consumer, let task):
      consumer?.resume(returning: .over)
      task?.cancel()
    }
  }
}
