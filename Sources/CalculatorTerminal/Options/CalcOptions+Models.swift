import Calculator

/// One screen of a design, as an app would show it: the design, the model the screen shows, and what the design's
/// calculator has done. (Not to be confused with ``FormState/Panel``, the fields of one panel of the form.)
@MainActor
struct DesignScreen {
  var design: CalculatorDesign
  var model: CalculatorModel
  /// What the design's calculator has done; the form shows it with `--engine all`.
  var counts: CalculationCounts
  /// Which of the design's screens this is, from 0: a shared calculation has two.
  var screen = 0

  /// The design's name, and the screen's number after the first: `task`, `shared`, `shared 2`.
  var label: String { screen == 0 ? design.rawValue : "\(design.rawValue) \(screen + 1)" }
  /// The counts the screen shows: the first screen's; a later screen of the same calculation shows none, as it
  /// starts nothing of its own.
  var shownCounts: CalculationCounts? { screen == 0 ? counts : nil }
  /// What a later screen shows instead of counts.
  var note: String? { screen == 0 ? nil : "another screen on \(design.rawValue)'s one calculation: nothing more runs" }
}

extension CalcOptions {
  /// The screens the options ask for: one per design of ``engine``, in the order of its `designs`, and for
  /// `shared` two, bound to one ``SharedCalculation``, as separate screens of an app would be.
  ///
  /// Each design's calculator is `SlowCalculator.live(delay: delay(for: design), clock: clock)`, counted.
  ///
  /// - Parameters:
  ///   - clock: The clock the calculators sleep on and the debounce waits on.
  ///   - onStart: Called on the main actor as each calculation starts, before it runs, with its design.
  @MainActor
  func makeScreens(
    clock: some Clock<Duration>, onStart: (@MainActor @Sendable (CalculatorDesign) -> Void)? = nil
  ) -> [DesignScreen] {
    engine.designs.flatMap { design in
      let counts = CalculationCounts()
      var calculator = counts.counting(.live(delay: delay(for: design), clock: clock))
      if let onStart {
        let counted = calculator
        calculator = SlowCalculator { input in
          await onStart(design)
          return try await counted.result(for: input)
        }
      }
      let engine = design.makeEngine(calculator: calculator, debounce: debounce, clock: clock)
      let screens = design == .shared ? 2 : 1
      return (0..<screens).map {
        DesignScreen(design: design, model: CalculatorModel(engine: engine), counts: counts, screen: $0)
      }
    }
  }
}
