import InternalRippleUtilities

/// What a latest-wins operator does with one element of its base: `mapLatest` computes one result, `flatMapLatest`
/// iterates an inner sequence. ``_LatestStorage`` runs it in a task of its own per element, which a newer element
/// cancels, and owns everything else — the base, the consumer, generations, backpressure, the ends.
@usableFromInline
protocol _LatestWork: Sendable {
  associatedtype Input: Sendable
  associatedtype Output: Sendable
  associatedtype Failure: Error

  /// Produces the outputs of `input`, reporting them as `generation`'s: ``_LatestReports/produce(_:generation:)``
  /// for each, then ``_LatestReports/innerFinished(generation:)``; or ``_LatestReports/produceLast(_:generation:)``
  /// for a single result; or ``_LatestReports/innerFailed(_:generation:)``.
  func run(_ input: Input, generation: UInt64, reporting reports: some _LatestReports<Output, Failure>) async
}

/// Where a ``_LatestWork`` reports the outputs of one element: its ``_LatestStorage``.
@usableFromInline
protocol _LatestReports<Output, Failure>: Sendable {
  associatedtype Output: Sendable
  associatedtype Failure: Error

  /// Hands over an output of `generation`'s inner, and returns once the inner may produce the next: at once when
  /// the consumer was waiting or nothing of this inner is held for it, else once the held output is taken. `false`
  /// when the inner must stop: a newer element superseded it, or iteration ended.
  func produce(_ output: Output, generation: UInt64) async -> Bool
  /// Hands over the one output of `generation`'s inner, which then has finished.
  func produceLast(_ output: Output, generation: UInt64)
  /// `generation`'s inner finished after its outputs.
  func innerFinished(generation: UInt64)
  /// `generation`'s inner threw `failure`.
  func innerFailed(_ failure: Failure, generation: UInt64)
}

/// The shared state of one iteration of a latest-wins operator, for the consumer, the base task and the inner
/// tasks.
@usableFromInline
final class _LatestStorage<Base: AsyncSequence & Sendable, Work: _LatestWork>: _IterationStorage, _LatestReports
where Base.Element == Work.Input {
  @usableFromInline typealias Machine = _LatestStateMachine<Work.Output, Work.Failure>

  @usableFromInline let base: Base
  @usableFromInline let work: Work
  @usableFromInline let convertFailure: @Sendable (Base.Failure) -> Work.Failure
  @usableFromInline let machine = _Mutex(Machine())

  @inlinable
  init(base: Base, work: Work, convertFailure: @escaping @Sendable (Base.Failure) -> Work.Failure) {
    self.base = base
    self.work = work
    self.convertFailure = convertFailure
  }

  /// Starts the one task that iterates the base for this iteration.
  @inlinable
  func startBase() {
    let task = _startOperatorTask { [self] in
      var iterator = base.makeAsyncIterator()
      do throws(Base.Failure) {
        while let element = try await iterator.next(isolation: nil) {
          guard
            case .startInner(let generation, let superseded, let stopping) = machine.withLock({ $0.elementProduced() })
          else { return }
          superseded?.cancel()
          stopping?.resume(returning: false)
          // Iteration may have ended just now, before this inner's task could be recorded to be cancelled.
          guard !Task.isCancelled else { return }
          startInner(element, generation: generation)
        }
        perform(machine.withLock { $0.baseFinished() })
      } catch {
        perform(machine.withLock { $0.baseFailed(convertFailure(error)) })
      }
    }
    perform(machine.withLock { $0.baseStarted(task) })
  }

  /// Runs the work of one element in a task of its own, so that a newer element can cancel it.
  @inlinable
  func startInner(_ element: Base.Element, generation: UInt64) {
    let task = _startElementTask { [self] in
      await work.run(element, generation: generation, reporting: self)
    }
    perform(machine.withLock { $0.innerStarted(task, generation: generation) })
  }

  @inlinable
  func next(isolation: isolated (any Actor)?) async throws(Work.Failure) -> Work.Output? {
    // An output that is ready costs one lock: no continuation, no cancellation handler. A cancelled task takes the
    // slow path, whose handler ends the iteration at once.
    if !Task.isCancelled {
      switch machine.withLock({ $0.nextReady() }) {
      case .returnResult(let result, let producer):
        producer?.resume(returning: true)
        return try result.get()
      case .end(_, let result, let tasks):
        tasks.cancel()
        return try result.get()
      default:
        break
      }
    }
    return try await waitForNext(isolation: isolation) { consumer in
      perform(machine.withLock { $0.nextRequested(consumer) })
    }
  }

  @inlinable
  func cancel() {
    perform(machine.withLock { $0.cancelled() })
  }

  // MARK: _LatestReports

  @inlinable
  func produce(_ output: Work.Output, generation: UInt64) async -> Bool {
    while true {
      switch machine.withLock({ $0.innerProduced(output, generation: generation, isLast: false) }) {
      case .suspendProducer:
        let goOn = await withUnsafeContinuation(isolation: nil) { (producer: Machine.Producer) in
          perform(machine.withLock { $0.producerSuspending(generation: generation, producer) })
        }
        guard goOn else { return false }
      // The held output was taken: offer this one again.
      case .stopProducing:
        return false
      case let action:
        perform(action)
        return true
      }
    }
  }

  @inlinable
  func produceLast(_ output: Work.Output, generation: UInt64) {
    perform(machine.withLock { $0.innerProduced(output, generation: generation, isLast: true) })
  }

  @inlinable
  func innerFinished(generation: UInt64) {
    perform(machine.withLock { $0.innerFinished(generation: generation) })
  }

  @inlinable
  func innerFailed(_ failure: Work.Failure, generation: UInt64) {
    perform(machine.withLock { $0.innerFailed(failure, generation: generation) })
  }

  /// Runs an action outside the lock.
  @inlinable
  func perform(_ action: Machine.Action) {
    switch action {
    case .none, .stopProducing, .startInner, .suspendProducer:
      break
    case .returnResult(_, let producer):
      producer?.resume(returning: true)
    case .startBase:
      startBase()
    case .resumeConsumer(let consumer, let outcome, let producer):
      producer?.resume(returning: true)
      consumer.resume(returning: outcome)
    case .resumeProducer(let producer, let goOn):
      producer.resume(returning: goOn)
    case .cancelTask(let task):
      task.cancel()
    case .end(let consumer, let outcome, let tasks):
      tasks.cancel()
      consumer?.resume(returning: outcome)
    }
  }
}
