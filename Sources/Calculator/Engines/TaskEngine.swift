import Ripple

extension CalculatorModel {
  /// Design 3, restart on change (`.task(id: input)`): every change of the input cancels the calculation in
  /// flight and starts one for the new input. The slot belongs to the model, so the model's end cancels it, as a
  /// view's disappearance cancels its `.task`.
  func restartCalculation() {
    let input = self.input
    guard input.operands != nil else { return calculation.cancel() }
    calculation.run(id: input) { [weak self, calculator] in
      guard let outcome = await Outcome.calculate(input, with: calculator) else { return }
      self?.record(outcome)
    }
  }
}
