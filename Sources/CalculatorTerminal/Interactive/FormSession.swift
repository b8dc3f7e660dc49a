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
/// The path is one way: a key edits the form, an edit goes to the models and to every panel of the same engine
/// (the other panel of a shared calculation), and what a model does later is drawn as its `Observed` delivers it
/// (Docs/Decisions/interactive-terminal.md). Side by side (`--engine all`, `labels` given), the form has one pair
/// of fields, an edit goes to every model, and each model's result line carries its label and its counters. The
/// spinner's timer runs only while some model is computing. ``stop()`` ends the observation and the timer.
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
  /// What each result line shows: its model's latest answer.
  private var results: [PanelResult]
  /// How many outcomes each result line has shown.
  private(set) var shownCounts: [Int]
  /// What the terminal shows.
  private(set) var screen: Screen
  /// Spinner ticks since the spinner started.
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
    results = models.map(Self.answer)
    shownCounts = Array(repeating: 0, count: models.count)
    form = FormState(panelCount: labels == nil ? models.count : 1)
    // The form starts from the models' numbers; from then on, the form is where they change.
    for panel in form.panels.indices { form.show(models[panel].input, inPanel: panel) }
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
    for (index, model) in models.enumerated() {
      observers.append(
        Task { [post] in
          for await (input, result) in Observed({ (model.input, Self.answer(model)) }) {
            post(.modelChanged(model: index, input: input, result: result))
          }
        })
    }
    draw()
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
      case .edited(let panel): edit(panel)
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
    case .modelChanged(let index, let input, let result):
      // An answer for an input the form has replaced since is stale; the answer for the new one follows it.
      if input == form.panels[labels == nil ? index : 0].input { show(result, onLine: index) }
    case .tick:
      tick += 1
    }
    draw()
    return nil
  }

  /// What model `model`'s result line shows.
  private static func answer(_ model: CalculatorModel) -> PanelResult {
    PanelResult(status: model.status, last: model.result)
  }

  /// Gives the edited panel's models the numbers its fields now hold, shows the numbers in every panel on one of
  /// their engines, and shows each of those models' answer.
  private func edit(_ panel: Int) {
    let input = form.panels[panel].input
    let edited = labels == nil ? [models[panel]] : models
    for model in edited { model.input = input }
    for (index, model) in models.enumerated() where edited.contains(where: { $0.engine === model.engine }) {
      if labels == nil { form.show(input, inPanel: index) }
      show(Self.answer(model), onLine: index)
    }
  }

  /// Puts `result` on line `index`, counting it when it is an outcome the line did not show just before.
  private func show(_ result: PanelResult, onLine index: Int) {
    switch result.status {
    case .result, .error:
      if results[index].status != result.status { shownCounts[index] += 1 }
    case .waiting, .settling, .computing: break
    }
    results[index] = result
  }

  /// Starts or stops the spinner, and draws what changed.
  private func draw() {
    let lines = results.indices.map { index in
      var result = results[index]
      result.label = labels?[index]
      if index < counts.count {
        result.counts = .init(
          started: counts[index].started, cancelled: counts[index].cancelled, shown: shownCounts[index])
      }
      return result
    }
    updateTicker(computing: lines.contains { $0.status == .computing })
    let output = screen.draw(renderer.render(form, results: lines, tick: tick, size: screen.size))
    if !output.isEmpty { write(output) }
  }

  private func updateTicker(computing: Bool) {
    if computing, ticker == nil {
      // The spinner starts at its first frame: the ticks of an earlier calculation came before the result that
      // stopped them, as they happened.
      tick = 0
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
