import Observation
import Ripple
import RippleTesting
import Synchronization
import Testing

@testable import Calculator

@Suite("CalculatorModel", .timeLimit(.minutes(5)))
@MainActor
struct CalculatorModelTests {
  /// b = 30 and a = 1 at once, then a = 12 half a second later.
  static let fastTyping: [Edit] = [.b(30), .a(1), .a(12, at: 0.5)]

  @Test(
    "fast typing: each design shows what it promises, and never a stale sum",
    arguments: [
      (CalculatorDesign.task, ["42 at 1.5"]),
      (.shared, ["42 at 1.5"]),
      (.debounce, ["42 at 1.5"]),
      (.pipeline, ["31 at 0.0", "42 at 0.5"]),
    ])
  func fastTyping(kind: CalculatorDesign, expected: [String]) async {
    let shown = await play(Self.fastTyping, on: kind)
    #expect(shown.timeline == expected)
    #expect(shown.finalStatus == .result(42))
  }

  @Test("the pipeline's model: what reads one field is woken by edits of that field only")
  func fieldsTrackedApart() {
    let model = CalculatorModel(engine: .pipeline(calculator: .instant))
    let woken = WokenFlag()
    withObservationTracking {
      _ = model.a
    } onChange: {
      woken.set()
    }
    model.b = 2
    #expect(!woken.value)
    model.a = 1
    #expect(woken.value)
  }

  @Test("debounce: typing settles for a second before each calculation")
  func debounceSettles() async {
    let shown = await play([.b(30), .a(1), .a(12, at: 2), .b(0, at: 5)], on: .debounce)
    #expect(shown.timeline == ["31 at 1.0", "42 at 3.0", "12 at 6.0"])
    #expect(shown.finalStatus == .result(12))
  }

  @Test("an incomplete input waits; completing it calculates", arguments: CalculatorDesign.allCases)
  func incompleteInputWaits(kind: CalculatorDesign) async {
    let waiting = await play([.a(5)], on: kind)
    #expect(waiting.outcomes.isEmpty)
    #expect(waiting.finalStatus == .waiting)
    let done = await play([.a(5), .b(6, at: 2)], on: kind)
    #expect(done.finalStatus == .result(11))
  }

  @Test("overflow shows the error, and the next input calculates again", arguments: CalculatorDesign.allCases)
  func overflowThenRecovery(kind: CalculatorDesign) async {
    let shown = await play([.a(Int.max), .b(1, at: 0), .b(0, at: 3)], on: kind)
    let values = shown.outcomes.map(\.outcome.value)
    #expect(values.contains(.failure(.overflow)))
    #expect(values.last == .success(Int.max))
    #expect(shown.finalStatus == .result(Int.max))
  }

  @Test("while calculating, the last result stays visible and the status says computing")
  func computingKeepsLastResult() async {
    let clock = TestClock()
    await clock.lockstep {
      let model = CalculatorModel(engine: .task(calculator: .live(delay: .seconds(1), clock: clock)))
      model.a = 1
      model.b = 2
      await clock.advance(by: .seconds(1))
      #expect(model.status == .result(3))
      model.b = 3
      #expect(model.status == .computing)
      #expect(model.isCalculating)
      #expect(model.result == 3)
      await clock.advance(by: .milliseconds(999))
      #expect(model.status == .computing)
      await clock.advance(by: .milliseconds(1))
      #expect(model.status == .result(4))
      #expect(model.error == nil)
    }
  }

  @Test("two models on one shared calculation show the same result")
  func sharedAcrossScreens() async {
    let clock = TestClock()
    await clock.lockstep {
      let calculation = SharedCalculation(calculator: .live(delay: .seconds(1), clock: clock))
      let first = CalculatorModel(engine: calculation)
      let second = CalculatorModel(engine: calculation)
      first.a = 12
      second.b = 30
      #expect(first.status == .computing)
      #expect(calculation.isCalculating)
      #expect(second.input == Input(a: 12, b: 30))
      await clock.advance(by: .seconds(1))
      #expect(first.status == .result(42))
      #expect(second.status == .result(42))
      #expect(!calculation.isCalculating)
    }
  }

