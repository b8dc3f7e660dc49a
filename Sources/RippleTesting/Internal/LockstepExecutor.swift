#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

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
  // @unchecked: every stored `var` is guarded by `mutex`.

  /// One entry of the queue.
  private enum Item {
    /// A job of a task or an actor.
    case job(UnownedJob)
    /// Work of the driver itself, such as resuming a batch of sleepers, run between jobs.
    case action(@Sendable () -> Void)
  }

  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  private let condition: UnsafeMutablePointer<pthread_cond_t>
  /// The queue is `items[head...]`; the consumed prefix is dropped now and then.
  private var items: [Item] = []
  private var head = 0
  /// Tasks waiting for quiescence.
  private var waiters: [UnsafeContinuation<Void, Never>] = []
  private var isThreadRunning = false
  private var isShutDown = false
  private var thread: pthread_t?

  init() {
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
    condition = .allocate(capacity: 1)
    condition.initialize(to: pthread_cond_t())
    pthread_cond_init(condition, nil)
  }

  deinit {
    pthread_cond_destroy(condition)
    condition.deallocate()
    pthread_mutex_destroy(mutex)
    mutex.deallocate()
  }

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
      return pthread_equal(thread, pthread_self()) != 0
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
      pthread_cond_signal(condition)
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
      pthread_cond_signal(condition)
      return false
    }
    isThreadRunning = true
    return true
  }

  private func spawnThread() {
    let context = Unmanaged.passRetained(self).toOpaque()
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
    pthread_attr_setstacksize(&attributes, 8 << 20)
    defer { pthread_attr_destroy(&attributes) }
    #if canImport(Darwin)
    var handle: pthread_t?
    #else
    var handle = pthread_t()
    #endif
    let result = pthread_create(
      &handle, &attributes,
      { context in
        #if canImport(Darwin)
        let executor = Unmanaged<_LockstepExecutor>.fromOpaque(context).takeRetainedValue()
        #else
        let executor = Unmanaged<_LockstepExecutor>.fromOpaque(context!).takeRetainedValue()
        #endif
        executor.runLoop()
        return nil
      }, context)
    precondition(result == 0, "could not start the lockstep executor's thread (error \(result))")
  }

  /// Runs items until shut down and idle; parks on the condition variable while there is nothing to do.
  private func runLoop() {
    pthread_mutex_lock(mutex)
    thread = pthread_self()
    while true {
      if head < items.count {
        let item = items[head]
        head += 1
        if head == items.count {
          items.removeAll(keepingCapacity: true)
          head = 0
        }
        pthread_mutex_unlock(mutex)
        switch item {
        case .job(let job):
          job.runSynchronously(isolatedTo: asUnownedSerialExecutor(), taskExecutor: asUnownedTaskExecutor())
        case .action(let action):
          action()
        }
        pthread_mutex_lock(mutex)
      } else if !waiters.isEmpty {
        let resumed = waiters
        waiters.removeAll()
        pthread_mutex_unlock(mutex)
        for waiter in resumed { waiter.resume() }
        pthread_mutex_lock(mutex)
      } else if isShutDown {
        break
      } else {
        pthread_cond_wait(condition, mutex)
      }
    }
    thread = nil
    isThreadRunning = false
    pthread_mutex_unlock(mutex)
  }

  private func locked<R>(_ body: () -> R) -> R {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return body()
  }
}
