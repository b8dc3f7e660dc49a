extension TestClock {
  /// Runs `body` with every job of the test on one serial executor that this clock drives in lockstep.
  ///
  /// Use it for any test that starts tasks and moves time by hand — a `@MainActor` view model's included.
  /// `body` runs with the caller's isolation: called from a `@MainActor` test, it runs on the main actor and
  /// uses main-actor state directly. Inside the scope, every job of the test — main-actor jobs, plain
  /// `Task { }` and `Task.detached`, task groups and `async let`, default actors, the tasks Ripple's operators
  /// start — runs on one serial executor on the main thread, one job at a time, in the order it was
  /// enqueued; ``advance(to:isolation:)`` waits, before each step and at the end, until there is nothing left to run.
  /// So after `await clock.advance(by: .milliseconds(300))`, every task has done all it can at the new instant —
  /// no yielding, no counting, no hook in the code under test:
  ///
  /// ```swift
  /// @MainActor @Observable final class SearchModel {
  ///   var query = ""
  ///   private(set) var results: [String] = []
  ///   init(clock: some Clock<Duration>) {
  ///     Task { [weak self] in
  ///       let queries = Observed.untilFinished { [weak self] in self.map { .next($0.query) } ?? .finish }
  ///       for await q in queries.debounce(for: .milliseconds(300), clock: clock) { self?.results = [q] }
  ///     }
  ///   }
  /// }
  ///
  /// @MainActor @Test func debouncesTyping() async {
  ///   let clock = TestClock()
  ///   await clock.lockstep {
  ///     let model = SearchModel(clock: clock)
  ///     model.query = "a"
  ///     await clock.advance(by: .milliseconds(100))
  ///     model.query = "ab"
  ///     await clock.advance(by: .milliseconds(299))
  ///     #expect(model.results == [])
  ///     await clock.advance(by: .milliseconds(1))
  ///     #expect(model.results == ["ab"])
  ///   }
  /// }
  /// ```
  ///
  /// **What it cannot wait for.** Work outside the concurrency runtime's global and main executors is not in
  /// the scope, so `advance` may return before it is done: `Task.sleep` on a real clock, a task with a task
  /// executor preference, an actor with an executor of its own, Dispatch queues and I/O threads. A nonisolated
  /// task resumed from one of those goes on outside the scope from then on; a main-actor one comes back to the
  /// scope's executor, but `advance` may have returned before it did. Inject the clock, and do not block the
  /// main thread in the scope: its jobs run there. A body isolated to an actor with a custom executor runs on
  /// that executor, outside the scope. Lockstep needs the runtime's dynamic symbols: in a statically linked
  /// test binary (`-static-stdlib`, the static Linux SDK) it stops with a message.
  ///
  /// **Tests running at the same time.** A job belongs to the scope when one of the scope's jobs enqueues it,
  /// so other tests' tasks are not captured — except through a default actor that both use (a global actor, a
  /// shared singleton): a foreign task waiting on that actor while a scope job holds it runs in the scope's
  /// pump, and a scope task waiting on it while a foreign one holds it goes on outside the scope. Give such
  /// tests `.serialized`, or their own actor instances.
  ///
  /// **How.** The scope puts its jobs on its executor through two hooks of the Swift runtime, which it
  /// installs at the first use (Docs/Decisions/LockstepRuntimeHooks.md); if the runtime lacks them, or another
  /// library has replaced them, it stops the process with a message saying so rather than run a test without
  /// lockstep. Scopes of different clocks may run at the same time; a clock can be in one scope at a time.
  ///
  /// It returns what `body` returns, after waiting once more for quiescence, and rethrows what `body`
  /// throws. Cancelling the calling task is seen by `body` as usual; the scope adds nothing to it.
  public func lockstep<Value, Failure: Error>(
    isolation: isolated (any Actor)? = #isolation,
    _ body: () async throws(Failure) -> Value
  ) async throws(Failure) -> Value {
    if let reason = _RuntimeHooks.unavailableReason {
      fatalError("TestClock.lockstep cannot run: \(reason)")
    }
    let executor = _LockstepExecutor.make()
    lockstepStarted(executor)
    defer { lockstepEnded() }
    // Into the scope: the hop onto the entry actor enqueues this task on the scope's executor. This frame then
    // goes on with the executor it resolved for `isolation` on entry (for the main actor, the real one), so
    // its own code between the awaits may run outside the pump; `body`, a closure, looks its executor up again
    // when it starts, inside the pump — on the scope's executor for main-actor code, through the global hook
    // for nonisolated code.
    await _LockstepEntry(executor).enter()
    let outcome: Result<Value, Failure>
    do throws(Failure) {
      outcome = .success(try await body())
    } catch {
      outcome = .failure(error)
    }
    await executor.quiescent()
    executor.close()
    // Once more, off any actor, now that the scope captures nothing: resumed from the pump, this task goes to the
    // global executor as it would without the scope, and from there back to `isolation`'s own.
    await executor.quiescent(isolation: nil)
    return try outcome.get()
  }
}

/// The door into a lockstep scope: an actor on the scope's executor.
///
/// Calling ``enter()`` enqueues the caller's task on the executor before it suspends. (Waiting for quiescence
/// instead would race: the pump could resume the continuation before the task had suspended, and the task
/// would then go on on its own thread, outside the scope.)
private actor _LockstepEntry {
  private let executor: _LockstepExecutor
  /// Written in ``enter()``, so that the hop onto the actor cannot be optimised away.
  private var entered = false

  init(_ executor: _LockstepExecutor) {
    self.executor = executor
  }

  nonisolated var unownedExecutor: UnownedSerialExecutor {
    executor.asUnownedSerialExecutor()
  }

  func enter() {
    entered = true
  }
}
