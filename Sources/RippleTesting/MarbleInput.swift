/// An input of a marble test: the values of a diagram, each delivered at its tick of a ``TestClock``.
///
/// ``marbles(_:tick:_:)`` hands one to the pipeline for each input diagram; you can also make one yourself
/// for a test in a ``TestClock/lockstep(isolation:_:)`` scope.
///
/// ```swift
/// let clock = TestClock()
/// let input = MarbleInput("a-b|", clock: clock)
/// // At 0 s it produces "a", at 2 s "b", at 3 s it finishes.
/// ```
///
/// Each `next()` sleeps on the clock until the tick of the next event, so a value that is asked for late
/// comes at once. It finishes at `|`, throws ``MarbleError`` at `^`, and after its last event — when the
/// diagram has neither — waits without end, which the clock does not count as work left to do. A cancelled
/// `next()` returns `nil`.
public struct MarbleInput: AsyncSequence, Sendable {
  /// A value of the diagram.
  public typealias Element = String
  /// What `^` throws.
  public typealias Failure = MarbleError

  private let events: [(tick: Int, event: MarbleDiagram.Event)]
  private let clock: TestClock
  private let tick: Duration

  /// The input that plays `diagram` on `clock`, one tick lasting `tick`, starting at the clock's zero.
  public init(_ diagram: MarbleDiagram, clock: TestClock, tick: Duration = .seconds(1)) {
    events = diagram.ticks.enumerated().flatMap { tick, events in events.map { (tick, $0) } }
    self.clock = clock
    self.tick = tick
  }

  /// An iterator over the diagram's values.
  public func makeAsyncIterator() -> Iterator {
    Iterator(input: self)
  }

  /// Produces the values of a ``MarbleInput`` at their ticks.
  public struct Iterator: AsyncIteratorProtocol {
    private let input: MarbleInput
    private var index = 0

    fileprivate init(input: MarbleInput) {
      self.input = input
    }

    /// Waits for the tick of the next event: returns its value, `nil` at a finish, throws at a failure.
    public mutating func next(
      isolation actor: isolated (any Actor)? = #isolation
    ) async throws(MarbleError)
      -> String?
    {
      guard index < input.events.count else {
        if index == input.events.count {
          // An open end: nothing more ever comes, until cancellation.
          try? await input.clock.sleepUntilCancelled()
          index = .max
        }
        return nil
      }
      let (tick, event) = input.events[index]
      do {
        try await input.clock.sleep(until: TestClock.Instant(offset: input.tick * tick))
      } catch {
        index = .max
        return nil
      }
      index += 1
      switch event {
      case .value(let value):
        return value
      case .finish:
        index = .max
        return nil
      case .failure:
        index = .max
        throw MarbleError()
      }
    }

    /// The nonisolated form of ``next(isolation:)``.
    public mutating func next() async throws(MarbleError) -> String? {
      try await next(isolation: nil)
    }
  }
}

@available(*, unavailable)
extension MarbleInput.Iterator: Sendable {}

/// The error a ``MarbleInput`` throws at `^`.
///
/// ```swift
/// let error = MarbleError()
/// print(error == MarbleError())  // true
/// ```
public struct MarbleError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The failure of a marble diagram.
  public init() {}

  /// `marble failure (^)`.
  public var description: String {
    "marble failure (^)"
  }
}
