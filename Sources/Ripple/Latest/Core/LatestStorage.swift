import InternalRippleUtilities

/// What a latest-wins operator does with one element of its base: `mapLatest` computes one result, `flatMapLatest`
/// iterates an inner sequence. ``_LatestStorage`` runs it in a task of its own per element, which a newer element
/// cancels, and owns everything else — the base, the consumer, generations, backpressure, the ends.
@usableFromInline
protocol _LatestPolicy: Sendable {
  associatedtype Input: Sendable
  associatedtype Output: Sendable
  associatedtype Failure: Error

  /// Produces the outputs of `input` into `outputs` as `generation`'s: ``_LatestOutputs/produce(_:generation:)``
  /// for each, then ``_LatestOutputs/innerFinished(generation:)``; or ``_LatestOutputs/produceLast(_:generation:)``
  /// for a single result; or ``_LatestOutputs/innerFailed(_:generation:)``.
  func run(_ input: Input, generation: UInt64, into outputs: some _LatestOutputs<Output, Failure>) async
}

/// Where a ``_LatestPolicy`` hands the outputs of one element: its ``_LatestStorage``. (A protocol rather than the
/// storage's type, which names the policy: a policy's method naming its own storage would make the conformance
/// depend on itself.)
@usableFromInline
protocol _LatestOutputs<Output, Failure>: Sendable {
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

/// One iteration of a latest-wins operator: its ``_LatestStateMachine`` in a lock, the task that iterates the base
/// (started once the first `next()` waits), and the inner task of the newest element, in which its
/// ``_LatestPolicy`` runs.
@usableFromInline
final class _LatestStorage<Base: AsyncSequence & Sendable, Policy: _LatestPolicy>: _IterationStorage, _LatestOutputs
where Base.Element == Policy.Input {
  @usableFromInline typealias Machine = _LatestStateMachine<Policy.Output, Policy.Failure>

  @usableFromInline let base: Base
  @usableFromInline let policy: Policy
  @usableFromInline let convertFailure: @Sendable (Base.Failure) -> Policy.Failure
  @usableFromInline let machine = _Mutex(Machine())

  @inlinable
  init(base: Base, policy: Policy, convertFailure: @escaping @Sendable (Base.Failure) -> Policy.Failure) {
    self.base = base
    self.policy = policy
    self.convertFailure = convertFailure
  }

  /// Starts the one task that iterates the base for this iteration; the first consumer already waits.
  @inlinable
  func start() {
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
    perform(machine.withLock { $0.started(task) })
  }

  /// Runs the policy for one element in a task of its own, so that a newer element can cancel it.
  @inlinable
  func startInner(_ element: Base.Element, generation: UInt64) {
    let task = _startElementTask { [self] in
      await policy.run(element, generation: generation, into: self)
    }
    perform(machine.withLock { $0.innerStarted(task, generation: generation) })
  }

  @inlinable
  func next(isolation: isolated (any Actor)?) async throws(Policy.Failure) -> Policy.Output? {
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

  // MARK: _LatestOutputs

  @inlinable
  func produce(_ output: Policy.Output, generation: UInt64) async -> Bool {
    while true {
      switch machine.withLock({ $0.innerProduced(output, generation: generation, isLast: false) }) {
      case .resumeConsumer(let consumer, let result):
        consumer.resume(returning: result)
        return true
      case .held:
        return true
      case .suspend:
        let goOn = await withUnsafeContinuation(isolation: nil) { (producer: Machine.Producer) in
          if let goOn = machine.withLock({ $0.producerSuspending(generation: generation, producer) }) {
            producer.resume(returning: goOn)
          }
        }
        // The held output was taken: offer this one again.
        guard goOn else { return false }
      case .stop:
        return false
      }
    }
  }

  @inlinable
  func produceLast(_ output: Policy.Output, generation: UInt64) {
    // A last output is never held behind one of its own inner's: it goes to the consumer, replaces what is held,
    // or is dropped when superseded.
    if case .resumeConsumer(let consumer, let result) = machine.withLock({
      $0.innerProduced(output, generation: generation, isLast: true)
    }) {
      consumer.resume(returning: result)
    }
  }

  @inlinable
  func innerFinished(generation: UInt64) {
    perform(machine.withLock { $0.innerFinished(generation: generation) })
  }

  @inlinable
  func innerFailed(_ failure: Policy.Failure, generation: UInt64) {
    perform(machine.withLock { $0.innerFailed(failure, generation: generation) })
  }

  /// Runs an action outside the lock.
  @inlinable
  func perform(_ action: Machine.Action) {
    switch action {
    case .none:
      break
    case .returnResult(_, let producer):
      producer?.resume(returning: true)
    case .start:
      start()
    case .resumeConsumer(let consumer, let outcome, let producer):
      producer?.resume(returning: true)
      consumer.resume(returning: outcome)
    case .cancelTask(let task):
      task.cancel()
    case .end(let consumer, let outcome, let tasks):
      tasks.cancel()
      consumer?.resume(returning: outcome)
    }
  }
}
