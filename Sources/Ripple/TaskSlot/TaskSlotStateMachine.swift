/// The state of a ``TaskSlot``: which task occupies it, for which id.
struct _TaskSlotStateMachine: ~Copyable {
  private enum State {
    /// No task runs.
    case empty
    /// `task` runs for `id`; `generation` tells its completion apart from a later task's.
    case running(id: AnyHashable, task: Task<Void, Never>, generation: UInt64)
  }

  private var state = State.empty
  /// The generation of the newest `run` or `cancel`: a task is started only for the newest request.
  private var lastGeneration: UInt64 = 0

  var isRunning: Bool {
    if case .running = state { return true }
    return false
  }

  /// `run(id:)` was called. Returns the generation of the task to start and the running task it replaces, to
  /// cancel before the new one starts; `nil` when the running task already has this id.
  mutating func runRequested(id: AnyHashable) -> (generation: UInt64, previous: Task<Void, Never>?)? {
    if case .running(let runningID, _, _) = state, runningID == id { return nil }
    lastGeneration &+= 1
    defer { state = .empty }
    if case .running(_, let previous, _) = state { return (lastGeneration, previous) }
    return (lastGeneration, nil)
  }

  /// Whether `generation` is still the newest request: no `cancel()` came after it.
  func isCurrent(_ generation: UInt64) -> Bool {
    generation == lastGeneration
  }

  /// The task for the newest request, `generation`, started for `id`.
  mutating func started(_ task: Task<Void, Never>, id: AnyHashable, generation: UInt64) {
    guard case .empty = state, generation == lastGeneration else {
      preconditionFailure("TaskSlot: a task started without a matching request (state: \(state))")
    }
    state = .running(id: id, task: task, generation: generation)
  }

  /// A task returned. It leaves the slot only if no newer task replaced it.
  mutating func taskFinished(generation: UInt64) {
    if case .running(_, _, let running) = state, running == generation {
      state = .empty
    }
  }

  /// The slot was cancelled or released. Returns the task to cancel; a task being started is not started.
  mutating func cancelled() -> Task<Void, Never>? {
    lastGeneration &+= 1
    defer { state = .empty }
    if case .running(_, let task, _) = state { return task }
    return nil
  }
}
