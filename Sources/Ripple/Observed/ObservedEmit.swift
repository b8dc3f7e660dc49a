/// The closure an ``Observed`` sequence runs, in one of its two shapes.
///
/// `@isolated(any)` closures cannot yet be wrapped in another closure that keeps their isolation, so the
/// two shapes stay apart until they are called.
@usableFromInline
enum _ObservedEmit<Element: Sendable, Failure: Error>: Sendable {
  case element(@isolated(any) @Sendable () throws(Failure) -> Element)
  case iteration(@isolated(any) @Sendable () throws(Failure) -> Observed<Element, Failure>.Iteration)

  /// The isolation the closure runs on.
  @inlinable
  var isolation: (any Actor)? {
    switch self {
    case .element(let closure): closure.isolation
    case .iteration(let closure): closure.isolation
    }
  }

  /// Calls the closure synchronously.
  ///
  /// Only call this on ``isolation``. The language cannot call an `@isolated(any)` closure without
  /// `await`, but observation tracking needs a synchronous call; an `@isolated(any)` function value has
  /// the layout of a plain thick function (its isolation lives in the context), which is what the
  /// toolchain's own `Observations` relies on too. See `Docs/Decisions/0001-observed.md`.
  @inlinable
  func callAsFunction() throws(Failure) -> Observed<Element, Failure>.Iteration {
    switch self {
    case .element(let closure):
      return .next(try _synchronous(closure)())
    case .iteration(let closure):
      return try _synchronous(closure)()
    }
  }
}

/// Holds an `@isolated(any)` closure so it can be reinterpreted as a synchronous one.
///
/// The wrapper matters: stored in a generic struct, the closure and the synchronous function type it is
/// cast to share one abstraction, so the cast reinterprets the value without a reabstraction thunk.
@usableFromInline
struct _IsolatedClosure<T, Failure: Error> {
  @usableFromInline typealias Synchronous = () throws(Failure) -> T
  @usableFromInline let closure: @isolated(any) @Sendable () throws(Failure) -> T

  @inlinable
  init(closure: @escaping @isolated(any) @Sendable () throws(Failure) -> T) {
    self.closure = closure
  }

  /// The closure as a synchronous call; only call it on the closure's isolation.
  @inlinable
  var synchronous: Synchronous {
    unsafeBitCast(self, to: Synchronous.self)
  }
}

/// Reinterprets an `@isolated(any)` closure as a synchronous one; the caller must be on its isolation.
@inlinable
func _synchronous<T, Failure: Error>(
  _ closure: @escaping @isolated(any) @Sendable () throws(Failure) -> T
) -> () throws(Failure) -> T {
  _IsolatedClosure(closure: closure).synchronous
}
