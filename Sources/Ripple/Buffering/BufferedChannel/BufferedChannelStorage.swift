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

/// One iterator of a buffered channel: the elements it took in one step (`batch`) and whether it had its end. Only
/// the iterator holds it; when it goes away, what it took and did not return goes back to the channel.
// @unchecked: `batch` and `ended` are touched only by the one consumer that owns the iterator (iterators are not
// `Sendable`), and by `deinit` after it; the cancellation handler touches only the machine.
@usableFromInline
final class _BufferedChannelConsumer<Element: Sendable, Failure: Error>: @unchecked Sendable {
  @usableFromInline let storage: _BufferedChannelStorage<Element, Failure>
  @usableFromInline let id: UInt64
  @exclusivity(unchecked) @usableFromInline var batch = _Queue<Element>()
  @usableFromInline var ended = false

  @inlinable
  init(_ storage: _BufferedChannelStorage<Element, Failure>) {
    self.storage = storage
    id = storage.machine.withLock { $0.iteratorMade() }
  }

  deinit {
    let handOffs = withUnsafeMutablePointer(to: &batch) { batch in
      let batch = _Transfer(batch)
      return storage.machine.withLock { machine in
        machine.iteratorGone()
        return machine.batchReturned(&batch.value.pointee)
      }
    }
    for (waiter, element) in handOffs { waiter.resume(returning: element) }
  }

  @inlinable @inline(__always)
  func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
    if !Task.isCancelled, let element = batch.popFirst() { return element }
    return try await nextSlow(isolation: actor)
  }

  @inlinable @inline(never)
  func nextSlow(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
    while true {
      if ended { return nil }
      if Task.isCancelled {
        ended = true
        giveBack()
        return nil
      }
      let action = withUnsafeMutablePointer(to: &batch) { batch in
        let batch = _Transfer(batch)
        return storage.machine.withLock { $0.batchRequested(into: &batch.value.pointee) }
      }
      switch action {
      case .batch:
        return batch.popFirst()!
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

  /// Gives what the batch holds back to the channel.
  @inlinable
  func giveBack() {
    guard !batch.isEmpty else { return }
    let handOffs = withUnsafeMutablePointer(to: &batch) { batch in
      let batch = _Transfer(batch)
      return storage.machine.withLock { $0.batchReturned(&batch.value.pointee) }
    }
    for (waiter, element) in handOffs { waiter.resume(returning: element) }
  }
}
