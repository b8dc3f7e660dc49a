/// Where the tasks that Ripple's operators start for themselves run.
///
/// Operators such as `merge` or `debounce` consume their bases in a task of their own. By default that task
/// runs on the global concurrent executor. A deterministic test driver (RippleTesting's) binds
/// ``executor`` for the duration of a test so that every such task runs on its serial executor, in
/// lockstep with its `TestClock`: task-local values are copied into unstructured tasks, so the binding
/// reaches tasks that operators start from inside other operators' tasks as well.
@_spi(Testing)
public enum _OperatorTasks {
  /// The executor operator tasks prefer; `nil` for the default.
  @TaskLocal public static var executor: (any TaskExecutor)?

  /// Told what each ``Observed`` iterator made under the binding does; `nil` for nothing.
  ///
  /// A driver that cannot join a lockstep scope (a `@MainActor` model's) counts these reports to know that a
  /// change has reached `Observed` (``_ObservedActivity/read``) or travelled through it into the operator
  /// consuming it (``_ObservedActivity/waiting``). Read once per iterator.
  ///
  /// The function is wrapped in a struct because binding a task-local of function type crashes optimized
  /// builds of Swift 6.3 on Linux (in `swift_task_localValuePush`); bind it with
  /// `$observedActivity.withValue(report) { … }`, which wraps it.
  @TaskLocal public static var observedActivity: _ObservedActivityReport?
}

/// The function ``_OperatorTasks/observedActivity`` calls, as a value a task-local can hold.
@_spi(Testing)
public struct _ObservedActivityReport: Sendable {
  /// Called with each activity.
  public var report: @Sendable (_ObservedActivity) -> Void

  /// Wraps `report`.
  public init(_ report: @escaping @Sendable (_ObservedActivity) -> Void) {
    self.report = report
  }
}

@_spi(Testing)
extension TaskLocal where Value == _ObservedActivityReport? {
  /// Binds `report` as ``_OperatorTasks/observedActivity`` while `operation` runs.
  public func withValue<R>(
    _ report: @escaping @Sendable (_ObservedActivity) -> Void, operation: () throws -> R,
    file: String = #fileID, line: UInt = #line
  ) rethrows -> R {
    try withValue(_ObservedActivityReport(report), operation: operation, file: file, line: line)
  }
}

/// What an ``Observed`` iterator reports to ``_OperatorTasks/observedActivity``.
@_spi(Testing)
public enum _ObservedActivity: Sendable {
  /// It ran its closure: the value it will return was read.
  case read
  /// It started waiting for a change: its consumer took the previous value and asked for the next.
  case waiting
}

/// Starts a task for an operator's own work, on ``_OperatorTasks/executor`` when one is bound.
///
/// One call per iteration, never per element: operators start it on the first `next()`.
@usableFromInline
func _startOperatorTask(
  priority: TaskPriority? = nil,
  _ operation: sending @escaping () async -> Void
) -> Task<Void, Never> {
  // Without a bound executor, a plain task: one created with a `nil` preference still makes every hop
  // look up its preference record under the task's status lock.
  guard let executor = _OperatorTasks.executor else {
    return Task(priority: priority, operation: operation)
  }
  return Task(executorPreference: executor, priority: priority, operation: operation)
}

/// Starts a task for one element's work (a `mapLatest` transform), on ``_OperatorTasks/executor`` when one is
/// bound. Where the runtime can, the task starts immediately: it runs synchronously until its first suspension,
/// so work that finishes at once costs no executor hop.
@usableFromInline
func _startElementTask(_ operation: @escaping @Sendable () async -> Void) -> Task<Void, Never> {
  let executor = _OperatorTasks.executor
  #if !RIPPLE_TASK_START_FALLBACK  // see Package.swift: lets Linux test the path of OS versions before 26
  if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
    // As in `_startOperatorTask`: no preference record at all unless a test binds an executor.
    return executor.map { Task.immediate(executorPreference: $0, operation: operation) }
      ?? Task.immediate(operation: operation)
  }
  #endif
  return executor.map { Task(executorPreference: $0, operation: operation) } ?? Task(operation: operation)
}
