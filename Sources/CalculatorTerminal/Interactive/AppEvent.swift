import Calculator

/// Everything the interactive form's event loop reacts to, merged into one stream.
enum AppEvent: Sendable {
  /// A key, a resize, or the end of input.
  case terminal(TerminalEvent)
  /// Model `model` changed: its input, and what its result line shows, as its `Observed` delivered them.
  case modelChanged(model: Int, input: Input, result: PanelResult)
  /// The spinner's timer fired; it only runs while a calculation is in flight.
  case tick
}
