import Synchronization

/// A task executor that counts the jobs it is given and runs them on the global concurrent executor.
///
/// Bound to `_OperatorTasks.executor`, it shows which work an operator starts through the hook a
/// deterministic test driver uses.
final class CountingExecutor: TaskExecutor {
  private let jobs = Atomic<Int>(0)

  /// How many jobs were enqueued so far.
  var jobCount: Int { jobs.load(ordering: .relaxed) }

  func enqueue(_ job: consuming ExecutorJob) {
    jobs.add(1, ordering: .relaxed)
    globalConcurrentExecutor.enqueue(job)
  }
}
