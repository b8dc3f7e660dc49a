@_spi(Testing) import Ripple

extension TestClock {
  /// Runs `body` with every job of the test on one serial executor that this clock drives in lockstep.
  ///
  /// Use it for tests that start tasks and move time by hand. Inside the scope, `body`, its child tasks
  /// (`async let`, task groups) and the tasks Ripple's operators start for themselves all run on one thread,
  /// one job at a time, in FIFO order; ``advance(to:)`` waits, before each step, until there is nothing left
  /// to run. So after `await clock.advance(by: .seconds(1))`, every task has done all it can at the new
  /// instant — no yielding, no counting.
  ///
  /// ```swift
  /// let clock = TestClock()
  /// let order = await clock.lockstep {
  ///   await withTaskGroup(of: Int.self) { group in
  ///     for seconds in [3, 1, 2] {
  ///       group.addTask {
  ///         try? await clock.sleep(for: .seconds(seconds))
  ///         return seconds
  ///       }
  ///     }
  ///     await clock.run()
  ///     var order: [Int] = []
  ///     for await seconds in group { order.append(seconds) }
  ///     return order
  ///   }
  /// }
  /// print(order)  // [1, 2, 3]
  /// ```
  ///
  /// Only nonisolated code follows the scope: work on an actor with an executor of its own (the main actor)
  /// and unstructured tasks started with a plain `Task { }` run elsewhere, and the clock cannot wait for
  /// them. It may be called from any isolation: `body` is sent to the scope's executor, so it cannot use
  /// actor-isolated state. It returns what `body` returns, after waiting once more for quiescence, and
  /// rethrows what `body` throws. A clock can be in one lockstep scope at a time.
  public func lockstep<Value, Failure: Error>(
    _ body: sending () async throws(Failure) -> Value
  ) async throws(Failure) -> Value {
    try await _lockstep { (_: _LockstepExecutor) async throws(Failure) -> Value in try await body() }
  }

  /// ``lockstep(_:)``, handing the scope's executor to `body` for tasks of its own.
  func _lockstep<Value, Failure: Error>(
    _ body: (_LockstepExecutor) async throws(Failure) -> Value
  ) async throws(Failure) -> Value {
    let executor = _LockstepExecutor()
    lockstepStarted(executor)
    defer {
      lockstepEnded()
      executor.shutDown()
    }
    let outcome: Result<Value, Failure> = await _OperatorTasks.$executor.withValue(executor) {
      await withTaskExecutorPreference(executor) {
        // Waiting for quiescence resumes this task through the executor: from here on it runs there.
        await executor.quiescent()
        let outcome: Result<Value, Failure>
        do throws(Failure) {
          outcome = .success(try await body(executor))
        } catch {
          outcome = .failure(error)
        }
        await executor.quiescent()
        return outcome
      }
    }
    return try outcome.get()
  }
}
