import Synchronization

/// The change tracking of one ``Observed`` iterator: its state machine in a lock.
@usableFromInline
final class _ObservedStorage: Sendable {
  private let machine = _Mutex(_ObservedStateMachine())

  @usableFromInline
  init() {}

  /// Waits until a tracked property is about to change; `false` when the consuming task is cancelled.
  ///
  /// It runs on the caller's isolation, so waiting costs no executor hop.
  @usableFromInline
  func changed(isolation: isolated (any Actor)? = #isolation) async -> Bool {
    await withTaskCancellationHandler {
      await withUnsafeContinuation(isolation: isolation) { (continuation: UnsafeContinuation<Bool, Never>) in
        if let answer = machine.withLock({ $0.waitStarted(continuation) }) {
          continuation.resume(returning: answer)
        } else {
        }
      }
    } onCancel: {
      machine.withLock { $0.cancelled() }?.resume(returning: false)
    }
  }

  /// Reports the `willSet` of a tracked property, or the loss of the tracked objects.
  func changeObserved() {
    machine.withLock { $0.changeObserved() }?.resume(returning: true)
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
