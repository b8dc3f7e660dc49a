import Calculator

/// One screen of a design, as an app would show it: the design, the model the screen shows, and what the design's
/// calculator has done. (Not to be confused with ``FormState/Panel``, the fields of one panel of the form.)
@MainActor
struct DesignScreen {
  var design: CalculatorDesign
  var model: CalculatorModel
  /// What the panel's calculator has done; the form shows it with `--engine all`.
  var counts: CalculationCounts
}

extension CalcOptions {
  /// The screens the options ask for: one per design of ``engine``, in the order of its `designs`; for `shared`
  /// alone, two screens bound to one ``SharedCalculation``, as separate screens of an app would be.
  ///
  /// Each design's calculator is `SlowCalculator.live(delay: delay(for: design), clock: clock)`, counted.
  ///
  /// - Parameter clock: The clock the calculators sleep on and the debounce waits on.
  @MainActor
  func makeScreens(clock: some Clock<Duration>) -> [DesignScreen] {
    engine.designs.flatMap { design in
      let counts = CalculationCounts()
      let calculator = counts.counting(.live(delay: delay(for: design), clock: clock))
      let engine = design.makeEngine(calculator: calculator, debounce: debounce, clock: clock)
      let screens = self.engine == .design(.shared) ? 2 : 1
      return (0..<screens).map { _ in
        DesignScreen(design: design, model: CalculatorModel(engine: engine), counts: counts)
      }
    }
  }
}
