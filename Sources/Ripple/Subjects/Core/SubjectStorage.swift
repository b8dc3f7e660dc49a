import InternalRippleUtilities

/// The shared state of one subject: its machine behind the lock. Each subject class owns one and finishes it when
/// the subject goes away; each iterator's ``_SubjectSide`` refers to it.
@usableFromInline
final class _SubjectStorage<Element: Sendable, Failure: Error>: Sendable {
  @usableFromInline typealias Waiter = UnsafeContinuation<Void, Never>
  @usableFromInline typealias Machine = _SubjectStateMachine<Element, Failure, Waiter>

  @usableFromInline let machine: _Mutex<Machine>

  @inlinable
  init(policy: AsyncSubjectBufferingPolicy, replayLimit: Int, replaysAfterTermination: Bool, initial: Element?) {
    machine = _Mutex(
      Machine(
        policy: policy, replayLimit: replayLimit, replaysAfterTermination: replaysAfterTermination, initial: initial))
  }

  /// Hands `element` to every side; wakes the ones that waited, after the lock.
  @inlinable
  func send(_ element: Element) {
    let wakes = machine.withLock { machine in
      var wakes = _SubjectWakes<Waiter>()
      machine.elementSent(element, wakes: &wakes)
      return wakes
    }
    wakes.forEachWaiter { $0.resume() }
  }

  @inlinable
  func send(_ termination: Termination<Failure>) {
    let wakes = machine.withLock { machine in
      var wakes = _SubjectWakes<Waiter>()
      machine.terminated(termination, wakes: &wakes)
      return wakes
    }
    wakes.forEachWaiter { $0.resume() }
  }

  /// A current-value subject's value.
  @inlinable var current: Element { machine.withLock { $0.current! } }
}

/// One iterator's part of a subject: the elements it took from its buffer in one step (`batch`), and its place in the
/// machine. Only the iterator holds it; it leaves the subject when the iterator goes away.
// @unchecked: `batch` is touched only by the one consumer that owns the iterator (iterators are not `Sendable` and
// `next()` is not called concurrently), never under the lock except through the consumer's own call; the rest is
// immutable or behind the storage's `_Mutex`. The cancellation handler touches only the machine.
@usableFromInline
final class _SubjectSide<Element: Sendable, Failure: Error>: @unchecked Sendable {
  @usableFromInline typealias Machine = _SubjectStorage<Element, Failure>.Machine

  @usableFromInline let storage: _SubjectStorage<Element, Failure>
  @usableFromInline let id: Machine.SideID
  /// The elements taken from the buffer and not returned yet.
  @exclusivity(unchecked) @usableFromInline var batch = _Queue<Element>()

  @inlinable
  init(_ storage: _SubjectStorage<Element, Failure>) {
    self.storage = storage
    id = storage.machine.withLock { $0.joined() }
  }

  deinit {
    cancel()
  }

  @inlinable @inline(__always)
  func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
    // The steady path of a burst: the batch holds elements, no lock. A cancelled consumer goes the long way, which
    // ends its iteration.
    if !Task.isCancelled, let element = batch.popFirst() { return element }
    return try await nextSlow(isolation: actor)
  }

  @inlinable @inline(never)
  func nextSlow(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
    while true {
      if Task.isCancelled {
        batch = _Queue()
        cancel()
        return nil
      }
      let action = withUnsafeMutablePointer(to: &batch) { batch in
        let batch = _Transfer(batch)
        return storage.machine.withLock { $0.batchRequested(id, into: &batch.value.pointee) }
      }
      switch action {
      case .batch:
        return batch.popFirst()!
      case .end(let failure):
        if let failure { throw failure }
        return nil
      case .wait:
        await withTaskCancellationHandler {
          await withUnsafeContinuation(isolation: actor) { (waiter: UnsafeContinuation<Void, Never>) in
            storage.machine.withLock { $0.nextRequested(id, waiter) }?.resume()
          }
        } onCancel: {
          cancel()
        }
      }
    }
  }

  /// Leaves the subject: resumes a waiting consumer (which then ends), and drops the buffer outside the lock.
  @inlinable
  func cancel() {
    guard let (waiter, dropped) = storage.machine.withLock({ $0.cancelled(id) }) else { return }
    waiter?.resume()
    _ = consume dropped
  }
}
