/// The state of a ``TaskSlot``: which task occupies it, for which id.
struct _TaskSlotStateMachine: ~Copyable {
  private enum State {
    /// No task runs.
    case empty
    /// `task` runs for `id`; `generation` tells its completion apart from a later task's.
    case running(id: AnyHashable, task: Task<Void, Never>, generation: UInt64)
  }

  private var state = State.empty
  private var lastGeneration: UInt64 = 0
  private var pendingID: AnyHashable?

  var isRunning: Bool {
    if case .running = state { return true }
    return false
  }

  /// The running task and its id.
  var running: (id: AnyHashable, task: Task<Void, Never>)? {
    if case .running(let id, let task, _) = state { return (id, task) }
    return nil
  }

  /// `run(id:)` was called. Returns the generation of the task to start, or `nil` when the running task already
  /// has this id.
  mutating func runRequested(id: AnyHashable) -> UInt64? {
    if case .running(let runningID, _, _) = state, runningID == id { return nil }
    lastGeneration &+= 1
    pendingID = id
    return lastGeneration
  }

  /// The task for the last `runRequested` started. Returns the task it replaces, to cancel.
  mutating func started(_ task: Task<Void, Never>, generation: UInt64) -> Task<Void, Never>? {
    guard let id = pendingID, generation == lastGeneration else {
      preconditionFailure("TaskSlot: a task started without a matching request (state: \(state))")
    }
    pendingID = nil
    defer { state = .running(id: id, task: task, generation: generation) }
    if case .running(_, let previous, _) = state { return previous }
    return nil
  }

  /// A task returned. It leaves the slot only if no newer task replaced it.
  mutating func taskFinished(generation: UInt64) {
    if case .running(_, _, let running) = state, running == generation {
      state = .empty
    }
  }

  /// The slot was cancelled or released. Returns the task to cancel.
  mutating func cancelled() -> Task<Void, Never>? {
    defer { state = .empty }
    if case .running(_, let task, _) = state { return task }
    return nil
  }
}
