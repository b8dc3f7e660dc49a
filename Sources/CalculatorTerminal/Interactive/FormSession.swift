import Calculator
import Ripple

/// The interactive form's controller: binds the view state (``FormState``) to the models, and draws each
/// change on the ``Screen``.
///
/// It never touches the terminal itself: keys come in as a sequence, text goes out through `write`.
/// ``events(keys:)`` is the one event stream — the keys, the models' answers and the spinner's ticks, merged —
/// and ``run(keys:)`` handles each event in order on the main actor, drawing once per change.
///
/// ```swift
/// let session = FormSession(models: [model], title: "calc", size: size, colour: true, clock: ContinuousClock(),
///                           write: { StandardStream.output.write($0) })
/// let status = await session.run(keys: keys)  // 0 after q, 130 after Ctrl-C
/// ```
///
/// The path is one way: a key edits the form, an edit goes to the models and to every panel of the same engine
/// (the other panel of a shared calculation), and what a model does later reaches the session as
/// ``AppEvent/modelsChanged``, on which it reads the models as they are now: what a line shows is the model's
/// ``CalculatorModel/status``, which already tells an old input's outcome from the current one's
/// (Docs/Decisions/interactive-terminal.md). Side by side (`--engine all`, `labels` given), the form has one pair
/// of fields, an edit goes to every model, and each model's result line carries its label and its counts.
@MainActor
final class FormSession {
  /// The view state.
  private var form: FormState
  /// One model per result line.
  private let models: [CalculatorModel]
  /// Each result line's label when the models are shown side by side on one input; `nil` for a panel each.
  private let labels: [String]?
  /// Each result line's calculation counts, when it shows them (`nil` for a line that does not).
  private let counts: [CalculationCounts?]
  /// What a line without counts says under it instead, if anything.
  private let notes: [String?]
  /// What each result line shows: its model's answer when last read.
  private var results: [PanelResult]
  /// Where each counted line's calculations went.
  private var tallies: [CalculationTally]
  /// What the terminal shows.
  private var screen: Screen
  /// Spinner ticks since the spinner started.
  private var tick = 0
  /// Whether the last frame showed a spinner.
  private var spinning = false
  /// What the last frame was made from; `nil` when the screen must be drawn whatever it shows.
  private var drawn: Drawn?

  /// What a frame is made from: a frame is rendered only when one of these changed.
  private struct Drawn: Equatable {
    var form: FormState
    var lines: [PanelResult]
    var tick: Int
  }

  private let renderer: FormRenderer
  private let clock: AnyClock
  private let write: (String) -> Void
  private let suspend: () -> Void

  /// Creates a session with one panel per model, or with `labels` (one per model) the models side by side under
  /// one pair of fields, each result line showing its `counts` when given.
  init(
    models: [CalculatorModel], labels: [String]? = nil, counts: [CalculationCounts?] = [], notes: [String?] = [],
    title: String,
    size: TerminalSize, colour: Bool, clock: some Clock<Duration>, write: @escaping (String) -> Void,
    suspend: @escaping () -> Void = {}
  ) {
    precondition(!models.isEmpty, "a form needs at least one model")
    precondition(labels.map { $0.count == models.count } ?? true, "one label per model")
    precondition(counts.isEmpty || counts.count == models.count, "counts: one per model, or none")
    precondition(notes.isEmpty || notes.count == models.count, "notes: one per model, or none")
    self.models = models
    self.labels = labels
    self.counts = counts.isEmpty ? Array(repeating: nil, count: models.count) : counts
    self.notes = notes.isEmpty ? Array(repeating: nil, count: models.count) : notes
    results = models.map(Self.answer)
    tallies = Array(repeating: CalculationTally(), count: models.count)
    form = FormState(panelCount: labels == nil ? models.count : 1)
    // The form starts from the models' numbers; from then on, the form is where they change.
    for panel in form.panels.indices { form.show(models[panel].input, inPanel: panel) }
    screen = Screen(size: size, colour: colour)
    renderer = FormRenderer(title: title)
    self.clock = AnyClock(clock)
    self.write = write
    self.suspend = suspend
  }

