/// How a reductions sequence folds an element into its running result: AA's two closure shapes, a combine that
/// returns the new result and an update that changes it in place.
///
/// The closure is stored as it was given, not wrapped: a wrapping closure, written here, would be nonisolated and
/// add a hop off the consumer's actor to every element of a main-actor closure.
@usableFromInline
enum _ReductionStep<Result: Sendable, Element: Sendable, Failure: Error>: Sendable {
  case combine(@isolated(any) @Sendable (Result, Element) async throws(Failure) -> Result)
  case update(@isolated(any) @Sendable (inout Result, Element) async throws(Failure) -> Void)
}

/// The iteration the four reductions sequences share: the base's iterator, the running result and the step.
///
/// The throwing sequences run it over their base with its error widened to `any Error`, so that one `throws` type
/// covers the base's errors and the closure's.
@usableFromInline
struct _ReductionsIterator<Base: AsyncSequence, Result: Sendable> where Base.Element: Sendable {
  @usableFromInline var base: Base.AsyncIterator
  /// The running result. `nil` once the iteration is over — the base finished or something threw — and, for an
  /// inclusive reduction, before the base's first element.
  @usableFromInline var result: Result?
  @usableFromInline let step: _ReductionStep<Result, Base.Element, Base.Failure>

  @inlinable
  init(_ base: Base.AsyncIterator, initial: Result?, step: _ReductionStep<Result, Base.Element, Base.Failure>) {
    self.base = base
    self.result = initial
    self.step = step
  }

  /// Folds the base's next element into the result and returns the new result; `nil` when the base ends, when the
  /// result is `nil`, and after an error.
  @inlinable
  mutating func next(isolation actor: isolated (any Actor)?) async throws(Base.Failure) -> Result? {
    // Taken out first: a throw or the base's end leaves `nil`, which ends the iteration, and an update changes
    // the only copy in place once the consumer has let go of the last result it got.
    guard var running = result.take(), let element = try await base.next(isolation: actor) else { return nil }
    switch step {
    case .combine(let combine): running = try await combine(running, element)
    case .update(let update): try await update(&running, element)
    }
    result = running
    return running
  }

  /// Returns the base's first element as it is, the start of an inclusive reduction; `nil` when the base ends.
  @inlinable
  mutating func first(isolation actor: isolated (any Actor)?) async throws(Base.Failure) -> Result?
  where Result == Base.Element {
    result = try await base.next(isolation: actor)
    return result
  }
}
