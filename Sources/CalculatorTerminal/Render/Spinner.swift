/// The frames of the spinner shown while a calculation is in flight.
///
/// ```swift
/// Spinner.frame(0)   // "⠋"
/// Spinner.frame(11)  // "⠙"
/// ```
enum Spinner {
  /// One full turn.
  static let frames: [Character] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
  /// How long each frame stays: 12.5 frames a second, smooth without costing much.
  static let interval = Duration.milliseconds(80)

  /// The frame for timer tick number `tick`.
  static func frame(_ tick: Int) -> Character {
    frames[((tick % frames.count) + frames.count) % frames.count]
  }
}
