/// The shared state of one `mapLatest` iteration, for the consumer, the base task and the transform tasks.
@usableFromInline
final class _MapLatestStorage<Base: AsyncSequence & Sendable, Output: Sendable, Failure: Error>: _IterationCancelling
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

  /// The consumer's `next()`: the next result, `nil` at the end, or the error that ended iteration.
  @inlinable
  func next(isolation: isolated (any Actor)?) async throws(Failure) -> Output? {
    let outcome = await withTaskCancellationHandler {
      await withUnsafeContinuation(isolation: isolation) { (consumer: Machine.Consumer) in
        switch machine.withLock({ $0.nextRequested(consumer) }) {
        case .startAndSuspend:
          startBase()
        case .suspend:
          break
        case .resume(let outcome, let tasks):
          for task in tasks { task.cancel() }
          consumer.resume(returning: outcome)
        }
      }
    } onCancel: {
      cancel()
    }
    return try outcome.get()
  }

  /// Ends iteration: the consumer's task was cancelled or its iterator was dropped.
  @inlinable
  func cancel() {
    let (consumer, tasks) = machine.withLock { $0.cancelled() }
    for task in tasks { task.cancel() }
    consumer?.resume(returning: .success(nil))
  }

  @inlinable
  func apply(_ effects: Machine.Effects) {
    for task in effects.cancel { task.cancel() }
    if let (consumer, outcome) = effects.resume {
      consumer.resume(returning: outcome)
    }
  }

  /// Starts the one task that iterates the base for this iteration.
  @inlinable
  func startBase() {
    let task = _startOperatorTask { [self] in
      var iterator = base.makeAsyncIterator()
      do throws(Base.Failure) {
        while let element = try await iterator.next(isolation: nil) {
          guard let (generation, superseded) = machine.withLock({ $0.elementProduced() }) else { return }
          superseded?.cancel()
          // Iteration may have ended just now, before this transform's task could be recorded to be cancelled.
          guard !Task.isCancelled else { return }
          startTransform(element, generation: generation)
        }
        apply(machine.withLock { $0.baseFinished() })
      } catch {
        apply(machine.withLock { $0.baseFailed(convertFailure(error)) })
      }
    }
    machine.withLock { $0.baseStarted(task) }?.cancel()
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
      apply(machine.withLock { $0.transformFinished(generation: generation, outcome) })
    }
    let task = _startElementTask(operation)
    machine.withLock { $0.transformStarted(task, generation: generation) }?.cancel()
  }
}
