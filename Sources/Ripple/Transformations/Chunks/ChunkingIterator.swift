/// What makes a group for the sequences that group a base's consecutive elements by a closure: the predicate of
/// `chunked(by:)` or the projection of `chunked(on:)`. The closure is stored as it was given and called on its own
/// isolation, so a main-actor closure over a main-actor consumer makes no hop.
@usableFromInline
protocol _ChunkingRule: Sendable {
  associatedtype Element
  associatedtype Failure: Error
  /// What an element brings to the comparison with the next one: the element itself for a predicate, its
  /// projection for a projection.
  associatedtype Mark

  /// The mark of `element`, made once per element.
  func mark(of element: Element, isolation actor: isolated (any Actor)?) async throws(Failure) -> Mark

  /// Whether the element marked `next` belongs in the group marked `group`; when it does, `group` is the mark the
  /// element after it is compared with.
  func joins(_ next: Mark, group: inout Mark, isolation actor: isolated (any Actor)?) async throws(Failure) -> Bool
}

/// The rule of `chunked(by:)`: an element joins the group of the element before it when the predicate says so.
@usableFromInline
struct _ChunkByPredicate<Element: Sendable, Failure: Error>: _ChunkingRule {
  @usableFromInline let belongInSameGroup: @isolated(any) @Sendable (Element, Element) throws(Failure) -> Bool

  @inlinable init(_ belongInSameGroup: @escaping @isolated(any) @Sendable (Element, Element) throws(Failure) -> Bool) {
    self.belongInSameGroup = belongInSameGroup
  }

  @inlinable @inline(__always)
  func mark(of element: Element, isolation actor: isolated (any Actor)?) async throws(Failure) -> Element {
    element
  }

  @inlinable @inline(__always)
  func joins(
    _ next: Element, group previous: inout Element, isolation actor: isolated (any Actor)?
  )
    async throws(Failure) -> Bool
  {
    // On the predicate's own isolation (the usual case) this is a call without a hop.
    guard try await belongInSameGroup(previous, next) else { return false }
    previous = next
    return true
  }
}

/// The rule of `chunked(on:)`: an element joins the group whose first element's projection equals its own.
@usableFromInline
struct _ChunkOnProjection<Element: Sendable, Subject: Equatable & Sendable, Failure: Error>: _ChunkingRule {
  @usableFromInline let projection: @isolated(any) @Sendable (Element) throws(Failure) -> Subject

  @inlinable init(_ projection: @escaping @isolated(any) @Sendable (Element) throws(Failure) -> Subject) {
    self.projection = projection
  }

  @inlinable @inline(__always)
  func mark(of element: Element, isolation actor: isolated (any Actor)?) async throws(Failure) -> Subject {
    // On the projection's own isolation (the usual case) this is a call without a hop.
    try await projection(element)
  }

  @inlinable @inline(__always)
  func joins(
    _ next: Subject, group subject: inout Subject, isolation actor: isolated (any Actor)?
  )
    async throws(Failure) -> Bool
  {
    next == subject
  }
}

/// The iteration `chunked(by:)` and `chunked(on:)` share: runs of consecutive elements that a rule puts in one
/// group, each delivered with its mark once the first element of the next group has arrived or the base has ended.
@usableFromInline
struct _ChunkingIterator<Base: AsyncIteratorProtocol, Rule: _ChunkingRule, Collected: RangeReplaceableCollection>
where Rule.Element == Base.Element, Rule.Failure == Base.Failure, Collected.Element == Base.Element {
  @usableFromInline var base: Base
  @usableFromInline let rule: Rule
  /// The element that ended the previous group, and its mark: the first of the next one.
  @usableFromInline var pending: (Rule.Mark, Base.Element)?
  /// Set once the base ended or an error was thrown: the base is not asked again.
  @usableFromInline var finished = false

  @inlinable init(_ base: Base, rule: Rule) {
    self.base = base
    self.rule = rule
  }

  /// Returns the next group and its mark; `nil` once the base has ended with no element left over, and after an
  /// error, which drops the group gathered so far. Inlined into the caller (`@inline(__always)`), as the rule's
  /// calls are: a call would cost an async frame per element.
  @inlinable @inline(__always)
  mutating func next(isolation actor: isolated (any Actor)?) async throws(Base.Failure) -> (Rule.Mark, Collected)? {
    guard !finished else { return nil }
    do throws(Base.Failure) {
      var mark: Rule.Mark
      var group = Collected()
      if let (pendingMark, element) = pending.take() {
        mark = pendingMark
        group.append(element)
      } else if let element = try await base.next(isolation: actor) {
        mark = try await rule.mark(of: element, isolation: actor)
        group.append(element)
      } else {
        finished = true
        return nil
      }
      while let element = try await base.next(isolation: actor) {
        let next = try await rule.mark(of: element, isolation: actor)
        guard try await rule.joins(next, group: &mark, isolation: actor) else {
          pending = (next, element)
          return (mark, group)
        }
        group.append(element)
      }
      finished = true
      return (mark, group)
    } catch {
      finished = true
      pending = nil
      throw error
    }
  }
}
