/// The shared state of one iteration of an operator that runs tasks of its own.
///
/// ``_IterationHandle`` drives it: ``next(isolation:)`` for every element; ``cancel()`` when the consuming task is
/// cancelled or the iterator is dropped. A storage starts its tasks itself, in the first `next()`, once the
/// consumer is registered as waiting: an element the base produces at once finds the consumer there, never a gap
/// in which it would be treated as produced while nobody waited.
@usableFromInline
protocol _IterationStorage: AnyObject, Sendable {
  associatedtype Element
  associatedtype Failure: Error

  /// Waits for the next element on the consumer's isolation; `nil` once the iteration is over.
  func next(isolation: isolated (any Actor)?) async throws(Failure) -> Element?
  /// Ends the iteration: cancels its tasks and resumes a waiting consumer with the end.
  func cancel()
}

/// Owned by one iterator: ends the iteration when the iterator goes away.
///
/// Iterators are structs, so they cannot run code when they go away; this class does it for them. Only the
/// iterator holds it (the operator's tasks hold the storage), so its `deinit` runs when the iterator is dropped,
/// for instance by a `break` out of a `for await` loop.
@usableFromInline
final class _IterationHandle<Storage: _IterationStorage> {
  @usableFromInline let storage: Storage

  @inlinable
  init(_ storage: Storage) {
    self.storage = storage
  }

  @inlinable
  func next(isolation actor: isolated (any Actor)?) async throws(Storage.Failure) -> Storage.Element? {
    try await storage.next(isolation: actor)
  }

  deinit {
    storage.cancel()
  }
}

extension _IterationStorage {
  /// The consumer's wait: suspends on the caller's isolation until `register`'s continuation is resumed, and ends
  /// the iteration (``cancel()``) when the consuming task is cancelled meanwhile.
  @inlinable
  func waitForNext(
    isolation actor: isolated (any Actor)?,
    _ register: (UnsafeContinuation<Result<Element?, Failure>, Never>) -> Void
  ) async throws(Failure) -> Element? {
    let result = await withTaskCancellationHandler {
      await withUnsafeContinuation(isolation: actor, register)
    } onCancel: {
      cancel()
    }
    return try result.get()
  }
}