  /// Draws the first frame, then handles the events of ``events(keys:)`` until the user quits or the keys end;
  /// returns the exit status (see ``handle(_:)``).
  func run<Keys: AsyncSequence<TerminalEvent, Never> & Sendable>(keys: Keys) async -> Int32 {
    draw()
    for await event in events(keys: keys) {
      if let status = handle(event) { return status }
    }
    return 0
  }

  /// The one event stream: `keys`, a ``AppEvent/modelsChanged`` whenever something a result line shows changes
  /// in a model or its counts, and while some model computes, a ``AppEvent/tick`` every ``Spinner/interval``.
  ///
  /// The spinner's timer is a `flatMapLatest` over whether some model computes: a timer while one does, nothing
  /// while none does, so no task sleeps while the form is idle. Ending the iteration ends all three.
  func events<Keys: AsyncSequence<TerminalEvent, Never> & Sendable>(
    keys: Keys
  ) -> some AsyncSequence<AppEvent, Never> & Sendable {
    let models = models
    let counts = counts.compactMap { $0 }
    let changes = Observed { Snapshot(models, counts) }.removeDuplicates().map { @Sendable _ in AppEvent.modelsChanged }
    let clock = clock
    let ticks = Observed { models.contains { $0.status == .computing } }
      .removeDuplicates()
      .flatMapLatest { @Sendable computing in
        AsyncTimerSequence(interval: Spinner.interval, clock: clock).map { @Sendable _ in AppEvent.tick }
          .prefix(computing ? .max : 0)
      }
    return merge(keys.map { @Sendable in AppEvent.terminal($0) }, changes, ticks)
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
        drawn = nil
      case .moved, .none: break
      }
    case .terminal(.resized(let size)):
      screen.resize(to: size)
      drawn = nil
    case .terminal(.inputEnded):
      return 0
    case .modelsChanged:
      break
    case .tick:
      tick += 1
    }
    draw()
    return nil
  }

  /// What the models show and their counts: what ``events(keys:)`` observes.
  private struct Snapshot: Equatable, Sendable {
    var answers: [PanelResult]
    var counts: [Int]

    @MainActor init(_ models: [CalculatorModel], _ counts: [CalculationCounts]) {
      answers = models.map(FormSession.answer)
      self.counts = counts.flatMap { [$0.started, $0.endedCount] }
    }
  }

  /// What model `model`'s result line shows.
  fileprivate static func answer(_ model: CalculatorModel) -> PanelResult {
    PanelResult(status: model.status, last: model.result)
  }

  /// Gives the edited panel's models the numbers its fields now hold, and shows the numbers in every panel on
  /// one of their engines.
  private func edit(_ panel: Int) {
    let input = form.panels[panel].input
    let edited = labels == nil ? [models[panel]] : models
    for model in edited { model.input = input }
    guard labels == nil else { return }
    for (index, model) in models.enumerated() where edited.contains(where: { $0.engine === model.engine }) {
      form.show(input, inPanel: index)
    }
  }

  /// Reads each model's answer and counts, and draws what changed: the one place a frame is made.
  private func draw() {
    for index in models.indices {
      results[index] = Self.answer(models[index])
      if let counts = counts[index] { tallies[index].account(counts.takeEnded(), model: models[index]) }
    }
    let lines = results.indices.map { index in
      var result = results[index]
      result.label = labels?[index]
      result.note = notes[index]
      if let counts = counts[index] {
        result.counts = tallies[index].counts(started: counts.started)
      }
      return result
    }
    let computing = lines.contains { $0.status == .computing }
    // The spinner starts at its first frame: the ticks of an earlier calculation came before the result that
    // stopped them, as they happened.
    if computing && !spinning { tick = 0 }
    spinning = computing
    // A tick that comes after the spinner stopped changes nothing on screen.
    let now = Drawn(form: form, lines: lines, tick: computing ? tick : 0)
    guard now != drawn else { return }
    drawn = now
    let output = screen.draw(renderer.render(form, results: lines, tick: tick, size: screen.size))
    if !output.isEmpty { write(output) }
  }
}
