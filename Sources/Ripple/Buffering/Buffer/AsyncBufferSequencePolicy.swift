/// How a buffering operator stores the elements its base produced before the consumer asked for them.
///
/// ``_Concurrency/AsyncSequence/buffer(policy:)`` and ``_Concurrency/AsyncSequence/share(bufferingPolicy:)`` take one. Choose by what must happen when the consumer falls
/// behind:
///
/// ```swift
/// let lines = socket.lines.buffer(policy: .bounded(100))   // the base waits while 100 lines wait
/// let ticks = clock.ticks.buffer(policy: .bufferingLatest(1))  // only the newest tick counts
/// ```
///
/// - ``bounded(_:)`` keeps up to `limit` elements and then stops asking the base for more until the consumer takes
///   one: nothing is lost, and a slow consumer slows the base.
/// - ``unbounded`` keeps every element: nothing is lost and the base never waits, so memory grows with the backlog.
/// - ``bufferingLatest(_:)`` keeps the newest `limit` elements, dropping the oldest to make room.
/// - ``bufferingOldest(_:)`` keeps the oldest `limit` elements, dropping new ones while full.
///
/// A limit below zero is a programming error and stops the program with a message naming it.
public struct AsyncBufferSequencePolicy: Sendable, Hashable {
  @usableFromInline
  enum Storage: Sendable, Hashable {
    case bounded(Int)
    case unbounded
    case bufferingLatest(Int)
    case bufferingOldest(Int)
  }

  @usableFromInline let storage: Storage

  @inlinable init(_ storage: Storage) {
    self.storage = storage
  }

  /// Keeps up to `limit` elements, then suspends the base until the consumer takes one; nothing is dropped.
  ///
  /// With a limit of 0 the base is asked for an element only when a consumer is waiting for one.
  @inlinable
  public static func bounded(_ limit: Int) -> Self {
    precondition(limit >= 0, "AsyncBufferSequencePolicy.bounded(\(limit)): the limit must be 0 or more")
    return Self(.bounded(limit))
  }

  /// Keeps every element, however many the consumer has not taken yet; the base never waits.
  @inlinable public static var unbounded: Self { Self(.unbounded) }

  /// Keeps the newest `limit` elements: when full, the oldest buffered element is dropped to make room.
  ///
  /// A limit of 0 means no buffer, as with `bounded(0)`: nothing is dropped.
  @inlinable
  public static func bufferingLatest(_ limit: Int) -> Self {
    precondition(limit >= 0, "AsyncBufferSequencePolicy.bufferingLatest(\(limit)): the limit must be 0 or more")
    return Self(.bufferingLatest(limit))
  }

  /// Keeps the oldest `limit` elements: when full, each new element is dropped until the consumer makes room.
  ///
  /// A limit of 0 means no buffer, as with `bounded(0)`: nothing is dropped.
  @inlinable
  public static func bufferingOldest(_ limit: Int) -> Self {
    precondition(limit >= 0, "AsyncBufferSequencePolicy.bufferingOldest(\(limit)): the limit must be 0 or more")
    return Self(.bufferingOldest(limit))
  }
}
