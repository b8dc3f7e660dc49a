import Calculator
import InternalRippleUtilities
import Observation
import Ripple

/// What a design's calculator did: how many calculations it started, and each one that ended, with its input
/// and whether it was cancelled. `--engine all` shows it under each design, to compare how much work each
/// design does for the same typing; ``FormSession`` sorts the ended ones into cancelled, superseded and shown.
///
/// ```swift
/// let counts = CalculationCounts()
/// let calculator = counts.counting(.live(delay: .seconds(1)))
/// // after two edits while the first was computing, with the task design:
/// counts.started        // 2
/// counts.takeEnded()    // [Ended(input: 1 + 2, cancelled: true), Ended(input: 1 + 20, cancelled: false)]
/// ```
///
/// It is observable (``started`` and ``endedCount``), so the form redraws when a calculation starts or ends; a
/// wrapper around the calculator in `calc`, not a counter in the model.
final class CalculationCounts: Sendable, Observable {
  /// A calculation that ended.
  struct Ended: Equatable, Sendable {
    /// What it calculated.
    var input: Input
    /// Whether it ended cancelled, because a newer input or the model's end superseded it.
    var cancelled: Bool
  }

  private struct State {
    var started = 0
    var endedCount = 0
    var ended: [Ended] = []
  }

  private let state = _Mutex(State())
  private let registrar = ObservationRegistrar()

  /// Calculations started.
  var started: Int {
    registrar.access(self, keyPath: \.started)
    return state.withLock { $0.started }
  }

  /// Calculations ended, cancelled or not.
  var endedCount: Int {
    registrar.access(self, keyPath: \.endedCount)
    return state.withLock { $0.endedCount }
  }

  /// The calculations that ended since the last call, in the order they ended.
  func takeEnded() -> [Ended] {
    state.withLock { state in
      defer { state.ended = [] }
      return state.ended
    }
  }

  /// `calculator`, counting each calculation it starts and each one that ends.
  func counting(_ calculator: SlowCalculator) -> SlowCalculator {
    SlowCalculator { [self] input in
      registrar.withMutation(of: self, keyPath: \.started) { state.withLock { $0.started += 1 } }
      defer {
        let ended = Ended(input: input, cancelled: Task.isCancelled)
        registrar.withMutation(of: self, keyPath: \.endedCount) {
          state.withLock { state in
            state.endedCount += 1
            state.ended.append(ended)
          }
        }
      }
      return try await calculator.result(for: input)
    }
  }
}
