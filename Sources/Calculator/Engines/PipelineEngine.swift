import Ripple

extension CalculatorModel {
  /// Design 1, the Observation pipeline: watch `a` and `b`, drop empty fields and repeats, pair them, calculate
  /// the latest pair.
  func startPipeline() {
    engineTask.run(id: "pipeline") { [weak self, calculator] in
      let a = Observed.untilFinished { [weak self] in self.map { .next($0.a) } ?? .finish }
        .compacted().removeDuplicates()
      let b = Observed.untilFinished { [weak self] in self.map { .next($0.b) } ?? .finish }
        .compacted().removeDuplicates()
      let outcomes = combineLatest(a, b)
        .map { @Sendable a, b in Input(a: a, b: b) }
        .mapLatest { input in await Outcome.calculate(input, with: calculator) }
      for await case let outcome? in outcomes {
        self?.record(outcome)
      }
    }
  }
}
