import InternalRippleUtilities

/// The shared state of a channel, for its senders and its consumers.
///
/// The hot path is one lock per side when the other side already waits, and two when the caller must wait (one to
/// decide, one to register), with nothing allocated per element: the element travels in the waiting party's queue
/// entry and in the continuation's result.
@usableFromInline
final class _ChannelStorage<Element: Sendable, Failure: Error>: Sendable {
  @usableFromInline typealias Machine = _ChannelStateMachine<Element, Failure>

  @usableFromInline let machine = _Mutex(Machine())

  @inlinable init() {}

  @inlinable
  func send(_ element: Element) async {
    // A cancelled sender delivers nothing, even to a consumer that waits.
    guard !Task.isCancelled else { return }
    let id: UInt64
    switch machine.withLock({ $0.sendRequested(element) }) {
    case .suspend(let assigned):
      id = assigned
    case let action:
      perform(action)
      return
    }
    await withTaskCancellationHandler {
      await withUnsafeContinuation { (producer: Machine.Producer) in
        perform(machine.withLock { $0.senderWaits(id: id, element, producer, cancelled: Task.isCancelled) })
      }
    } onCancel: {
      senderCancelled(id: id)
    }
  }

  @inlinable
  func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
    // A cancelled consumer takes nothing: an element it took could not be handed back.
    guard !Task.isCancelled else { return nil }
    let id: UInt64
    switch machine.withLock({ $0.nextReady() }) {
    case .take(let element, let producer):
      producer.resume()
      return element
    case .returnResult(let result):
      return try result.get()
    case .suspend(let assigned):
      id = assigned
    case let action:
      preconditionFailure("channel: nextReady gave \(action)")
    }
    let result = await withTaskCancellationHandler {
      await withUnsafeContinuation(isolation: actor) { (consumer: Machine.Consumer) in
        perform(machine.withLock { $0.nextRequested(id: id, consumer, cancelled: Task.isCancelled) })
      }
    } onCancel: {
      consumerCancelled(id: id)
    }
    return try result.get()
  }

  @usableFromInline
  func senderCancelled(id: UInt64) {
    perform(machine.withLock { $0.senderCancelled(id: id) })
  }

  @usableFromInline
  func consumerCancelled(id: UInt64) {
    perform(machine.withLock { $0.consumerCancelled(id: id) })
  }

  @usableFromInline
  func finish() {
    perform(machine.withLock { $0.finished() })
  }

  @usableFromInline
  func fail(_ failure: Failure) {
    perform(machine.withLock { $0.failed(failure) })
  }

  /// Runs an action outside the lock.
  @inlinable
  func perform(_ action: Machine.Action) {
    switch action {
    case .none, .suspend, .take, .returnResult:
      break
    case .resumeProducer(let producer):
      producer.resume()
    case .resumeConsumer(let consumer, let result):
      consumer.resume(returning: result)
    case .handOff(let element, let producer, let consumer):
      // The consumer first: it is the one waiting for work.
      consumer.resume(returning: .success(element))
      producer.resume()
    case .resumeAll(let producers, let consumers, let result):
      for producer in producers { producer.resume() }
      for consumer in consumers { consumer.resume(returning: result) }
    }
  }
}
