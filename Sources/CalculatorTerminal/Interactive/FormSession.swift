import Calculator
import Ripple

/// The interactive form's controller: binds the view state (``FormState``) to the models, and draws each
/// change on the ``Screen``.
///
/// It never touches the terminal itself: events come in through ``handle(_:)``, text goes out through `write`,
/// and the events it produces — model changes, spinner ticks — go out through `post`, to come back in through
/// the one event loop (``InteractiveApp``) or a test.
///
/// ```swift
/// let session = FormSession(models: [model], title: "calc", size: size, colour: true, clock: ContinuousClock(),
///                           post: { continuation.yield($0) }, write: { StandardStream.output.write($0) })
/// session.start()
/// for await event in events {
///   if let status = session.handle(event) { return status }
/// }
/// ```
///
/// An edit sets the edited panel's model; every model's numbers are then copied back into the form, so with a
/// shared calculation an edit in one panel shows in the other. The spinner's timer runs only while some model
/// is computing. ``stop()`` ends the observation and the timer.
@MainActor
final class FormSession {
  /// The view state.
  private(set) var form: FormState
  /// One model per panel.
  let models: [CalculatorModel]
  /// What the terminal shows.
  private(set) var screen: Screen
  /// Spinner ticks since the session started.
  private(set) var tick = 0

  private let renderer: FormRenderer
  private let clock: AnyClock
  private let post: @Sendable (AppEvent) -> Void
  private let write: (String) -> Void
  private var observers: [Task<Void, Never>] = []
  private var ticker: Task<Void, Never>?

  /// Creates a session with one panel per model.
  init(
    models: [CalculatorModel], title: String, size: TerminalSize, colour: Bool, clock: some Clock<Duration>,
    post: @escaping @Sendable (AppEvent) -> Void, write: @escaping (String) -> Void
  ) {
    precondition(!models.isEmpty, "a form needs at least one model")
    self.models = models
    form = FormState(panelCount: models.count)
    screen = Screen(size: size, colour: colour)
    renderer = FormRenderer(title: title)
    self.clock = AnyClock(clock)
    self.post = post
    self.write = write
  }

  /// Whether the spinner's timer is running.
  var isTicking: Bool { ticker != nil }

  /// Starts observing the models and draws the first frame.
  func start() {
    for model in models {
      observers.append(
        Task { [post] in
          // The input too: a change made through another panel's model must show even when the status stays.
          for await _ in Observed({ (model.input, model.status, model.result) }) {
            post(.modelChanged)
          }
        })
    }
    refresh()
  }

  /// Ends observation and the spinner's timer.
  func stop() {
    for observer in observers { observer.cancel() }
    observers = []
    ticker?.cancel()
    ticker = nil
  }

  /// Reacts to `event`; returns the exit status when the user quit (`0` for `q` or Escape, `130` for Ctrl-C,
  /// as for an interrupted program) or input ended.
  func handle(_ event: AppEvent) -> Int32? {
    switch event {
    case .terminal(.key(let key)):
      switch form.apply(FormAction(key)) {
      case .quit(.request): return 0
      case .quit(.interrupt): return 130
      case .edited(let panel): push(panel)
      case .moved, .none: break
      }
    case .terminal(.resized(let size)):
      screen.resize(to: size)
    case .terminal(.inputEnded):
      return 0
    case .modelChanged:
      break
    case .tick:
      tick += 1
    }
    refresh()
    return nil
  }

  /// Copies the models' numbers into the form, starts or stops the spinner, and draws what changed.
  private func refresh() {
    for (index, model) in models.enumerated() {
      form.show(model.input, inPanel: index)
    }
    let results = models.map { PanelResult(status: $0.status, last: $0.result) }
    updateTicker(computing: results.contains { $0.status == .computing })
    let output = screen.draw(renderer.render(form, results: results, tick: tick))
    if !output.isEmpty { write(output) }
  }

  /// Gives panel `panel`'s model the numbers its fields now hold; only changed fields are set, so a shared
  /// calculation keeps what the other panel set.
  private func push(_ panel: Int) {
    let input = form.panels[panel].input
    let model = models[panel]
    if model.a != input.a { model.a = input.a }
    if model.b != input.b { model.b = input.b }
  }

  private func updateTicker(computing: Bool) {
    if computing, ticker == nil {
      ticker = Task { [clock, post] in
        while (try? await clock.sleep(for: Spinner.interval)) != nil {
          post(.tick)
        }
      }
    } else if !computing, let ticker {
      ticker.cancel()
      self.ticker = nil
    }
  }
}
