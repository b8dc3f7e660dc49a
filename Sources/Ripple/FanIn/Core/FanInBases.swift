/// The two bases of a fan-in operator over two sequences of possibly different types (`merge`, `combineLatest`,
/// `zip`, `withLatest(from:)`, `chunks(ofCount:or:)`), as its sequence keeps them, and how each iteration of the
/// sequence consumes them: base 0 and base 1 of a ``_FanInStorage``, in a child task each.
@usableFromInline
struct _FanInBases2<Base1: AsyncSequence & Sendable, Base2: AsyncSequence & Sendable>: Sendable
where Base2.Failure == Base1.Failure {
  @usableFromInline let base1: Base1
  @usableFromInline let base2: Base2

  @inlinable
  init(_ base1: Base1, _ base2: Base2) {
    self.base1 = base1
    self.base2 = base2
  }

  /// A new iteration of the bases under `policy`, each element handed over as `wrap1(element)` or
  /// `wrap2(element)`.
  @inlinable
  func iteration<Policy: _FanInPolicy>(
    policy: Policy, name: StaticString,
    _ wrap1: @escaping @Sendable (Base1.Element) -> Policy.Value,
    _ wrap2: @escaping @Sendable (Base2.Element) -> Policy.Value
  ) -> _IterationHandle<_FanInStorage<Policy, Base1.Failure>> {
    _FanInStorage.iteration(count: 2, policy: policy, name: name) { [self] storage, group in
      addTasks(to: &group, consumingInto: storage, wrap1, wrap2)
    }
  }

  /// Adds the child tasks consuming the bases as bases 0 and 1 of `storage`.
  @inlinable
  func addTasks<Policy: _FanInPolicy>(
    to group: inout DiscardingTaskGroup, consumingInto storage: _FanInStorage<Policy, Base1.Failure>,
    _ wrap1: @escaping @Sendable (Base1.Element) -> Policy.Value,
    _ wrap2: @escaping @Sendable (Base2.Element) -> Policy.Value
  ) {
    group.addTask { await storage.consume(base1, at: 0, as: wrap1) }
    group.addTask { await storage.consume(base2, at: 1, as: wrap2) }
  }
}

/// The three bases of a fan-in operator over three sequences of possibly different types (`merge`,
/// `combineLatest`, `zip`, `withLatest(from:_:)`): ``_FanInBases2`` and a third, base 2 of the ``_FanInStorage``.
@usableFromInline
struct _FanInBases3<Base1: AsyncSequence & Sendable, Base2: AsyncSequence & Sendable, Base3: AsyncSequence & Sendable>:
  Sendable
where Base2.Failure == Base1.Failure, Base3.Failure == Base1.Failure {
  @usableFromInline let first: _FanInBases2<Base1, Base2>
  @usableFromInline let base3: Base3

  @inlinable
  init(_ base1: Base1, _ base2: Base2, _ base3: Base3) {
    first = _FanInBases2(base1, base2)
    self.base3 = base3
  }

  /// A new iteration of the bases under `policy`, each element handed over as `wrap1(element)`,
  /// `wrap2(element)` or `wrap3(element)`.
  @inlinable
  func iteration<Policy: _FanInPolicy>(
    policy: Policy, name: StaticString,
    _ wrap1: @escaping @Sendable (Base1.Element) -> Policy.Value,
    _ wrap2: @escaping @Sendable (Base2.Element) -> Policy.Value,
    _ wrap3: @escaping @Sendable (Base3.Element) -> Policy.Value
  ) -> _IterationHandle<_FanInStorage<Policy, Base1.Failure>> {
    _FanInStorage.iteration(count: 3, policy: policy, name: name) { [self] storage, group in
      first.addTasks(to: &group, consumingInto: storage, wrap1, wrap2)
      group.addTask { await storage.consume(base3, at: 2, as: wrap3) }
    }
  }
}
