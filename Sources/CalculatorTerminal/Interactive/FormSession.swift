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
/// shared calculation an edit in one panel shows in the other. Side by side (`--engine all`, `labels` given),
/// the form has one pair of fields, an edit sets every model, and each model's result line carries its label and
/// its counters. The spinner's timer runs only while some model is computing. ``stop()`` ends the observation
/// and the timer.
@MainActor
final class FormSession {
  /// The view state.
  private(set) var form: FormState
  /// One model per result line.
  let models: [CalculatorModel]
  /// Each result line's label when the models are shown side by side on one input; `nil` for a panel each.
  let labels: [String]?
  /// Each model's calculation counts, when the result lines show them.
  let counts: [CalculationCounts]
  /// How many outcomes each result line has shown.
  private(set) var shownCounts: [Int]
  private var lastShown: [CalculatorStatus?]
  /// What the terminal shows.
  private(set) var screen: Screen
  /// Spinner ticks since the session started.
  private(set) var tick = 0

  private let renderer: FormRenderer
  private let clock: AnyClock
  private let post: @Sendable (AppEvent) -> Void
  private let write: (String) -> Void
  private let suspend: () -> Void
  private var observers: [Task<Void, Never>] = []
  private var ticker: Task<Void, Never>?

  /// Creates a session with one panel per model, or with `labels` (one per model) the models side by side under
  /// one pair of fields, each result line showing `counts` when given.
  init(
    models: [CalculatorModel], labels: [String]? = nil, counts: [CalculationCounts] = [], title: String,
    size: TerminalSize, colour: Bool, clock: some Clock<Duration>,
    post: @escaping @Sendable (AppEvent) -> Void, write: @escaping (String) -> Void,
    suspend: @escaping () -> Void = {}
  ) {
    precondition(!models.isEmpty, "a form needs at least one model")
    precondition(labels.map { $0.count == models.count } ?? true, "one label per model")
    self.models = models
    self.labels = labels
    self.counts = counts
    shownCounts = Array(repeating: 0, count: models.count)
    lastShown = Array(repeating: nil, count: models.count)
    form = FormState(panelCount: labels == nil ? models.count : 1)
    screen = Screen(size: size, colour: colour)
    renderer = FormRenderer(title: title)
    self.clock = AnyClock(clock)
    self.post = post
    self.write = write
    self.suspend = suspend
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
      case .suspend:
        // Returns once the shell's `fg` has continued the program; whatever the terminal shows now is not ours.
        suspend()
        screen.invalidate()
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
    for index in form.panels.indices {
      form.show(models[index].input, inPanel: index)
    }
    var results: [PanelResult] = []
    for (index, model) in models.enumerated() {
      let status = model.status
      switch status {
      case .result, .error:
        if lastShown[index] != status { shownCounts[index] += 1 }
      case .waiting, .settling, .computing: break
      }
      lastShown[index] = status
      var result = PanelResult(status: status, last: model.result)
      result.label = labels?[index]
      if index < counts.count {
        result.counts = .init(
          started: counts[index].started, cancelled: counts[index].cancelled, shown: shownCounts[index])
      }
      results.append(result)
    }
    updateTicker(computing: results.contains { $0.status == .computing })
    let output = screen.draw(renderer.render(form, results: results, tick: tick, size: screen.size))
    if !output.isEmpty { write(output) }
  }

  /// Gives panel `panel`'s model the numbers its fields now hold; only changed fields are set, so a shared
  /// calculation keeps what the other panel set.
  private func push(_ panel: Int) {
    let input = form.panels[panel].input
    for model in labels == nil ? [models[panel]] : models {
      if model.a != input.a { model.a = input.a }
      if model.b != input.b { model.b = input.b }
    }
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
