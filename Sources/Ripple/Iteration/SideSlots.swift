/// Names one iterator's side in ``_SideSlots``: its slot, and the token that tells it from a later side in the same
/// slot.
@usableFromInline
struct _SideID: Sendable, Equatable {
  @usableFromInline let index: Int
  @usableFromInline let token: UInt64

  @inlinable init(index: Int, token: UInt64) {
    self.index = index
    self.token = token
  }
}

/// A side kept in ``_SideSlots``: it carries the token it joined with.
@usableFromInline
protocol _SlottedSide {
  var token: UInt64 { get }
}

/// The per-iterator sides of a machine that hands every element to every iterator (the subjects', share's): a slot
/// per side, reused once free, and a token per side, so that a stale ``_SideID`` never reaches a later side in the
/// same slot.
///
/// A machine reads and updates a side in place through the subscript (`sides[index]!.buffer.append(element)`), and
/// walks `indices` skipping the free (`nil`) slots.
@usableFromInline
struct _SideSlots<Side: _SlottedSide> {
  /// The sides by slot; a free slot is `nil` and listed in `freeSlots`.
  @usableFromInline var slots: [Side?] = []
  @usableFromInline var freeSlots: [Int] = []
  /// The last token handed out.
  @usableFromInline var lastToken: UInt64 = 0

  @inlinable init() {}

  @inlinable var indices: Range<Int> { slots.indices }
  /// How many sides are in.
  @inlinable var liveCount: Int { slots.count - freeSlots.count }

  @inlinable subscript(index: Int) -> Side? {
    _read { yield slots[index] }
    _modify { yield &slots[index] }
  }

  /// Adds the side `make` builds with a fresh token, in a free slot when there is one.
  @inlinable
  mutating func insert(_ make: (_ token: UInt64) -> Side) -> _SideID {
    lastToken &+= 1
    let side = make(lastToken)
    if let index = freeSlots.popLast() {
      slots[index] = side
      return _SideID(index: index, token: side.token)
    }
    slots.append(side)
    return _SideID(index: slots.count - 1, token: side.token)
  }

  /// Whether `id`'s side is still in (the slots may have shrunk since, see `removeAllIfFree()`).
  @inlinable
  func isLive(_ id: _SideID) -> Bool {
    id.index < slots.count && slots[id.index]?.token == id.token
  }

  /// Frees `index`'s slot for a later side.
  @inlinable
  mutating func remove(at index: Int) {
    slots[index] = nil
    freeSlots.append(index)
  }

  /// Drops every slot once all are free, so that a machine whose sides all left holds none. Not while a loop walks
  /// `indices`.
  @inlinable
  mutating func removeAllIfFree() {
    guard freeSlots.count == slots.count else { return }
    slots.removeAll()
    freeSlots.removeAll()
  }
}
