/// A timeline of values, finish and failure, one column per tick, written in the marble-diagram notation.
///
/// Use it to read or write the diagrams that ``marbles(_:tick:_:)`` takes and returns, and to compare an
/// actual diagram with the expected one column by column (``difference(from:)``). The notation is the one of
/// swift-async-algorithms:
///
/// | text | meaning |
/// |---|---|
/// | `-` | a tick with nothing |
/// | `a` | a tick with the value `"a"` (any other single character likewise) |
/// | `'ab'` | a tick with a value of several characters, `"ab"` |
/// | `[ab]` | one tick with several events, in order: `"a"`, then `"b"` |
/// | `\|` | finish |
/// | `^` | failure (``MarbleError`` in an input) |
/// | space | nothing: spaces are ignored, so columns can be aligned |
///
/// Nothing may follow a finish or a failure.
///
/// ```swift
/// let diagram: MarbleDiagram = "a-[bc]|"
/// print(diagram.ticks.count)  // 4
/// print(diagram.ticks[2] == [.value("b"), .value("c")])  // true
/// print(diagram)              // a-[bc]|
/// ```
///
/// Two diagrams are equal when they have the same events at the same ticks, however they are spaced.
public struct MarbleDiagram: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
  /// Something that happens at a tick.
  public enum Event: Hashable, Sendable {
    /// A value.
    case value(String)
    /// The end of the sequence.
    case finish
    /// The sequence throws.
    case failure
  }

  /// The events of each tick, in order; an empty array for a tick with nothing (`-`).
  public var ticks: [[Event]]

  /// A diagram with the given events per tick.
  public init(ticks: [[Event]]) {
    self.ticks = ticks
  }

  /// Parses a diagram, such as `"ab-[cd]|"`; throws ``ParseError`` for text that is not one.
  public init(parsing text: String) throws(ParseError) {
    ticks = try _MarbleParser(text).parse()
  }

  /// Parses a diagram written as a literal; an invalid literal is a programming error and traps.
  public init(stringLiteral text: String) {
    do {
      try self.init(parsing: text)
    } catch {
      preconditionFailure("invalid marble diagram \"\(text)\": \(error)")
    }
  }

  /// Whether the diagram ends with a finish or a failure.
  public var isTerminated: Bool {
    ticks.last?.contains { $0 == .finish || $0 == .failure } ?? false
  }

  /// The diagram in canonical form: no spaces, one column per tick.
  public var description: String {
    ticks.map(Self.render).joined()
  }

  /// A readable account of where `self` (the actual diagram) departs from `expected`; `nil` when they are
  /// equal.
  ///
  /// Use it in an expectation to get an aligned report when a timing test fails:
  ///
  /// ```swift
  /// let actual: MarbleDiagram = "--a-|"
  /// #expect(actual.difference(from: "--a|") == nil)
  /// // expected: --a|
  /// // actual:   --a-|
  /// //              ^ tick 3: expected |, got -
  /// ```
  ///
  /// Columns are padded with spaces so that the ticks of both diagrams line up.
  public func difference(from expected: MarbleDiagram) -> String? {
    guard self != expected else { return nil }
    var expectedLine = ""
    var actualLine = ""
    var markerLine = ""
    var firstMismatch: (tick: Int, expected: String, actual: String)?
    for tick in 0..<max(ticks.count, expected.ticks.count) {
      let wanted = tick < expected.ticks.count ? Self.render(expected.ticks[tick]) : ""
      let got = tick < ticks.count ? Self.render(ticks[tick]) : ""
      let width = max(wanted.count, got.count)
      if firstMismatch == nil, wanted != got {
        firstMismatch = (tick, wanted.isEmpty ? "the end" : wanted, got.isEmpty ? "the end" : got)
        markerLine = String(repeating: " ", count: expectedLine.count) + "^"
      }
      expectedLine += wanted.padding(to: width)
      actualLine += got.padding(to: width)
    }
    let mismatch = firstMismatch.map { " tick \($0.tick): expected \($0.expected), got \($0.actual)" } ?? ""
    return """
      expected: \(expectedLine.trimmingTrailingSpaces)
      actual:   \(actualLine.trimmingTrailingSpaces)
                \(markerLine)\(mismatch)
      """
  }

  /// The text of one tick's column.
  static func render(_ events: [Event]) -> String {
    switch events.count {
    case 0: "-"
    case 1: render(events[0])
    default: "[" + events.map(render).joined() + "]"
    }
  }

  private static func render(_ event: Event) -> String {
    switch event {
    case .finish: "|"
    case .failure: "^"
    case .value(let value):
      if value.count == 1, let character = value.first, !_MarbleParser.isReserved(character) {
        value
      } else {
        "'\(value)'"
      }
    }
  }
}

extension MarbleDiagram {
  /// Why a text is not a marble diagram, and where.
  ///
  /// ```swift
  /// do {
  ///   _ = try MarbleDiagram(parsing: "ab[c")
  /// } catch {
  ///   print(error)  // unclosed group at character 2
  /// }
  /// ```
  public struct ParseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong.
    public var reason: String
    /// The position of the offending character, counted in characters from zero.
    public var offset: Int

    /// An error at `offset`.
    public init(reason: String, offset: Int) {
      self.reason = reason
      self.offset = offset
    }

    /// The reason and the position, for example `unclosed group at character 2`.
    public var description: String {
      "\(reason) at character \(offset)"
    }
  }
}

extension String {
  fileprivate func padding(to width: Int) -> String {
    self + String(repeating: " ", count: Swift.max(0, width - count))
  }

  fileprivate var trimmingTrailingSpaces: String {
    String(self[..<(lastIndex { $0 != " " }.map(index(after:)) ?? startIndex)])
  }
}
