/// Starts a task for an operator's own work, such as consuming a base sequence.
///
/// One call per iteration, never per element: operators start it on the first `next()`. A plain task, with no
/// executor preference: one created with a `nil` preference still makes every hop look up its preference
/// record under the task's status lock.
@usableFromInline
func _startOperatorTask(
  priority: TaskPriority? = nil,
  _ operation: sending @escaping () async -> Void
) -> Task<Void, Never> {
  Task(priority: priority, operation: operation)
}

/// Starts a task for one element's work (a `mapLatest` transform). Where the runtime can, the task starts
/// immediately: it runs synchronously until its first suspension, so work that finishes at once costs no
/// executor hop.
@usableFromInline
func _startElementTask(_ operation: @escaping @Sendable () async -> Void) -> Task<Void, Never> {
  #if !RIPPLE_TASK_START_FALLBACK  // see Package.swift: lets Linux test the path of OS versions before 26
  if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
    return Task.immediate(operation: operation)
  }
  #endif
  return Task(operation: operation)
}
