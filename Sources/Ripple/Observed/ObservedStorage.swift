import InternalRippleUtilities
import Synchronization

/// The change tracking of one ``Observed`` iterator: its state machine in a lock.
@usableFromInline
final class _ObservedStorage: Sendable {
  private let machine = _Mutex(_ObservedStateMachine<UnsafeContinuation<Bool, Never>>())

  @usableFromInline
  init() {}

  /// Waits until the tracking of the latest emission reports; `false` when the consuming task is cancelled.
  ///
  /// It runs on the caller's isolation, so waiting costs no executor hop.
  @usableFromInline
  func changed(isolation: isolated (any Actor)? = #isolation) async -> Bool {
    await withTaskCancellationHandler {
      await withUnsafeContinuation(isolation: isolation) { (continuation: UnsafeContinuation<Bool, Never>) in
        run(machine.withLock { $0.waitStarted(continuation) })
      }
    } onCancel: {
      run(machine.withLock { $0.cancelled() })
    }
  }

  /// The closure is about to run under fresh tracking; returns the number that tracking reports with.
  @usableFromInline
  func emissionStarted() -> UInt64 {
    machine.withLock { $0.emissionStarted() }
  }

  /// The tracking installed by emission `number` reports a `willSet`, or the loss of the tracked objects.
  func changeObserved(emission number: UInt64) {
    run(machine.withLock { $0.changeObserved(emission: number) })
  }

  private func run(_ action: _ObservedStateMachine<UnsafeContinuation<Bool, Never>>.Action) {
    switch action {
    case .none: break
    case .resume(let waiter, let answer): waiter.resume(returning: answer)
    }
  }
}

/// One installation of tracking with the registrars of the objects a run of the closure read: the `onChange`
/// target, made only when the run read something observable.
///
/// It reports the first `willSet` to its iterator, and — when the registrars release it without one, because the
/// observed objects were deallocated — that too, so an `untilFinished` closure with a weak capture gets to run
/// again and finish.
@usableFromInline
final class _ObservationToken: Sendable {
  private let storage: _ObservedStorage
  private let emission: UInt64
  private let fired = Atomic(false)

  @usableFromInline
  init(storage: _ObservedStorage, emission: UInt64) {
    self.storage = storage
    self.emission = emission
  }

  /// The `onChange` closure to install.
  @usableFromInline
  var onChange: @Sendable () -> Void {
    { [self] in
      fired.store(true, ordering: .relaxed)
      storage.changeObserved(emission: emission)
    }
  }

  deinit {
    // Registrars release their tracking when it fires, and otherwise only when their objects are deallocated.
    if !fired.load(ordering: .relaxed) {
      storage.changeObserved(emission: emission)
    }
  }
}
