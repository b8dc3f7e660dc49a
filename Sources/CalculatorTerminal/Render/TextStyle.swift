/// The role of a piece of text on screen; ``ANSI/style(_:)`` gives each its colour or weight.
enum TextStyle: Hashable, Sendable {
  /// Ordinary text.
  case plain
  /// The title line.
  case title
  /// The focused field's marker, name and box.
  case focus
  /// A sum.
  case result
  /// The spinner and the computing note.
  case computing
  /// An error or a field's complaint.
  case error
  /// The key help and other secondary text.
  case hint
}
