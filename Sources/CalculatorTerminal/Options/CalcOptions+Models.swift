import Calculator

extension CalcOptions {
  /// The models the options ask for: one, or for `shared` two panels bound to one ``SharedCalculation``, as
  /// separate screens of an app would be.
  ///
  /// - Parameters:
  ///   - calculator: The slow service (`SlowCalculator.live(delay: effectiveDelay, clock:)` in `calc`).
  ///   - clock: The clock the debounce waits on.
  @MainActor
  func makeModels(calculator: SlowCalculator, clock: some Clock<Duration>) -> [CalculatorModel] {
    switch engine {
    case .pipeline: return [CalculatorModel(engine: .pipeline, calculator: calculator, clock: clock)]
    case .debounce:
      return [CalculatorModel(engine: .debounce(interval: debounce), calculator: calculator, clock: clock)]
    case .task: return [CalculatorModel(engine: .task, calculator: calculator, clock: clock)]
    case .shared:
      let calculation = SharedCalculation(calculator: calculator)
      return (0..<2).map { _ in CalculatorModel(engine: .shared(calculation), calculator: calculator, clock: clock) }
    }
  }
}
