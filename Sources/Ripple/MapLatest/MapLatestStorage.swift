/// The shared state of one `mapLatest` iteration, for the consumer, the base task and the transform tasks.
@usableFromInline
final class _MapLatestStorage<Base: AsyncSequence & Sendable, Output: Sendable, Failure: Error>: _IterationStorage
where Base.Element: Sendable {
  @usableFromInline typealias Machine = _MapLatestStateMachine<Output, Failure>

  @usableFromInline let base: Base
  @usableFromInline let transform: @isolated(any) @Sendable (Base.Element) async throws(Failure) -> Output
  @usableFromInline let convertFailure: @Sendable (Base.Failure) -> Failure
  @usableFromInline let machine = _Mutex(Machine())

  @inlinable
  init(
    base: Base,
    transform: @escaping @isolated(any) @Sendable (Base.Element) async throws(Failure) -> Output,
    convertFailure: @escaping @Sendable (Base.Failure) -> Failure
  ) {
    self.base = base
    self.transform = transform
    self.convertFailure = convertFailure
  }

  /// Nothing: the base starts in the first `next()`, once the consumer waits (``Machine/Action/startBase``).
  @inlinable
  func start() {}

  /// Starts the one task that iterates the base for this iteration.
  @inlinable
  func startBase() {
    let task = _startOperatorTask { [self] in
      var iterator = base.makeAsyncIterator()
      do throws(Base.Failure) {
        while let element = try await iterator.next(isolation: nil) {
          guard case .startTransform(let generation, let superseded) = machine.withLock({ $0.elementProduced() })
          else { return }
          superseded?.cancel()
          // Iteration may have ended just now, before this transform's task could be recorded to be cancelled.
          guard !Task.isCancelled else { return }
          startTransform(element, generation: generation)
        }
        perform(machine.withLock { $0.baseFinished() })
      } catch {
        perform(machine.withLock { $0.baseFailed(convertFailure(error)) })
      }
    }
    perform(machine.withLock { $0.baseStarted(task) })
  }

  @inlinable
  func next(isolation: isolated (any Actor)?) async throws(Failure) -> Output? {
    try await waitForNext(isolation: isolation) { consumer in
      perform(machine.withLock { $0.nextRequested(consumer) })
    }
  }

  @inlinable
  func cancel() {
    perform(machine.withLock { $0.cancelled() })
  }

  /// Runs an action outside the lock.
  @inlinable
  func perform(_ action: Machine.Action) {
    switch action {
    case .none, .stopProducing, .startTransform:
      break
    case .startBase:
      startBase()
    case .resumeConsumer(let consumer, let outcome):
      consumer.resume(returning: outcome)
    case .cancelTask(let task):
      task.cancel()
    case .end(let consumer, let outcome, let tasks):
      tasks.cancel()
      consumer?.resume(returning: outcome)
    }
  }

  /// Runs the transform of one element in a task of its own, so that a newer element can cancel it.
  @inlinable
  func startTransform(_ element: Base.Element, generation: UInt64) {
    let operation: @Sendable () async -> Void = { [self] in
      let outcome: Result<Output, Failure>
      do throws(Failure) {
        outcome = .success(try await transform(element))
      } catch {
        outcome = .failure(error)
      }
      perform(machine.withLock { $0.transformFinished(generation: generation, outcome) })
    }
    let task = _startElementTask(operation)
    perform(machine.withLock { $0.transformStarted(task, generation: generation) })
  }
}
