import Synchronization

/// How far the consumer of a multi-producer single-consumer channel has got through the elements it took, published
/// without the lock, and the point at which it must take the lock to resume waiting producers.
///
/// The consumer returns a batch's elements without the lock, so the channel's water level — every element sent and
/// not yet returned by `next()` — is `sent - returned`, where only the sources know `sent` (under the lock) and only
/// the consumer knows `returned`. The consumer stores `returned` after every element it returns; a source reads it
/// when its send might reach the high watermark. While a producer is told to wait, the machine publishes
/// `resumeAt`, the value of `returned` at which the level falls below the low watermark, and the consumer takes the
/// lock when it gets there (`Int.max`: nobody to resume).
///
/// Both sides store, then load the other's value, sequentially consistent: a consumer that passes `resumeAt` while
/// a source publishes it either sees it, or the source's load afterwards sees what the consumer returned (the
/// machine re-reads `returned` after arming, see ``_MPSCChannelStateMachine/publishResumePoint()``).
@usableFromInline
final class _MPSCConsumerGauge: Sendable {
  // Padding on both sides keeps the two atomics off the cache lines of neighbouring objects, such as the channel's
  // storage, allocated next to this object, whose lock and machine the sources write on every send, while the
  // consumer stores `returned` after every element. (On the shared 2-core test machine the difference was below the
  // noise; the padding costs 96 bytes per channel.) The header is 16 bytes and allocations are 16-byte aligned, so
  // 48 bytes on each side suffice.
  @usableFromInline let paddingBefore: (Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0)
  /// The total water level of the elements the consumer has returned. Written by the consumer only.
  @usableFromInline let returned = Atomic<Int>(0)
  /// The value of `returned` at which the level falls below the low watermark while a producer is owed a resume,
  /// else `Int.max`. Written under the channel's lock only.
  @usableFromInline let resumeAt = Atomic<Int>(.max)
  @usableFromInline let paddingAfter: (Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0)

  @inlinable init() {}

  /// What the consumer has returned so far, for a source deciding under the lock.
  @inlinable
  var returnedSoFar: Int { returned.load(ordering: .sequentiallyConsistent) }

  /// Tells the consumer to take the lock once it has returned `point` (`Int.max`: never). Called under the lock.
  @inlinable
  func publishResumePoint(_ point: Int) {
    resumeAt.store(point, ordering: .sequentiallyConsistent)
  }

  /// The consumer has returned elements of total water level `total` while it still holds elements of level `low`
  /// or more: the level cannot fall below `low` now, so it only publishes its progress, for sends near `high`.
  @inlinable
  func consumerReturnedHoldingLow(total: Int) {
    returned.store(total, ordering: .relaxed)
  }

  /// The consumer has returned elements of total water level `total` since the channel began: it publishes that,
  /// and says whether it must now take the lock to let the machine resume producers.
  @inlinable
  func consumerReturned(total: Int) -> Bool {
    returned.store(total, ordering: .sequentiallyConsistent)
    return total >= resumeAt.load(ordering: .sequentiallyConsistent)
  }
}
