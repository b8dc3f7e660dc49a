import Calculator
import RippleTesting

@testable import CalculatorTerminal

/// Runs a ``FormSession`` as the app does, but with a virtual terminal for output and the test as the event
/// loop: keys go in through ``type(_:)``, and ``waitForScreen(_:)`` handles the session's own events (model
/// changes, spinner ticks) from its one event stream until the screen shows what the test expects.
@MainActor
final class SessionHarness {
  let session: FormSession
  private let output: Output
  private let keys: AsyncStream<TerminalEvent>.Continuation
  private var events: (any AsyncIteratorProtocol<AppEvent, Never>)?

  final class Output {
    var terminal: VirtualTerminal
    init(_ terminal: VirtualTerminal) { self.terminal = terminal }
  }

  /// A session with one panel per model, or with `labels` the models side by side (`--engine all`).
  init(
    models: [CalculatorModel], labels: [String]? = nil, counts: [CalculationCounts?] = [], notes: [String?] = [],
    size: TerminalSize = .init(rows: 30, columns: 100), clock: TestClock = TestClock()
  ) {
    let (stream, continuation) = AsyncStream.makeStream(of: TerminalEvent.self)
    let output = Output(VirtualTerminal(rows: size.rows, columns: size.columns))
    self.output = output
    keys = continuation
    session = FormSession(
      models: models, labels: labels, counts: counts, notes: notes, title: "calc", size: size, colour: true,
      clock: clock,
      write: { output.terminal.apply($0) })
    events = session.events(keys: stream).makeAsyncIterator()
    // The first frame, as `run(keys:)` draws it.
    _ = session.handle(.modelsChanged)
  }

  /// The virtual terminal's text, trailing blank lines dropped.
  var screen: [String] {
    var text = output.terminal.text
    while text.last == "" { text.removeLast() }
    return text
  }

  var terminal: VirtualTerminal { output.terminal }

  /// Presses `keys`; returns the exit status if one of them quit.
  @discardableResult
  func type(_ keys: [Key]) -> Int32? {
    for key in keys {
      if let status = session.handle(.terminal(.key(key))) { return status }
    }
    return nil
  }

  /// Types `text` as characters.
  func type(_ text: String) {
    type(text.map(Key.character))
  }

  /// Handles the session's events until `condition` holds for the screen. Returns the events handled.
  @discardableResult
  func waitForScreen(_ condition: ([String]) -> Bool) async -> [AppEvent] {
    var handled: [AppEvent] = []
    while !condition(screen), let event = await nextEvent() {
      _ = session.handle(event)
      handled.append(event)
    }
    return handled
  }

  /// Sends `event` through the key stream, and handles the session's events up to and including it; returns
  /// the events handled before it.
  @discardableResult
  func roundTrip(_ event: TerminalEvent) async -> [AppEvent] {
    keys.yield(event)
    var handled: [AppEvent] = []
    while let next = await nextEvent() {
      _ = session.handle(next)
      if case .terminal = next { return handled }
      handled.append(next)
    }
    return handled
  }

  /// The session's next event. (The iterator is taken out: an actor-isolated property cannot be iterated in
  /// place.)
  private func nextEvent() async -> AppEvent? {
    guard var iterator = events else { return nil }
    events = nil
    defer { events = iterator }
    return await iterator.next(isolation: MainActor.shared)
  }

  /// Handles events until the next spinner tick, which it handles too.
  func waitForTick() async {
    while let event = await nextEvent() {
      _ = session.handle(event)
      if case .tick = event { return }
    }
  }
}