  @Test("releasing a model ends all its tasks", arguments: CalculatorDesign.allCases)
  func releaseEndsTasks(kind: CalculatorDesign) async {
    let clock = TestClock()
    await clock.lockstep {
      // Every task of the model holds the calculator, and so the token: once they have all ended, it is gone.
      weak var weakToken: Token?
      weak var weakModel: CalculatorModel?
      weak var weakCalculation: SharedCalculation?
      do {
        let token = Token()
        weakToken = token
        let live = SlowCalculator.live(delay: .seconds(5), clock: clock)
        let calculator = SlowCalculator { input in
          defer { withExtendedLifetime(token) {} }
          return try await live.result(for: input)
        }
        @MainActor func makeEngine() -> any CalculatorEngine {
          kind.makeEngine(calculator: calculator, debounce: .seconds(1), clock: clock)
        }
        let engine = makeEngine()
        // The shared object owns the calculation; the models showing it are its screens.
        weakCalculation = engine as? SharedCalculation
        let model = CalculatorModel(engine: engine)
        weakModel = model
        let otherEngine = kind == .shared ? engine : makeEngine()
        let otherScreen = CalculatorModel(engine: otherEngine)
        model.a = 1
        model.b = 2
        // Whatever the engine, a calculation is then asleep on the clock.
        await clock.advance(by: .seconds(kind == .debounce ? 2 : 1))
        #expect(model.status == .computing)
        withExtendedLifetime(otherScreen) {}
      }
      #expect(weakModel == nil)
      #expect(weakCalculation == nil)
      await clock.advance(by: .zero)
      #expect(weakToken == nil, "a task of the released model still runs")
      // Nothing is left asleep on the clock either: running it moves no time.
      let before = clock.now
      await clock.run()
      #expect(clock.now == before)
    }
  }

  @Test("property: over 1,000 random typing scripts the engines agree, and none shows an older result")
  func randomScripts() async {
    await checkRandomScripts(1_000, seed: 0xCA1C, delay: nil)
  }

  @Test(
    "property: with a slow calculator on every engine (1.5 s, longer than the debounce), the same holds",
    arguments: [Duration.milliseconds(1500), .milliseconds(300)])
  func randomScriptsWithDelay(delay: Duration) async {
    await checkRandomScripts(300, seed: 0xDE1A, delay: delay)
  }

  /// Plays `count` random scripts on every engine with `delay` (`nil`: each engine's default) and expects the
  /// engines to agree on the final status, and no engine to show an outcome older than one it showed before.
  func checkRandomScripts(_ count: Int, seed: UInt64, delay: Duration?) async {
    var generator = SplitMix64(seed: seed)
    for script in 0..<count {
      let edits = randomEdits(using: &generator)
      var finals: [CalculatorDesign: CalculatorStatus] = [:]
      for kind in CalculatorDesign.allCases {
        let shown = await play(edits, on: kind, delay: delay)
        finals[kind] = shown.finalStatus
        let ages = ages(of: shown, typing: edits)
        #expect(zip(ages, ages.dropFirst()).allSatisfy { $0 <= $1 }, "script \(script) \(kind): \(edits)")
      }
      #expect(Set(finals.values.map(\.description)).count == 1, "script \(script): \(finals) for \(edits)")
    }
  }
}

/// An object whose lifetime shows whether anything still holds what holds it.
final class Token: Sendable {}

/// Random edits every 100 ms to 3 s; values small, empty or huge (to overflow).
func randomEdits(using generator: inout some RandomNumberGenerator) -> [Edit] {
  var time = 0
  return (0..<Int.random(in: 1...8, using: &generator)).map { _ in
    time += Int.random(in: 0...6, using: &generator) * 100
    let value: Int? =
      switch Int.random(in: 0..<10, using: &generator) {
      case 0: nil
      case 1: Int.max - Int.random(in: 0...2, using: &generator)
      default: Int.random(in: -20...20, using: &generator)
      }
    let field: Edit.Field = Bool.random(using: &generator) ? .a : .b
    return Edit(at: .milliseconds(time), field: field, value: value)
  }
}

/// For each outcome shown, how recent the information it was calculated from is: for each field, the index of
/// the newest edit made before it was shown that gave the field that number. Neither field of a shown
/// outcome may go back to older information. (The pipeline may pair the latest numbers of each field into an
/// input no single edit produced; this measure covers that too.)
func ages(of shown: Shown, typing edits: [Edit]) -> [FieldAges] {
  shown.outcomes.map { _, editsMade, outcome in
    func age(of field: Edit.Field, _ value: Int?) -> Int {
      edits[..<editsMade].lastIndex { $0.field == field && $0.value == value } ?? -1
    }
    return FieldAges(a: age(of: .a, outcome.input.a), b: age(of: .b, outcome.input.b))
  }
}

/// How recent each field of a shown outcome is; see `ages(of:typing:)`.
struct FieldAges: Equatable {
  var a: Int
  var b: Int

  static func <= (lhs: FieldAges, rhs: FieldAges) -> Bool { lhs.a <= rhs.a && lhs.b <= rhs.b }
}

/// Set by an observation's `onChange`, which may run on any thread.
private final class WokenFlag: Sendable {
  private let flag = Mutex(false)
  var value: Bool { flag.withLock { $0 } }
  func set() { flag.withLock { $0 = true } }
}
