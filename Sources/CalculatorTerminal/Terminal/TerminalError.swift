/// Why the terminal could not be set up for the interactive form.
enum TerminalError: Error, Equatable, CustomStringConvertible {
  /// The descriptor is not a terminal, or its settings could not be read or changed.
  case notATerminal(Int32)
  /// Raw mode is already on: the scoped helper does not nest.
  case alreadyRaw
  /// A system call failed; names it and `errno`.
  case systemCall(String, Int32)

  /// The reason in words.
  var description: String {
    switch self {
    case .notATerminal(let descriptor): "descriptor \(descriptor) is not a terminal"
    case .alreadyRaw: "the terminal is already in raw mode"
    case .systemCall(let name, let code): "\(name) failed (errno \(code))"
    }
  }
}
