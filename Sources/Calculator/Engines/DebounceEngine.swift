import Ripple

extension CalculatorModel {
  /// Design 2, the Combine original: wait until the input has been still for `interval`, then calculate it.
  func startDebounce(interval: Duration) {
    engineTask.run(id: "debounce") { [weak self, calculator, clock] in
      let inputs = Observed.untilFinished { [weak self] in self.map { .next($0.input) } ?? .finish }
      let outcomes =
        inputs
        .debounce(for: interval, clock: clock)
        .mapLatest { [weak self] input in
          // The transform runs on the main actor, where it was written; a superseded one reports nothing.
          if !Task.isCancelled { self?.debounceSettled(input) }
          return await Outcome.calculate(input, with: calculator)
        }
      for await case let outcome? in outcomes {
        self?.record(outcome)
      }
    }
  }
}
