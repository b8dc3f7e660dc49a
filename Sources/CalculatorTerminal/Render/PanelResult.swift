import Calculator

/// What a panel's result line needs from its model: the status, and the last sum to keep showing while a newer
/// input computes.
struct PanelResult: Equatable, Sendable {
  var status: CalculatorStatus
  var last: Int?

  /// Creates a result view from a model's ``CalculatorModel/status`` and ``CalculatorModel/result``.
  init(status: CalculatorStatus, last: Int? = nil) {
    self.status = status
    self.last = last
  }
}
