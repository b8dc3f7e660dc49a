/// Storage an iteration can be ended through: the consumer's task was cancelled or its iterator dropped.
@usableFromInline
protocol _IterationCancelling: AnyObject, Sendable {
  /// Ends the iteration: cancels its tasks and resumes a waiting consumer with the end.
  func cancel()
}

/// Owned by one iterator: when the iterator goes away, the iteration ends and its tasks are cancelled.
///
/// Iterators are structs, so they cannot run code when they go away; this class does it for them.
@usableFromInline
final class _IterationHandle<Storage: _IterationCancelling>: Sendable {
  @usableFromInline let storage: Storage

  @inlinable
  init(_ storage: Storage) {
    self.storage = storage
  }

  deinit {
    storage.cancel()
  }
}
