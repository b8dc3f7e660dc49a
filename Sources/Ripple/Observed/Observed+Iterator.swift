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
      /// The model went away while the closure produced the last element: nothing follows but `end`.
      case ending(Failure?)
      case finished
    }

    /// What one run of the closure gave.
    @usableFromInline
    enum Emission: Sendable {
      case element(Element)
      /// The last element: the closure finished (`nil`) or threw when run once more.
      case lastElement(Element, then: Failure?)
      case finish
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
      case .ending(let failure):
        phase = .finished
        if let failure { throw failure }
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
        let emission: Emission
        let emitIsolation = emit.isolation
        if emitIsolation == nil
          || emitIsolation.map(ObjectIdentifier.init) == iterationIsolation.map(ObjectIdentifier.init)
        {
          // Already on the closure's isolation (or it has none): call it here and skip the executor switch.
          emission = try Self.emission(emit: emit, storage: storage)
        } else {
          emission = try await Self.emission(isolation: emitIsolation, emit: emit, storage: storage)
        }
        switch emission {
        case .element(let element):
          return element
        case .lastElement(let element, let failure):
          phase = .ending(failure)
          return element
        case .finish:
          return finish()
        }
      } catch {
        phase = .finished
        throw error
      }
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
    ) throws(Failure) -> Emission {
      try emission(emit: emit, storage: storage)
    }

    /// Runs `emit` here; only call this on `emit`'s isolation.
    @inlinable
    static func emission(
      emit: _ObservedEmit<Element, Failure>, storage: _ObservedStorage
    ) throws(Failure) -> Emission {
      var token = _ObservationToken(storage: storage)
      // `onChange` is an autoclosure, evaluated only when `emit` read something observable.
      let result = withObservationTracking(
        { Result { () throws(Failure) -> Iteration in try emit.callAsFunction() } },
        onChange: token.onChange())
      let element: Element
      switch result {
      case .success(.next(let value)): element = value
      case .success(.finish): return .finish
      case .failure(let error): throw error
      }
      // When `emit` read nothing observable, no change can ever come. Otherwise only registrars keep the token
      // alive past this point.
      guard token.isTracking else { return .element(element) }
      if !isKnownUniquelyReferenced(&token) {
        token.arm()
      }
      guard case .iteration = emit else { return .element(element) }
      // An object `emit` read may have been deallocated while it ran — its last strong reference, in a weak
      // capture's `guard let`, goes when `emit` returns. Tracking installed on a dead object's registrar never
      // fires, so `emit` runs once more, untracked, to see whether it now finishes.
      switch Result(catching: { () throws(Failure) -> Iteration in try emit.callAsFunction() }) {
      case .success(.next): return .element(element)
      case .success(.finish): return .lastElement(element, then: nil)
      case .failure(let error): return .lastElement(element, then: error)
      }
    }
  }
}

@available(*, unavailable)
extension Observed.Iterator: Sendable {}
