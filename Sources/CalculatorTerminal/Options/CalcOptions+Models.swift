import Calculator

/// One result panel of `calc`: a design and the model it runs.
@MainActor
struct Panel {
  /// The design, never ``CalcOptions/Engine/all``.
  var design: CalcOptions.Engine
  var model: CalculatorModel
  /// What the panel's calculator has done; the form shows it with `--engine all`.
  var counts: CalculationCounts
}

extension CalcOptions {
  /// The panels the options ask for: one; for `shared`, two panels bound to one ``SharedCalculation``, as separate
  /// screens of an app would be; for `all`, one per design, in the order of ``Engine/designs``.
  ///
  /// Each design's calculator is `SlowCalculator.live(delay: delay(for: design), clock: clock)`, counted.
  ///
  /// - Parameter clock: The clock the calculators sleep on and the debounce waits on.
  @MainActor
  func makePanels(clock: some Clock<Duration>) -> [Panel] {
    func panels(for design: Engine, screens: Int) -> [Panel] {
      let counts = CalculationCounts()
      let calculator = counts.counting(.live(delay: delay(for: design), clock: clock))
      let engine: CalculatorEngine
      switch design {
      case .pipeline: engine = .pipeline
      case .debounce: engine = .debounce(interval: debounce)
      case .task: engine = .task
      case .shared, .all: engine = .shared(SharedCalculation(calculator: calculator))
      }
      return (0..<screens).map { _ in
        Panel(
          design: design, model: CalculatorModel(engine: engine, calculator: calculator, clock: clock), counts: counts)
      }
    }
    switch engine {
    case .all: return Engine.designs.flatMap { panels(for: $0, screens: 1) }
    case .shared: return panels(for: .shared, screens: 2)
    default: return panels(for: engine, screens: 1)
    }
  }
}
