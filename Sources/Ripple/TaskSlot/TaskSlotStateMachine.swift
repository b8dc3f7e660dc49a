/// The state of a ``TaskSlot``: which task occupies it, for which id, and the requests waiting to start.
struct _TaskSlotStateMachine: ~Copyable {
  /// A `run(id:)` call's request.
  struct Request: Sendable {
    let id: any Hashable & Sendable
    let priority: TaskPriority?
    let operation: @isolated(any) @Sendable () async -> Void
  }

  private enum State {
    /// No task runs.
    case empty
    /// `task` runs for `id`; `generation` tells its completion apart from a later task's.
    case running(id: AnyHashable, task: Task<Void, Never>, generation: UInt64)
  }

  private var state = State.empty
  /// Requests not started yet, oldest first.
  private var queue: [Request] = []
  /// Whether a `run` call is starting the queued requests.
  private var isStarting = false
  /// The id of the request being started, between `nextStart` and `started`.
  private var startingID: AnyHashable?
  /// The generation of the newest start or `cancel`: a task is recorded only for the newest one.
  private var lastGeneration: UInt64 = 0

  var isRunning: Bool {
    if case .running = state { return true }
    return false
  }

  /// `run(id:)` was called. Queues the request unless the newest task — the last queued, or else the running
  /// one — has an equal id. Returns whether the caller must start the queue (no other call is doing it).
  mutating func runRequested(_ request: Request) -> Bool {
    let newestID: AnyHashable? =
      if let last = queue.last {
        AnyHashable(last.id)
      } else if let startingID {
        startingID
      } else if case .running(let id, _, _) = state {
        id
      } else {
        nil
      }
    guard newestID != AnyHashable(request.id) else { return false }
    queue.append(request)
    guard !isStarting else { return false }
    isStarting = true
    return true
  }

  /// The starter asks for the next request to start. Returns it with its generation and the running task it
  /// replaces, to cancel first; `nil` when the queue is empty, which ends the starter's turn.
  mutating func nextStart() -> (request: Request, generation: UInt64, previous: Task<Void, Never>?)? {
    guard !queue.isEmpty else {
      isStarting = false
      return nil
    }
    let request = queue.removeFirst()
    lastGeneration &+= 1
    startingID = AnyHashable(request.id)
    defer { state = .empty }
    if case .running(_, let previous, _) = state { return (request, lastGeneration, previous) }
    return (request, lastGeneration, nil)
  }

  /// The task for the request of `generation` started. Returns it to cancel when `cancel()` came meanwhile.
  mutating func started(_ task: Task<Void, Never>, generation: UInt64) -> Task<Void, Never>? {
    // Only the starter records tasks, one at a time, so the slot is empty here unless `cancel()` intervened.
    guard generation == lastGeneration, case .empty = state, let id = startingID else { return task }
    startingID = nil
    state = .running(id: id, task: task, generation: generation)
    return nil
  }

  /// A task returned. It leaves the slot only if no newer task replaced it.
  mutating func taskFinished(generation: UInt64) {
    if case .running(_, _, let running) = state, running == generation {
      state = .empty
    }
  }

  /// The slot was cancelled or released. Returns the task to cancel; requests not started yet are dropped.
  mutating func cancelled() -> Task<Void, Never>? {
    lastGeneration &+= 1
    queue.removeAll()
    startingID = nil
    defer { state = .empty }
    if case .running(_, let task, _) = state { return task }
    return nil
  }
}
