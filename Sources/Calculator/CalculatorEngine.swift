import Observation

/// One of the four designs, as a type: it holds a ``CalculatorModel``'s fields and latest outcome, and keeps the
/// outcome in step with the fields.
///
/// A model reads and writes its engine's ``input`` and shows its ``status``. An engine starts what runs for its
/// whole life when it is created, reacts when ``input`` is set, reports each calculation by setting ``outcome``,
/// and cancels every task it started when it is released. Models that show one engine show, and edit, one
/// calculation. Each design's shorthand takes what the design uses; see <doc:TheFourDesigns>.
///
/// ```swift
/// let pipeline = CalculatorModel(engine: .pipeline(calculator: .instant))
/// let debounce = CalculatorModel(engine: .debounce(interval: .seconds(1), calculator: .live(delay: .zero)))
/// let restarting = CalculatorModel(engine: .task(calculator: .live(delay: .seconds(1))))
/// let calculation = SharedCalculation(calculator: .live(delay: .seconds(1)))
/// let screens = [CalculatorModel(engine: calculation), CalculatorModel(engine: calculation)]
/// ```
///
/// Conforming types are `@Observable`, so what a model derives from them is observable too.
@MainActor
public protocol CalculatorEngine: AnyObject, Observable {
  /// Both fields; setting a different value is the change the engine reacts to.
  var input: Input { get set }
  /// The first field. By default ``input``'s; an engine that stores the fields apart gives its own, so that what
  /// reads one field is not woken by edits of the other.
  var a: Int? { get set }
  /// The second field; see ``a``.
  var b: Int? { get set }
  /// The latest calculation's outcome, for whichever input it was; `nil` until the first calculation ends.
  /// Superseded calculations report nothing, so it never goes back to an older input's outcome.
  var outcome: Outcome? { get }
  /// What the result area shows for the current input.
  var status: CalculatorStatus { get }
}

extension CalculatorEngine {
  /// The first field of ``input``.
  public var a: Int? {
    get { input.a }
    set { input.a = newValue }
  }

  /// The second field of ``input``.
  public var b: Int? {
    get { input.b }
    set { input.b = newValue }
  }

  /// `waiting` while a field is empty, `computing` until the outcome for the current ``input`` comes, then its
  /// result or error.
  public var status: CalculatorStatus { CalculatorStatus.of(input, latest: outcome) }
}
