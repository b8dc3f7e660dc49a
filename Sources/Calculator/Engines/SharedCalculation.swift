import Observation
import Ripple

/// Design 4, the shared service: one object owns the input and the result and manages its own task, so separate
/// parts of a UI, with different lifetimes, share one calculation.
///
/// Setting ``input`` cancels the calculation in flight and starts one for the new input. Give the same object to
/// several models (`CalculatorModel(engine: .shared(calculation), …)`): they all show its state.
///
/// ```swift
/// let calculation = SharedCalculation(calculator: .live(delay: .seconds(1)))
/// let screenA = CalculatorModel(engine: .shared(calculation), calculator: .instant)
/// let screenB = CalculatorModel(engine: .shared(calculation), calculator: .instant)
/// screenA.a = 12
/// screenA.b = 30
/// // a second later both screens show 42
/// ```
///
/// Releasing the object cancels its calculation.
@MainActor @Observable
public final class SharedCalculation {
  /// The fields; every change restarts the calculation.
  ///
  /// Setting an equal value does nothing; an incomplete input cancels the calculation in flight and starts none.
  public var input = Input() {
    didSet {
      if input != oldValue { restart() }
    }
  }

  /// The latest calculation's outcome; `nil` until the first calculation ends. Superseded calculations report
  /// nothing.
  public private(set) var outcome: Outcome?

  @ObservationIgnored private let calculator: SlowCalculator
  @ObservationIgnored private let task = TaskSlot()

  /// Creates a shared calculation using `calculator`; nothing runs until the input is complete.
  ///
  /// ```swift
  /// let calculation = SharedCalculation(calculator: .live(delay: .seconds(1)))
  /// ```
  public init(calculator: SlowCalculator) {
    self.calculator = calculator
  }

  /// Whether the current input's calculation is in flight: the input is complete and no outcome for it has
  /// come yet.
  ///
  /// It is derived from ``input`` and ``outcome``, so Observation tracks it and a view bound to it updates.
  public var isCalculating: Bool { CalculatorStatus.of(input, latest: outcome) == .computing }

  private func restart() {
    let input = self.input
    guard input.operands != nil else { return task.cancel() }
    task.run(id: input) { [weak self, calculator] in
      guard let outcome = await Outcome.calculate(input, with: calculator) else { return }
      self?.outcome = outcome
    }
  }
}
