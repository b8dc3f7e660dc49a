/// A serial executor with a FIFO job queue, run on one thread of its own, that can tell when it is quiescent.
///
/// It is both a `TaskExecutor` (tasks that prefer it run their nonisolated code here) and a `SerialExecutor`
/// (an actor may use it), so every job of a test runs on one thread, one at a time, in the order it was
/// enqueued. *Quiescent* means the queue is empty and no job is running: with every participant of a test
/// on this executor, nothing can happen any more until someone outside resumes a continuation — which is
/// what `TestClock.advance` does, one deadline at a time.
///
/// The thread is a plain POSIX thread: the toolchain offers no other way to own a thread without Foundation,
/// and borrowing a thread of the cooperative pool would block it while idle. It parks on a condition
/// variable while the queue is empty, starts on the first enqueue, and exits once the executor is shut down
/// and idle; a job enqueued later (a task woken after its test ended) starts it again.
final class _LockstepExecutor: TaskExecutor, SerialExecutor, @unchecked Sendable {
  // @unchecked: every stored `var` is guarded by `lock`.

  /// One entry of the queue.
  private enum Item {
    /// A job of a task or an actor.
    case job(UnownedJob)
    /// Work of the driver itself, such as resuming a batch of sleepers, run between jobs.
    case action(@Sendable () -> Void)
  }

  private let lock = _ConditionLock()
  /// The queue is `items[head...]`; the consumed prefix is dropped now and then.
  private var items: [Item] = []
  private var head = 0
  /// Tasks waiting for quiescence.
  private var waiters: [UnsafeContinuation<Void, Never>] = []
  private var isThreadRunning = false
  private var isShutDown = false
  private var thread: _Platform.ThreadID?

  // MARK: Executor

  func enqueue(_ job: consuming ExecutorJob) {
    submit(.job(UnownedJob(job)))
  }

  /// Runs `action` on the executor's thread, after the jobs already queued and before any enqueued later.
  func perform(_ action: @escaping @Sendable () -> Void) {
    submit(.action(action))
  }

  func checkIsolated() {
    precondition(isCurrent, "not on the lockstep executor's thread")
  }

  /// Whether the calling thread is the executor's thread.
  var isCurrent: Bool {
    locked {
      guard let thread else { return false }
      return thread == _Platform.currentThread()
    }
  }

  // MARK: Quiescence

  /// Returns once the executor has been quiescent: its queue empty and no job running.
  ///
  /// Called from a task that runs on this executor, it returns after every other job queued before or
  /// during the wait has run (the caller's own continuation is then the only job). Waiters are resumed
  /// together, each time the queue runs dry.
  func quiescent() async {
    await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
      let startThread = locked { () -> Bool in
        waiters.append(continuation)
        return wakeOrStart()
      }
      if startThread { spawnThread() }
    }
  }

  /// Stops the thread once it is idle; work submitted later starts it again.
  func shutDown() {
    locked {
      isShutDown = true
      lock.signal()
    }
  }

  // MARK: The thread

  private func submit(_ item: Item) {
    let startThread = locked { () -> Bool in
      items.append(item)
      return wakeOrStart()
    }
    if startThread { spawnThread() }
  }

  /// With the mutex held: wakes the parked thread, or returns `true` when a thread must be started.
  private func wakeOrStart() -> Bool {
    if isThreadRunning {
      lock.signal()
      return false
    }
    isThreadRunning = true
    return true
  }

  private func spawnThread() {
    let result = _Platform.startDetachedThread(stackSize: 8 << 20) { [self] in runLoop() }
    precondition(result == 0, "could not start the lockstep executor's thread (error \(result))")
  }

  /// Runs items until shut down and idle; parks on the condition variable while there is nothing to do.
  private func runLoop() {
    lock.lock()
    thread = _Platform.currentThread()
    while true {
      if head < items.count {
        let item = items[head]
        head += 1
        if head == items.count {
          items.removeAll(keepingCapacity: true)
          head = 0
        }
        lock.unlock()
        switch item {
        case .job(let job):
          job.runSynchronously(isolatedTo: asUnownedSerialExecutor(), taskExecutor: asUnownedTaskExecutor())
        case .action(let action):
          action()
        }
        lock.lock()
      } else if !waiters.isEmpty {
        let resumed = waiters
        waiters.removeAll()
        lock.unlock()
        for waiter in resumed { waiter.resume() }
        lock.lock()
      } else if isShutDown {
        break
      } else {
        lock.wait()
      }
    }
    thread = nil
    isThreadRunning = false
    lock.unlock()
  }

  private func locked<R>(_ body: () -> R) -> R {
    lock.lock()
    defer { lock.unlock() }
    return body()
  }
}
