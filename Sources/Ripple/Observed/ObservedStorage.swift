import Synchronization

/// The change tracking of one ``Observed`` iterator: its state machine in a lock.
///
/// It is also the task executor the consumer prefers while it waits on the main actor, so that the `willSet`
/// that wakes it can hand it straight to the main actor (see ``changed(isolation:)``).
@usableFromInline
final class _ObservedStorage: TaskExecutor, Sendable {
  private let machine = _Mutex(_ObservedStateMachine())
  /// Whether the next ``enqueue(_:)`` comes from a `willSet` (run the consumer here) or from a cancellation.
  /// Only the one resumer of a wait writes it, right before resuming, on the thread that then enqueues.
  private let resumesInline = Atomic<Bool>(false)

  @usableFromInline
  init() {}

  /// Waits until a tracked property is about to change; `false` when the consuming task is cancelled.
  ///
  /// It runs on the caller's isolation, so starting to wait costs no executor hop. A resumed continuation goes
  /// to the global executor first and hops to the consumer's actor from there: a thread woken for nothing but
  /// that hop. On the main actor the wait runs with this storage as the preferred task executor instead, so
  /// the resumption comes to ``enqueue(_:)``, which runs it on the `willSet`'s thread, where it at once
  /// enqueues itself on the main actor. On other actors that does not pay: entering and leaving the
  /// preference costs each wait two trips through the actor's queue, and a default actor's own scheduling is
  /// a global-executor job anyway.
  @usableFromInline
  func changed(isolation: isolated (any Actor)? = #isolation) async -> Bool {
    await withTaskCancellationHandler {
      #if !RIPPLE_TASK_START_FALLBACK  // see Package.swift: lets Linux test the path of OS versions before 26
      // Runtimes before OS 26's (the one with `Task.immediate`) leave no running task behind a job run inside it.
      if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *), let isolation,
        isolation === MainActor.shared
      {
        return await withTaskExecutorPreference(self, isolation: isolation) {
          await wait(isolation: isolation)
        }
      }
      #endif
      return await wait(isolation: isolation)
    } onCancel: {
      if let continuation = machine.withLock({ $0.cancelled() }) {
        // The canceller holds the task's status lock: the consumer must not run on its thread.
        resumesInline.store(false, ordering: .relaxed)
        continuation.resume(returning: false)
      }
    }
  }

  private func wait(isolation: isolated (any Actor)?) async -> Bool {
    await withUnsafeContinuation(isolation: isolation) { (continuation: UnsafeContinuation<Bool, Never>) in
      if let answer = machine.withLock({ $0.waitStarted(continuation) }) {
        continuation.resume(returning: answer)
      }
    }
  }

  /// Reports the `willSet` of a tracked property, or the loss of the tracked objects.
  func changeObserved() {
    if let continuation = machine.withLock({ $0.changeObserved() }) {
      resumesInline.store(true, ordering: .relaxed)
      continuation.resume(returning: true)
    }
  }

  /// Takes the consumer resumed from a wait on the main actor.
  ///
  /// From a `willSet` it runs the consumer here, on the mutating thread: all it does is switch to the main
  /// actor, which a job run by a task executor may not take, so it enqueues itself there and this returns.
  /// A cancellation handler runs while the canceller holds the consumer's status lock, so from there the same
  /// run happens in a task of its own (a rare path, and one that stays on the runtime's global executor, where
  /// test schedulers that hook it see it).
  @usableFromInline
  func enqueue(_ job: consuming ExecutorJob) {
    if resumesInline.load(ordering: .relaxed) {
      job.runSynchronously(on: asUnownedTaskExecutor())
    } else {
      let job = UnownedJob(job)
      Task { job.runSynchronously(on: asUnownedTaskExecutor()) }
    }
  }
}

/// One emission's registration with the observed objects' registrars: the `onChange` target.
///
/// It tells its iterator about the first `willSet`, and — when the registrars release it without a change,
/// because the observed objects were deallocated — about that too, so an `untilFinished` closure with a
/// weak capture gets to run again and finish.
@usableFromInline
final class _ObservationToken: Sendable {
  private enum Stage: UInt8 {
    /// The closure runs; nothing it read is tracked yet.
    case reading
    /// The closure read something observable, and tracking is being installed with those objects' registrars.
    case installing
    /// Registrars hold the token; a release without firing means the observed objects are gone.
    case armed
    /// The change (or the loss of the observed objects) was reported.
    case fired
  }

  private let storage: _ObservedStorage
  private let stage = Atomic<UInt8>(Stage.reading.rawValue)

  @usableFromInline
  init(storage: _ObservedStorage) {
    self.storage = storage
  }

  /// The `onChange` closure to install; asked for only when the closure read something observable.
  @usableFromInline
  func onChange() -> @Sendable () -> Void {
    stage.store(Stage.installing.rawValue, ordering: .relaxed)
    return { [self] in fire() }
  }

  /// Whether the closure read something observable, so that tracking was installed.
  @usableFromInline
  var isTracking: Bool {
    stage.load(ordering: .relaxed) != Stage.reading.rawValue
  }

  /// A tracked property is about to change.
  func fire() {
    stage.store(Stage.fired.rawValue, ordering: .relaxed)
    storage.changeObserved()
  }

  /// Tracking is installed and at least one registrar holds the token.
  @usableFromInline
  func arm() {
    _ = stage.compareExchange(
      expected: Stage.installing.rawValue, desired: Stage.armed.rawValue, ordering: .relaxed)
  }

  deinit {
    if stage.load(ordering: .relaxed) == Stage.armed.rawValue {
      storage.changeObserved()
    }
  }
}
