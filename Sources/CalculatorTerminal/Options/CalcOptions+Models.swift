import Calculator

/// One result panel of `calc`: a design and the model it runs.
@MainActor
struct Panel {
  var design: CalculatorDesign
  var model: CalculatorModel
  /// What the panel's calculator has done; the form shows it with `--engine all`.
  var counts: CalculationCounts
}

extension CalcOptions {
  /// The panels the options ask for: one per design of ``engine``, in the order of its `designs`; for `shared`
  /// alone, two panels bound to one ``SharedCalculation``, as separate screens of an app would be.
  ///
  /// Each design's calculator is `SlowCalculator.live(delay: delay(for: design), clock: clock)`, counted.
  ///
  /// - Parameter clock: The clock the calculators sleep on and the debounce waits on.
  @MainActor
  func makePanels(clock: some Clock<Duration>) -> [Panel] {
    engine.designs.flatMap { design in
      let counts = CalculationCounts()
      let calculator = counts.counting(.live(delay: delay(for: design), clock: clock))
      let engine = design.makeEngine(calculator: calculator, debounce: debounce, clock: clock)
      let screens = self.engine == .design(.shared) ? 2 : 1
      return (0..<screens).map { _ in Panel(design: design, model: CalculatorModel(engine: engine), counts: counts) }
    }
  }
}
