import InternalRippleUtilities

/// The shared state of one buffered channel: its machine behind the lock. The channel owns it and finishes it when it
/// goes away; each iterator's ``_BufferedChannelConsumer`` refers to it.
@usableFromInline
final class _BufferedChannelStorage<Element: Sendable, Failure: Error>: Sendable {
  @usableFromInline typealias Waiter = UnsafeContinuation<Element?, Never>
  @usableFromInline typealias Machine = _BufferedChannelStateMachine<Element, Failure, Waiter>

  @usableFromInline let machine = _Mutex(Machine())

  @inlinable init() {}

  @inlinable
  func send(_ element: Element) {
    switch machine.withLock({ $0.elementSent(element) }) {
    case .none: break
    case .resume(let waiter, let element): waiter.resume(returning: element)
    }
  }

  @inlinable
  func terminate(_ failure: Failure?) {
    for waiter in machine.withLock({ $0.terminated(failure) }) { waiter.resume(returning: nil) }
  }
}

/// One iterator of a buffered channel: its id among the waiters, and whether it had its end. Each `next()` takes one
/// element from the channel, so an iterator holds nothing another could want.
// @unchecked: `ended` is touched only by the one consumer that owns the iterator (iterators are not `Sendable`); the
// cancellation handler touches only the machine.
@usableFromInline
final class _BufferedChannelConsumer<Element: Sendable, Failure: Error>: @unchecked Sendable {
  @usableFromInline let storage: _BufferedChannelStorage<Element, Failure>
  @usableFromInline let id: UInt64
  @usableFromInline var ended = false

  @inlinable
  init(_ storage: _BufferedChannelStorage<Element, Failure>) {
    self.storage = storage
    id = storage.machine.withLock { $0.iteratorMade() }
  }

  @inlinable
  func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
    while true {
      if ended { return nil }
      if Task.isCancelled {
        ended = true
        return nil
      }
      switch storage.machine.withLock({ $0.nextReady() }) {
      case .element(let element):
        return element
      case .end(let failure):
        ended = true
        if let failure { throw failure }
        return nil
      case .wait:
        let handed = await withTaskCancellationHandler {
          await withUnsafeContinuation(isolation: actor) { (waiter: UnsafeContinuation<Element?, Never>) in
            storage.machine.withLock { $0.nextRequested(id, waiter, cancelled: Task.isCancelled) }?
              .resume(returning: nil)
          }
        } onCancel: {
          storage.machine.withLock { $0.cancelled(id) }?.resume(returning: nil)
        }
        // Handed over directly (even if cancelled meanwhile: taken is taken; the next call ends).
        if let handed { return handed }
      }
    }
  }
}
