/// Everything the interactive form's event loop reacts to, merged into one stream (``FormSession/events(keys:)``).
enum AppEvent: Sendable {
  /// A key, a resize, or the end of input.
  case terminal(TerminalEvent)
  /// Something a result line shows changed in a model or its counts; the session reads them as they are now.
  case modelsChanged
  /// The spinner's timer fired; it only runs while a calculation is in flight.
  case tick
}
