/// Where an interspersed sequence's separators come from: one value, or a closure called for each, synchronous or
/// `async` as it was given.
@usableFromInline
enum _Separator<Element: Sendable, Failure: Error>: Sendable {
  case value(Element)
  case make(@isolated(any) @Sendable () throws(Failure) -> Element)
  case produce(@isolated(any) @Sendable () async throws(Failure) -> Element)
}

/// The iteration both interspersed sequences share: the base's iterator, the count towards the next separator, and
/// the element fetched ahead to learn whether a separator is due.
///
/// The throwing sequence runs it over its base with its error widened to `any Error`, so that one `throws` type
/// covers the base's errors and the separator closure's.
@usableFromInline
struct _InterspersingIterator<Base: AsyncSequence> where Base.Element: Sendable {
  @usableFromInline var base: Base.AsyncIterator
  @usableFromInline let every: Int
  @usableFromInline let separator: _Separator<Base.Element, Base.Failure>
  /// The elements delivered since the last separator, or since the start.
  @usableFromInline var run = 0
  /// The element that follows the separator just delivered.
  @usableFromInline var pending: Base.Element?
  @usableFromInline var finished = false

  @inlinable
  init(_ base: Base.AsyncIterator, every: Int, separator: _Separator<Base.Element, Base.Failure>) {
    self.base = base
    self.every = every
    self.separator = separator
  }

  /// Returns the base's next element, or a separator when `every` elements have passed since the last one and the
  /// base has another element; `nil` when the base ends, and after an error.
  @inlinable
  mutating func next(isolation actor: isolated (any Actor)?) async throws(Base.Failure) -> Base.Element? {
    if let element = pending.take() {
      run = 1
      return element
    }
    guard !finished else { return nil }
    do throws(Base.Failure) {
      if let element = try await base.next(isolation: actor) {
        guard run == every else {
          run += 1
          return element
        }
        // A separator only between two elements: it is due, and the element after it has come.
        pending = element
        switch separator {
        case .value(let value): return value
        // On the closure's own isolation (the usual case) the call makes no hop.
        case .make(let make): return try await make()
        case .produce(let produce): return try await produce()
        }
      }
    } catch {
      finished = true
      pending = nil
      throw error
    }
    finished = true
    return nil
  }
}

/// Stops the program when `every` is below 1, naming the value, as swift-async-algorithms' precondition does.
@inlinable
func _checkInterspersedEvery(_ every: Int) {
  precondition(every >= 1, "interspersed(every:with:) needs every >= 1, got \(every)")
}
