/// Everything the interactive form's event loop reacts to, merged into one stream.
enum AppEvent: Sendable {
  /// A key, a resize, or the end of input.
  case terminal(TerminalEvent)
  /// A model's input, status or result changed.
  case modelChanged
  /// The spinner's timer fired; it only runs while a calculation is in flight.
  case tick
}
