import InternalRippleUtilities

/// The shared iteration of one `share(bufferingPolicy:)`: the base, the upstream task that iterates it, and every
/// iterator's side, under one lock.
@usableFromInline
final class _ShareStorage<Base: AsyncSequence & Sendable>: Sendable where Base.Element: Sendable {
  @usableFromInline typealias Machine = _ShareStateMachine<Base.Element, Base.Failure>

  @usableFromInline let base: Base
  @usableFromInline let machine: _Mutex<Machine>

  @inlinable
  init(base: Base, policy: AsyncBufferSequencePolicy) {
    self.base = base
    machine = _Mutex(Machine(policy: policy))
  }

  /// Starts the one task that iterates the base for every iterator.
  @inlinable
  func start() {
    let task = _startOperatorTask { [self] in
      // Asked before the base's iterator is made: when every iterator left before this task ran, the base is
      // never touched.
      var action = machine.withLock { $0.producerBegan() }
      if case .stop = action { return }
      var iterator = base.makeAsyncIterator()
      // Reused for every element, so handing an element to several consumers allocates nothing once it has grown.
      var deliveries: [Machine.Delivery] = []
      var failure: Base.Failure?
      do throws(Base.Failure) {
        while true {
          switch action {
          case .produceMore:
            break
          case .stop:
            return
          case .suspend:
            let pull = await withUnsafeContinuation { (producer: Machine.Producer) in
              if let pull = machine.withLock({ $0.producerSuspending(producer) }) {
                producer.resume(returning: pull)
              }
            }
            guard pull else { return }
          }
          guard let element = try await iterator.next(isolation: nil) else { break }
          action = machine.withLock { $0.elementProduced(element, deliveries: &deliveries) }
          for delivery in deliveries { delivery.resume() }
          deliveries.removeAll(keepingCapacity: true)
        }
      } catch {
        failure = error
      }
      machine.withLock { $0.baseEnded(failure, deliveries: &deliveries) }
      for delivery in deliveries { delivery.resume() }
    }
    perform(machine.withLock { $0.started(task) })
  }

  /// Runs an action outside the lock.
  @inlinable
  func perform(_ action: Machine.Action) {
    switch action {
    case .none:
      break
    case .start:
      start()
    case .resume(let delivery, let producer):
      delivery?.resume()
      producer?.resume(returning: true)
    case .cancelTask(let task):
      task.cancel()
    case .stopUpstream(let delivery, let task, let producer):
      task?.cancel()
      producer?.resume(returning: false)
      delivery?.resume()
    }
  }
}

/// One iterator's part of a shared iteration: ``_IterationHandle`` drives it, and ends it when the iterator goes away.
@usableFromInline
final class _ShareSide<Base: AsyncSequence & Sendable>: _IterationStorage where Base.Element: Sendable {
  @usableFromInline let storage: _ShareStorage<Base>
  @usableFromInline let id: _ShareStorage<Base>.Machine.SideID

  /// Joins the shared iteration: from now on, every element the base produces is kept for this iterator.
  @inlinable
  init(_ storage: _ShareStorage<Base>) {
    self.storage = storage
    id = storage.machine.withLock { $0.joined() }
  }

  @inlinable
  func next(isolation: isolated (any Actor)?) async throws(Base.Failure) -> Base.Element? {
    // The steady path of a consumer slower than the base: its element is buffered, so it need not prepare to
    // wait. A cancelled consumer goes the long way, which ends its iteration.
    if !Task.isCancelled, let (element, producer) = storage.machine.withLock({ $0.nextReady(id) }) {
      producer?.resume(returning: true)
      return element
    }
    return try await waitForNext(isolation: isolation) { consumer in
      storage.perform(storage.machine.withLock { $0.nextRequested(id, consumer) })
    }
  }

  @inlinable
  func cancel() {
    storage.perform(storage.machine.withLock { $0.cancelled(id) })
  }
}
