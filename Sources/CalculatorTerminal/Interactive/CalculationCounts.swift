import Calculator
import InternalRippleUtilities
import Ripple

/// How many calculations a panel's calculator started and how many of them were cancelled: what `--engine all`
/// shows under each design, to compare how much work each design does for the same typing.
///
/// ```swift
/// let counts = CalculationCounts()
/// let calculator = counts.counting(.live(delay: .seconds(1)))
/// // after two edits while the first was computing, with the task design:
/// counts.started    // 2
/// counts.cancelled  // 1
/// ```
final class CalculationCounts: Sendable {
  private let state = _Mutex<(started: Int, cancelled: Int)>((0, 0))

  /// Calculations started.
  var started: Int { state.withLock { $0.started } }
  /// Calculations that ended cancelled, because a newer input or the model's end superseded them.
  var cancelled: Int { state.withLock { $0.cancelled } }

  /// `calculator`, counting each calculation it starts and each one that ends cancelled.
  func counting(_ calculator: SlowCalculator) -> SlowCalculator {
    SlowCalculator { [self] input in
      state.withLock { $0.started += 1 }
      do {
        let sum = try await calculator.result(for: input)
        if Task.isCancelled { state.withLock { $0.cancelled += 1 } }
        return sum
      } catch {
        if Task.isCancelled { state.withLock { $0.cancelled += 1 } }
        throw error
      }
    }
  }
}
