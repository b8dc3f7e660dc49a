import Observation
import Ripple

/// Design 3, restart on change, as SwiftUI's `.task(id: input)`: every change of the input cancels the
/// calculation in flight and starts one for the new input (<doc:TheFourDesigns#3-Restart-on-change-taskid-input>).
///
/// ```swift
/// let model = CalculatorModel(engine: .task(calculator: .live(delay: .seconds(1))))
/// model.b = 30
/// model.a = 12
/// // model.status: .computing, then .result(42) a second later
/// ```
///
/// An incomplete input cancels the calculation and starts none. Releasing the engine cancels its calculation, as
/// a view's disappearance cancels its `.task`.
@MainActor @Observable
public final class TaskEngine: CalculatorEngine {
  /// Both fields; setting a different value restarts the calculation.
  public var input = Input() {
    didSet {
      if input != oldValue { restart() }
    }
  }
  /// The latest calculation's outcome; see ``CalculatorEngine/outcome``.
  public private(set) var outcome: Outcome?

  @ObservationIgnored private let calculator: SlowCalculator
  @ObservationIgnored private let calculation = TaskSlot()

  /// Creates the engine; nothing runs until the input is complete.
  public init(calculator: SlowCalculator) {
    self.calculator = calculator
  }

  private func restart() {
    let input = self.input
    guard input.operands != nil else { return calculation.cancel() }
    calculation.run(id: input) { [weak self, calculator] in
      guard let outcome = await Outcome.calculate(input, with: calculator) else { return }
      self?.outcome = outcome
    }
  }
}

extension CalculatorEngine where Self == TaskEngine {
  /// A ``TaskEngine`` calculating with `calculator`.
  public static func task(calculator: SlowCalculator) -> TaskEngine {
    TaskEngine(calculator: calculator)
  }
}
