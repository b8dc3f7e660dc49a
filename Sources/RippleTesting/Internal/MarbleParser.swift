/// Reads the marble-diagram notation (see ``MarbleDiagram``) into ticks of events.
struct _MarbleParser {
  private let characters: [Character]
  private var position = 0
  private var ticks: [[MarbleDiagram.Event]] = []
  /// Where the finish or failure was, once there was one.
  private var terminatorOffset: Int?

  init(_ text: String) {
    characters = Array(text)
  }

  /// Characters with a meaning of their own; a value that is one of them is written quoted.
  static func isReserved(_ character: Character) -> Bool {
    "-|^[]' ".contains(character)
  }

  consuming func parse() throws(MarbleDiagram.ParseError) -> [[MarbleDiagram.Event]] {
    while position < characters.count {
      let offset = position
      let character = characters[position]
      position += 1
      switch character {
      case " ":
        continue
      case "]":
        throw .init(reason: "] without [", offset: offset)
      case "[":
        try checkNothingTerminated(at: offset)
        var events: [MarbleDiagram.Event] = []
        while true {
          guard position < characters.count else { throw .init(reason: "unclosed group", offset: offset) }
          let inner = characters[position]
          let innerOffset = position
          position += 1
          if inner == "]" { break }
          if inner == " " { continue }
          if let last = events.last, last == .finish || last == .failure {
            throw .init(reason: "an event after the end", offset: innerOffset)
          }
          switch inner {
          case "[": throw .init(reason: "a group inside a group", offset: innerOffset)
          case "-": throw .init(reason: "a tick inside a group", offset: innerOffset)
          default: events.append(try event(for: inner, at: innerOffset))
          }
        }
        guard !events.isEmpty else { throw .init(reason: "empty group", offset: offset) }
        if events.contains(where: { $0 == .finish || $0 == .failure }) { terminatorOffset = offset }
        ticks.append(events)
      case "-":
        try checkNothingTerminated(at: offset)
        ticks.append([])
      default:
        try checkNothingTerminated(at: offset)
        let event = try event(for: character, at: offset)
        if event == .finish || event == .failure { terminatorOffset = offset }
        ticks.append([event])
      }
    }
    return ticks
  }

  /// The event a character starts; reads a quoted value to its closing quote.
  private mutating func event(
    for character: Character, at offset: Int
  ) throws(MarbleDiagram.ParseError) -> MarbleDiagram.Event {
    switch character {
    case "|": return .finish
    case "^": return .failure
    case "'":
      guard let end = characters[position...].firstIndex(of: "'") else {
        throw .init(reason: "unclosed quote", offset: offset)
      }
      let value = String(characters[position..<end])
      position = end + 1
      return .value(value)
    default: return .value(String(character))
    }
  }

  private func checkNothingTerminated(at offset: Int) throws(MarbleDiagram.ParseError) {
    if terminatorOffset != nil { throw .init(reason: "a tick after the end", offset: offset) }
  }
}
