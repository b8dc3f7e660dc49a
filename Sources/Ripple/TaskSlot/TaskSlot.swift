import Synchronization

/// A slot for one task at a time, restarted when its id changes: SwiftUI's `.task(id:)` for code that is not a
/// view.
///
/// Use it in an object that owns an asynchronous job tied to some input — a model that recalculates when its input
/// changes, a service shared by several screens. `run(id:)` cancels the task in flight and starts a new one, unless
/// the running task already has an equal id; releasing the slot cancels its task, as a view disappearing cancels
/// its `.task`.
///
/// ```swift
/// @MainActor @Observable final class Calculator {
///   var input = Input() {
///     didSet {
///       slot.run(id: input) { [weak self, input] in
///         guard let sum = try? await SlowCalculator.live().result(for: input) else { return }
///         self?.result = sum  // never a stale sum: an older task was cancelled before this one started
///       }
///     }
///   }
///   private(set) var result = 0
///   @ObservationIgnored private let slot = TaskSlot()
/// }
/// ```
///
/// ## Cancellation and lifetime
/// The previous task is cancelled before `run` returns; cancellation is cooperative, so an operation that ignores
/// it runs on, but a new operation never waits for it. Write results only after the last suspension point of the
/// operation (or check `Task.isCancelled` first), and a cancelled operation never overwrites a newer one's result.
/// `deinit` cancels the running task. Every method may be called from any thread or actor; when calls race, the
/// one that takes the slot last wins and its task is the one left running.
public final class TaskSlot: Sendable {
  private let state = Mutex(_TaskSlotStateMachine())

  /// Creates an empty slot.
  public init() {}

  deinit {
    state.withLock { $0.cancelled() }?.cancel()
  }

  /// Starts `operation` in a new task, cancelling the running one, unless a task started with an equal `id` is
  /// still running — then it does nothing.
  ///
  /// - Parameters:
  ///   - id: What the task depends on: the input it computes from. Equal ids keep the running task.
  ///   - priority: The new task's priority; `nil` inherits it, as `Task.init` does.
  ///   - operation: The work. It runs on the isolation it was written in (the caller's, by default), like the
  ///     body of `Task { }`.
  public func run(
    id: some Hashable & Sendable,
    priority: TaskPriority? = nil,
    @_inheritActorContext operation: @escaping @isolated(any) @Sendable () async -> Void
  ) {
    let previous: Task<Void, Never>? = state.withLock { machine in
      guard let generation = machine.runRequested(id: AnyHashable(id)) else { return nil }
      // The task starts inside the lock so that, among racing calls, the one recorded last is the one left
      // running; it is cancelled only after the lock is released.
      let body: @Sendable () async -> Void = { [weak self] in
        await operation()
        self?.finished(generation: generation)
      }
      let task =
        _OperatorTasks.executor.map { Task(executorPreference: $0, priority: priority, operation: body) }
        ?? Task(priority: priority, operation: body)
      return machine.started(task, generation: generation)
    }
    previous?.cancel()
  }

  /// Cancels the running task, if any, and empties the slot; the next `run` starts whatever its id.
  public func cancel() {
    state.withLock { $0.cancelled() }?.cancel()
  }

  /// Whether a task started by this slot is still running (it has not returned and was not cancelled).
  public var isRunning: Bool {
    state.withLock { $0.isRunning }
  }

  /// The running task and its id, for tests.
  var runningForTesting: (id: AnyHashable, task: Task<Void, Never>)? {
    state.withLock { $0.running }
  }

  private func finished(generation: UInt64) {
    state.withLock { $0.taskFinished(generation: generation) }
  }
}
