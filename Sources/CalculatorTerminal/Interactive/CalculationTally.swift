import Calculator

/// Where one design's calculations went: each that ended is cancelled, superseded (done, but for an input the
/// model no longer had, so its outcome was never shown), or shown (done, and the model's outcome is its); the
/// rest still run, or their outcome is on its way. The counts add up whatever the typing speed:
/// `started = cancelled + superseded + shown + running`.
///
/// ```swift
/// var tally = CalculationTally()
/// tally.account(counts.takeEnded(), model: model)  // whenever the model is shown
/// tally.counts(started: counts.started)             // 2 started = 1 cancelled + 0 superseded + 1 shown + 0 running
/// ```
///
/// The form and `--engine all` scripts keep one per design, and sort what ended each time they show the model,
/// on the main actor, where the model is.
struct CalculationTally: Sendable {
  private(set) var cancelled = 0
  private(set) var superseded = 0
  private(set) var shown = 0
  /// Done, with an outcome the model has not reported yet: counted as running until it does, or until the
  /// input moves on.
  private var pending: [Input] = []

  /// Sorts `ended`, the calculations that ended since the last call, and those still pending, against what
  /// `model` holds now.
  @MainActor
  mutating func account(_ ended: [CalculationCounts.Ended], model: CalculatorModel) {
    for calculation in ended {
      if calculation.cancelled { cancelled += 1 } else { pending.append(calculation.input) }
    }
    var superseded = 0
    var shown = 0
    pending.removeAll { input in
      if input != model.input {
        superseded += 1
      } else if model.outcome?.input == input {
        shown += 1
      } else {
        return false
      }
      return true
    }
    self.superseded += superseded
    self.shown += shown
  }

  /// The counts, given how many calculations started.
  func counts(started: Int) -> PanelResult.Counts {
    PanelResult.Counts(started: started, cancelled: cancelled, superseded: superseded, shown: shown)
  }
}
