@testable import CalculatorTerminal

/// A minimal terminal emulator for tests: applies the escape sequences `calc` writes (``ANSI``) to a grid of
/// characters, so a test can check that a screen diff really produces the frame it was given.
///
/// It understands cursor moves, line and screen erasure, cursor visibility and the alternate screen; styles are
/// recorded as skipped. Anything else fails the test through `unknown`.
struct VirtualTerminal {
  private(set) var rows: [[Character]]
  private(set) var row = 0
  private(set) var column = 0
  private(set) var cursorVisible = true
  private(set) var alternateScreen = false
  /// Sequences it did not understand.
  private(set) var unknown: [String] = []
  let width: Int

  init(rows: Int, columns: Int) {
    width = columns
    self.rows = Array(repeating: Array(repeating: " ", count: columns), count: rows)
  }

  /// The screen's text, trailing spaces removed.
  var text: [String] {
    rows.map { line in
      var line = line
      while line.last == " " { line.removeLast() }
      return String(line)
    }
  }

  mutating func apply(_ output: String) {
    var characters = output[...]
    while let character = characters.popFirst() {
      if character == "\u{1b}" {
        guard characters.popFirst() == "[" else {
          unknown.append("ESC")
          continue
        }
        let body = characters.prefix { !($0.isLetter) }
        characters = characters.dropFirst(body.count)
        guard let final = characters.popFirst() else { return unknown.append(String(body)) }
        sequence(String(body), final)
      } else {
        put(character)
      }
    }
  }

  private mutating func put(_ character: Character) {
    guard row < rows.count else { return }
    if column < width { rows[row][column] = character }
    column += 1
  }

  private mutating func sequence(_ parameters: String, _ final: Character) {
    switch (parameters, final) {
    case (_, "H"):
      let numbers = parameters.split(separator: ";").map { Int($0) ?? 1 }
      row = (numbers.first ?? 1) - 1
      column = (numbers.count > 1 ? numbers[1] : 1) - 1
    case ("", "K"):
      guard row < rows.count else { return }
      for index in min(column, width)..<width { rows[row][index] = " " }
    case ("2", "K"):
      guard row < rows.count else { return }
      rows[row] = Array(repeating: " ", count: width)
    case ("2", "J"):
      rows = rows.map { _ in Array(repeating: " ", count: width) }
    case ("?25", "l"): cursorVisible = false
    case ("?25", "h"): cursorVisible = true
    case ("?1049", "h"): alternateScreen = true
    case ("?1049", "l"): alternateScreen = false
    case (_, "m"): break
    default: unknown.append(parameters + String(final))
    }
  }
}

extension VirtualTerminal {
  /// What a terminal of `rows` × `columns` shows after a ``Screen`` draws `frame` on it: the bytes `calc` would
  /// write, read back, trailing blank lines dropped.
  static func showing(_ frame: Frame, rows: Int = 40, columns: Int = 100) -> [String] {
    var screen = Screen(size: TerminalSize(rows: rows, columns: columns), colour: true)
    var terminal = VirtualTerminal(rows: rows, columns: columns)
    terminal.apply(screen.draw(frame))
    var text = terminal.text
    while text.last == "" { text.removeLast() }
    return text
  }
}
