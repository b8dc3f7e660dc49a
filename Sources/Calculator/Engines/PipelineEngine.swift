import Observation
import Ripple

/// Design 1, the Observation pipeline: watch `a` and `b`, drop empty fields and repeats, pair them, calculate the
/// latest pair (<doc:TheFourDesigns#1-The-Observation-pipeline>).
///
/// ```swift
/// let model = CalculatorModel(engine: .pipeline(calculator: .instant))
/// model.a = 1
/// model.b = 2
/// // model.status: .computing, then .result(3) once the pipeline has run
/// ```
///
/// The pipeline runs in a task the engine starts when it is created and cancels when it is released; a newer
/// pair cancels the calculation in flight.
@MainActor @Observable
public final class PipelineEngine: CalculatorEngine {
  // Stored apart, so that each field's `Observed` is woken by edits of its own field only.
  /// The first field.
  public var a: Int?
  /// The second field.
  public var b: Int?
  /// The latest calculation's outcome; see ``CalculatorEngine/outcome``.
  public private(set) var outcome: Outcome?
  @ObservationIgnored private var pipeline: Task<Void, Never>?

  /// Creates the engine and starts its pipeline, which calculates with `calculator`.
  public init(calculator: SlowCalculator) {
    pipeline = Task { [weak self] in
      let a = Observed.untilFinished { [weak self] in self.map { .next($0.a) } ?? .finish }
        .compacted().removeDuplicates()
      let b = Observed.untilFinished { [weak self] in self.map { .next($0.b) } ?? .finish }
        .compacted().removeDuplicates()
      let outcomes = combineLatest(a, b)
        .map { @Sendable a, b in Input(a: a, b: b) }
        .mapLatest { input in await Outcome.calculate(input, with: calculator) }
      for await case let outcome? in outcomes {
        self?.outcome = outcome
      }
    }
  }

  deinit {
    pipeline?.cancel()
  }

  /// Both fields; setting it writes only the fields that change.
  public var input: Input {
    get { Input(a: a, b: b) }
    set {
      if a != newValue.a { a = newValue.a }
      if b != newValue.b { b = newValue.b }
    }
  }
}

extension CalculatorEngine where Self == PipelineEngine {
  /// A ``PipelineEngine`` calculating with `calculator`.
  public static func pipeline(calculator: SlowCalculator) -> PipelineEngine {
    PipelineEngine(calculator: calculator)
  }
}
