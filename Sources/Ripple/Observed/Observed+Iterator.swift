import Observation

extension Observed {
  /// The iterator of an ``Observed`` sequence.
  ///
  /// It is not `Sendable`: one task iterates it. Each iterator keeps its own change tracking.
  public struct Iterator: AsyncIteratorProtocol {
    @usableFromInline
    enum Phase {
      case initial
      case tracking(_ObservedStorage)
      case finished
    }

    @usableFromInline let emit: _ObservedEmit<Element, Failure>
    @usableFromInline var phase = Phase.initial

    @usableFromInline
    init(emit: _ObservedEmit<Element, Failure>) {
      self.emit = emit
    }

    /// Returns the current value on the first call, then the value after the next transaction that
    /// changes what the closure read; `nil` once iteration has ended.
    ///
    /// Rethrows the closure's error once, then returns `nil`. Returns `nil` at once when the consuming task is
    /// cancelled, even while it waits for a change. When the consumer runs on the closure's isolation, the closure
    /// is called without an executor hop.
    @inlinable
    public mutating func next(
      isolation iterationIsolation: isolated (any Actor)? = #isolation
    ) async throws(Failure) -> Element? {
      let storage: _ObservedStorage
      switch phase {
      case .finished:
        return nil
      case .initial:
        storage = _ObservedStorage()
        phase = .tracking(storage)
      case .tracking(let tracked):
        storage = tracked
        // Waking on `willSet` and then running `emit` on its own isolation puts the read after the
        // producer's next suspension: the end of its transaction.
        guard await storage.changed(isolation: iterationIsolation) else { return finish() }
      }
      guard !Task.isCancelled else { return finish() }
      do {
        let iteration: Iteration
        let emitIsolation = emit.isolation
        if emitIsolation == nil
          || emitIsolation.map(ObjectIdentifier.init) == iterationIsolation.map(ObjectIdentifier.init)
        {
          // Already on the closure's isolation (or it has none): call it here and skip the executor switch.
          iteration = try Self.emission(emit: emit, storage: storage)
        } else {
          iteration = try await Self.emission(isolation: emitIsolation, emit: emit, storage: storage)
        }
        switch iteration {
        case .next(let element): return element
        case .finish: return finish()
        }
      } catch {
        phase = .finished
        throw error
      }
    }

    /// The change tracking this iterator uses, for tests.
    var storageForTesting: _ObservedStorage? {
      if case .tracking(let storage) = phase { storage } else { nil }
    }

    @inlinable
    mutating func finish() -> Element? {
      phase = .finished
      return nil
    }

    /// Runs `emit` on its isolation while recording what it reads, so the next `willSet` of any of those
    /// properties wakes this iterator.
    @inlinable
    static func emission(
      isolation: isolated (any Actor)?,
      emit: _ObservedEmit<Element, Failure>,
      storage: _ObservedStorage
    ) throws(Failure) -> Iteration {
      try emission(emit: emit, storage: storage)
    }

    /// Runs `emit` here; only call this on `emit`'s isolation.
    @inlinable
    static func emission(
      emit: _ObservedEmit<Element, Failure>, storage: _ObservedStorage
    ) throws(Failure)
      -> Iteration
    {
      var token = _ObservationToken(storage: storage)
      let result = withObservationTracking {
        Result { () throws(Failure) -> Iteration in try emit.callAsFunction() }
      } onChange: { [token] in
        token.fire()
      }
      // Only registrars keep the token alive past this point. None does when `emit` read nothing
      // observable: then no change can ever come, and the token must not report one when it goes.
      if !isKnownUniquelyReferenced(&token) {
        token.arm()
      }
      storage.didRead()
      return try result.get()
    }
  }
}

@available(*, unavailable)
extension Observed.Iterator: Sendable {}
