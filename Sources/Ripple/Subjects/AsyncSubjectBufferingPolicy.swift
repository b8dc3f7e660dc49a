/// What each iterator's buffer of a subject keeps while its consumer is busy.
///
/// A subject's `send` never waits, so a consumer slower than its senders falls behind: its iterator keeps the
/// elements it has not taken yet, in a buffer of its own. Choose by what that consumer needs:
///
/// ```swift
/// let taps = AsyncPassthroughSubject<String>()  // every tap, however late the listener
/// let level = AsyncCurrentValueSubject(0.0, bufferingPolicy: .bufferingNewest(1))  // only the newest level
/// ```
///
/// - ``unbounded`` keeps every element: nothing is lost, and the buffer grows with the backlog (the default, as
///   `AsyncStream`'s).
/// - ``bufferingNewest(_:)`` keeps the newest `limit` elements, dropping the oldest: for state, where only the
///   latest matters.
/// - ``bufferingOldest(_:)`` keeps the oldest `limit` elements, dropping new ones while full.
///
/// The names are `AsyncStream.Continuation.BufferingPolicy`'s. A limit of 0 keeps nothing: an element reaches an
/// iterator only when it waits in `next()` at that moment, as with `AsyncStream`. A negative limit stops the
/// program with a message naming it.
public struct AsyncSubjectBufferingPolicy: Sendable, Hashable {
  @usableFromInline
  enum Storage: Sendable, Hashable {
    case unbounded
    case bufferingNewest(Int)
    case bufferingOldest(Int)
  }

  @usableFromInline let storage: Storage

  @inlinable init(_ storage: Storage) {
    self.storage = storage
  }

  /// Keeps every element the iterator has not taken yet.
  @inlinable public static var unbounded: Self { Self(.unbounded) }

  /// Keeps the newest `limit` elements: when full, the oldest buffered element is dropped to make room.
  @inlinable
  public static func bufferingNewest(_ limit: Int) -> Self {
    precondition(limit >= 0, "AsyncSubjectBufferingPolicy.bufferingNewest(\(limit)): the limit must be 0 or more")
    return Self(.bufferingNewest(limit))
  }

  /// Keeps the oldest `limit` elements: when full, each new element is dropped until the consumer makes room.
  @inlinable
  public static func bufferingOldest(_ limit: Int) -> Self {
    precondition(limit >= 0, "AsyncSubjectBufferingPolicy.bufferingOldest(\(limit)): the limit must be 0 or more")
    return Self(.bufferingOldest(limit))
  }
}
