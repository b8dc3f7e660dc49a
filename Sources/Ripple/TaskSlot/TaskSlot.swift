import InternalRippleUtilities

/// A slot for one task at a time, restarted when its id changes: SwiftUI's `.task(id:)` for code that is not a
/// view.
///
/// Use it in an object that owns an asynchronous job tied to some input — a model that recalculates when its input
/// changes, a service shared by several screens. `run(id:)` cancels the task in flight and starts a new one, unless
/// the running task already has an equal id; releasing the slot cancels its task, as a view disappearing cancels
/// its `.task`. See <doc:TaskSlotGuide> and <doc:FromTaskIDToTaskSlot>.
///
/// ```swift
/// @MainActor @Observable final class Calculator {
///   var input = Input() {
///     didSet {
///       guard input != oldValue else { return }
///       slot.run(id: input) { [weak self, input] in
///         guard let sum = try? await SlowCalculator.live().result(for: input) else { return }
///         guard !Task.isCancelled else { return }  // a newer input superseded this one: never show a stale sum
///         self?.result = sum
///       }
///     }
///   }
///   private(set) var result = 0
///   @ObservationIgnored private let slot = TaskSlot()
/// }
/// ```
///
/// ## Cancellation and lifetime
/// Cancellation is cooperative: an operation that ignores it runs on, but a new operation never waits for it. An
/// operation that checks `Task.isCancelled` after its last `await`, on the isolation where `run` is called, writes
/// nothing once a newer `run` has cancelled it. `deinit` cancels the running task; the task holds the slot weakly.
/// Every method may be called from any thread or actor; when calls race, the one that reaches the slot last wins and
/// its task is the one left running (see ``run(id:priority:operation:)``).
public final class TaskSlot: Sendable {
  private let state = _Mutex(_TaskSlotStateMachine())

  /// Creates an empty slot: nothing runs until the first ``run(id:priority:operation:)``.
  ///
  /// ```swift
  /// @ObservationIgnored private let slot = TaskSlot()  // a stored property of the object that owns the work
  /// ```
  public init() {}

  deinit {
    state.withLock { $0.cancelled() }?.cancel()
  }

  /// Starts `operation` in a new task, cancelling the running one, unless a task started with an equal `id` is
  /// still running — then it does nothing.
  ///
  /// Call it when the input the work depends on changes, typically from `didSet` after comparing with `oldValue`:
  /// an equal `id` is compared with the *running* task's, so once that task has returned, an equal `id` starts
  /// the work again.
  ///
  /// ```swift
  /// slot.run(id: input) { [weak self, input] in
  ///   let sum = try? await calculator.result(for: input)
  ///   guard let sum, !Task.isCancelled else { return }
  ///   self?.result = sum
  /// }
  /// slot.run(id: input) { /* … */ }  // the same input while the first task runs: nothing happens
  /// ```
  ///
  /// The previous task is cancelled — its cancellation handlers have run — before the new task is created, and
  /// the new task does not wait for it to end. Racing calls are queued in the order they reach the slot and
  /// started one after another, each cancelling the one before; a call that finds another one starting returns
  /// at once and leaves its request to it. An operation isolated to an actor is enqueued on that actor directly,
  /// so operations start in call order, as `Task { }` bodies do. Cancellation handlers run with no lock held, so
  /// they may call any method of the slot.
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
    let request = _TaskSlotStateMachine.Request(id: id, priority: priority, operation: operation)
    guard state.withLock({ $0.runRequested(request) }) else { return }
    // This call is the starter: it starts every request queued until the queue is empty, one at a time, so that
    // among racing calls "the previous task" is well defined and is cancelled — its cancellation handlers run —
    // before the next task exists. No lock is held while they run: they may call any method of the slot (a `run`
    // from one is queued and started by this loop) and take locks of their own.
    while let (request, generation, previous) = state.withLock({ $0.nextStart() }) {
      previous?.cancel()
      let task = start(request.operation, priority: request.priority, generation: generation)
      // `cancel()` may have come in while the previous task was being cancelled or this one created.
      state.withLock { $0.started(task, generation: generation) }?.cancel()
    }
  }

  /// Creates the task for `operation`, which tells the slot when the operation has returned.
  private func start(
    _ operation: @escaping @isolated(any) @Sendable () async -> Void, priority: TaskPriority?, generation: UInt64
  ) -> Task<Void, Never> {
    guard operation.isolation != nil else {
      // Nonisolated: a wrapper runs exactly where the operation would, and reports its end itself.
      let body: @Sendable () async -> Void = { [weak self] in
        await operation()
        self?.finished(generation: generation)
      }
      return Task(priority: priority, operation: body)
    }
    if operation.isolation === MainActor.shared {
      // The usual case, a main-actor model: a wrapper isolated to the main actor is enqueued there at once, so
      // operations start in call order, and calling the operation from it does not suspend.
      return Task(priority: priority) { @MainActor [weak self] in
        await operation()
        self?.finished(generation: generation)
      }
    }
    // Isolated to another actor: the task is enqueued on that actor at once, so operations start in call order,
    // as `Task { }` bodies do. A wrapper closure cannot take on a dynamic isolation, so a second task waits for
    // the end; until it has run, `isRunning` stays `true`.
    let task = Task(priority: priority, operation: operation)
    _ = _startOperatorTask(priority: priority) { [weak self] in
      await task.value
      self?.finished(generation: generation)
    }
    return task
  }

  /// Cancels the running task, if any, and empties the slot; the next `run` starts whatever its id.
  ///
  /// Use it when the input becomes something nothing should be computed for, such as an empty field:
  ///
  /// ```swift
  /// guard input.operands != nil else { return slot.cancel() }
  /// slot.run(id: input) { /* … */ }
  /// ```
  ///
  /// Cancellation is cooperative: the cancelled operation may still be winding down when this returns.
  public func cancel() {
    state.withLock { $0.cancelled() }?.cancel()
  }

  /// Whether a task started by this slot is still running (it has not returned and was not cancelled).
  ///
  /// It turns `false` when the operation returns, and at once on ``cancel()``, even while the cancelled operation
  /// is still winding down. (For an operation isolated to an actor other than the main actor, a small second task
  /// reports the return, so it turns `false` just after.) It is not observable: read it when something else tells
  /// you to.
  ///
  /// ```swift
  /// slot.run(id: 1) { try? await Task.sleep(for: .seconds(1)) }
  /// print(slot.isRunning)  // true
  /// slot.cancel()
  /// print(slot.isRunning)  // false
  /// ```
  public var isRunning: Bool {
    state.withLock { $0.isRunning }
  }

  private func finished(generation: UInt64) {
    state.withLock { $0.taskFinished(generation: generation) }
  }
}
