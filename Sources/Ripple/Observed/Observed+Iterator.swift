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

    /// Runs `emit` on its isolation under tracking, so the next `willSet` of what it reads wakes this iterator.
    @inlinable
    static func emission(
      isolation: isolated (any Actor)?,
      emit: _ObservedEmit<Element, Failure>,
      storage: _ObservedStorage
    ) throws(Failure) -> Emission {
      try emission(emit: emit, storage: storage)
    }

    /// Runs `emit` here; only call this on `emit`'s isolation.
    ///
    /// Tracking is installed only after a run returns, so a write made meanwhile on another thread would fire
    /// nothing, and a model deallocated as the run returns (its last strong reference held by a weak capture's
    /// `guard let`) would leave tracking that never reports. So `emit` runs twice, both times tracked, and the
    /// value is the second run's: a write before the first run's tracking was installed shows in the second
    /// value, and a later one fires that tracking. The second run is tracked too, because what it reads may
    /// differ. On one isolation nothing changes between the two runs, so a transaction still gives one value.
    @inlinable
    static func emission(
      emit: _ObservedEmit<Element, Failure>, storage: _ObservedStorage
    ) throws(Failure) -> Emission {
      let number = storage.emissionStarted()
      let (first, firstTracked) = tracked(emit: emit, storage: storage, emission: number)
      let element: Element
      switch first {
      case .success(.next(let value)): element = value
      case .success(.finish): return .finish
      case .failure(let error): throw error
      }
      // A run that read nothing observable has nothing to miss: no change can ever come.
      guard firstTracked else { return .element(element) }
      switch tracked(emit: emit, storage: storage, emission: number).result {
      case .success(.next(let latest)): return .element(latest)
      // The model went after the first run: its value is the last one.
      case .success(.finish): return .lastElement(element, then: nil)
      case .failure(let error): return .lastElement(element, then: error)
      }
    }

    /// Runs `emit` under tracking that reports to `storage` as emission `number`; `installed` tells whether the
    /// run read something observable.
    @inlinable
    static func tracked(
      emit: _ObservedEmit<Element, Failure>, storage: _ObservedStorage, emission number: UInt64
    ) -> (result: Result<Iteration, Failure>, installed: Bool) {
      var installed = false
      // `onChange` is an autoclosure, evaluated only when `emit` read something observable.
      let result = withObservationTracking(
        { Result { () throws(Failure) -> Iteration in try emit.callAsFunction() } },
        onChange: {
          installed = true
          return _ObservationToken(storage: storage, emission: number).onChange
        }())
      return (result, installed)
    }
  }
}

@available(*, unavailable)
extension Observed.Iterator: Sendable {}
