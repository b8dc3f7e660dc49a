import Calculator

/// What a panel's result line needs from its model: the status, and the last sum to keep showing while a newer
/// input computes.
struct PanelResult: Equatable, Sendable {
  /// What a design's calculator did, and how many outcomes its line showed.
  struct Counts: Equatable, Sendable {
    var started: Int
    var cancelled: Int
    /// Done, but for an input the line no longer had: its outcome was never the line's.
    var superseded: Int
    var shown: Int
    /// Started and not yet cancelled, superseded or shown: what is still running, or whose outcome is on its way.
    var running: Int { started - cancelled - superseded - shown }
  }

  var status: CalculatorStatus
  var last: Int?
  /// The design's name, when several designs are shown side by side.
  var label: String?
  /// Shown under the result line, when given.
  var counts: Counts?
  /// Shown under the result line instead, when there are no counts: what the line is.
  var note: String?

  /// Creates a result view from a model's ``CalculatorModel/status`` and ``CalculatorModel/result``.
  init(status: CalculatorStatus, last: Int? = nil) {
    self.status = status
    self.last = last
  }
}
