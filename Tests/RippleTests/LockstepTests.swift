import Observation
import Testing

@testable import RippleTesting

/// A view model written as for production: `@MainActor`, a plain `Task { }`, an injected clock.
@MainActor @Observable final class SearchModel {
  var query = ""
  private(set) var results: [String] = []

  init(clock: some Clock<Duration>) {
    Task { [weak self] in
      let queries = Observed.untilFinished { [weak self] in self.map { .next($0.query) } ?? .finish }
      for await q in queries.debounce(for: .milliseconds(300), clock: clock) { self?.results = [q] }
    }
  }
}

/// A default actor on the way.
private actor Normalizer {
  func normalize(_ text: String) -> String { text.lowercased() }
}

@MainActor @Observable private final class PipelineModel {
  var text = ""
  private(set) var shown: [String] = []
  private(set) var log: [String] = []

  init(clock: TestClock) {
    let normalizer = Normalizer()
    Task { [weak self] in
      let texts = Observed.untilFinished { [weak self] in self.map { .next($0.text) } ?? .finish }

      for await text in texts.debounce(for: .seconds(1), clock: clock) {
        // A default actor, a detached task and a task group between the input and the write.
        let normal = await normalizer.normalize(text)
        let count = await Task.detached { normal.count }.value
        let parts = await withTaskGroup(of: String.self) { group in
          group.addTask { normal }
          var parts: [String] = []
          for await part in group { parts.append(part) }
          return parts
        }
        self?.shown = parts
        self?.log.append("\(normal):\(count)@\(clock.now)")
      }
    }
  }
}

@MainActor final class Box<Value> {
  var value: Value
  init(_ value: Value) { self.value = value }
}

@Suite("lockstep drives the code users write")
struct LockstepTests {
  @Test("a @MainActor view model with a plain Task debounces in virtual time")
  @MainActor func debouncesTyping() async {
    let clock = TestClock()
    await clock.lockstep {
      let model = SearchModel(clock: clock)
      model.query = "a"
      await clock.advance(by: .milliseconds(100))
      model.query = "ab"
      await clock.advance(by: .milliseconds(299))
      #expect(model.results == [])
      await clock.advance(by: .milliseconds(1))
      #expect(model.results == ["ab"])
    }
  }

  @Test("main-actor jobs, default actors, detached tasks and task groups all finish before advance returns")
  @MainActor func everyKindOfJob() async {
    let clock = TestClock()
    await clock.lockstep {
      let model = PipelineModel(clock: clock)
      model.text = "Hello"
      await clock.advance(by: .milliseconds(999))
      #expect(model.shown == [])
      await clock.advance(by: .milliseconds(1))
      #expect(model.shown == ["hello"])
      #expect(model.log == ["hello:5@1.0 seconds"])
    }
  }

  @Test("the body runs on the main actor, and so does a Task it starts")
  @MainActor func bodyIsOnTheMainActor() async {
    let clock = TestClock()
    let ran = await clock.lockstep { () -> Bool in
      MainActor.assertIsolated()
      let box = Box(false)
      Task {
        MainActor.assertIsolated(); box.value = true
      }
      #expect(!box.value)  // the new task waits for its creator to suspend
      await clock.advance(by: .zero)
      return box.value
    }
    #expect(ran)
  }

  @Test("a task started in the scope runs after its creator suspends, in the order the tasks were created")
  @MainActor func startOrder() async {
    let clock = TestClock()
    let order = await clock.lockstep { () -> [String] in
      let log = Box<[String]>([])
      Task { log.value.append("first") }
      Task.detached { await MainActor.run { log.value.append("detached") } }
      Task { log.value.append("second") }
      log.value.append("creator")
      await clock.advance(by: .zero)
      return log.value
    }
    #expect(order.first == "creator")
    #expect(order.filter { $0 != "detached" } == ["creator", "first", "second"])
    #expect(order.contains("detached"))
  }

  @Test("a nonisolated body drives nonisolated tasks in lockstep")
  func nonisolatedBody() async {
    let clock = TestClock()
    let woke = await clock.lockstep { () -> [String] in
      let log = Log()
      for seconds in [3, 1, 2] {
        Task {
          try? await clock.sleep(for: .seconds(seconds))
          log.append("\(seconds)")
        }
      }
      await clock.advance(by: .seconds(1))
      let first = log.entries
      await clock.run()
      return first + ["then"] + log.entries
    }
    #expect(woke == ["1", "then", "1", "2", "3"])
  }

  @Test("after the scope, the caller is back on the real main actor and new tasks run outside it")
  @MainActor func leavesTheScope() async {
    let clock = TestClock()
    await clock.lockstep { await clock.advance(by: .zero) }
    MainActor.assertIsolated()
    // Without the scope, a sleep on the clock is not waited for: advance returns and the task resumes later.
    let task = Task { () -> TestClock.Instant in
      try? await clock.sleep(until: .init(offset: .seconds(1)))
      return clock.now
    }
    await clock.advance(by: .seconds(2))
    #expect(await task.value == .init(offset: .seconds(2)))
  }

  /// Types `name` followed by 1...20 into a search model, pausing long enough after every third step.
  @MainActor private static func type(_ name: String) async -> [String] {
    let clock = TestClock()
    return await clock.lockstep {
      let model = SearchModel(clock: clock)
      var seen: [String] = []
      for step in 1...20 {
        model.query = "\(name)\(step)"
        await clock.advance(by: .milliseconds(step % 3 == 0 ? 300 : 100))
        seen.append(model.results.first ?? "-")
      }
      return seen
    }
  }

  @Test("one typist")
  func oneTypist() async {
    let seen = await Self.type("x")
    let expected = (1...20).map { $0 % 3 == 0 ? "x\($0)" : ($0 < 3 ? "-" : "x\($0 - $0 % 3)") }
    #expect(seen == expected)
  }

  @Test("scopes of different clocks run at the same time without capturing each other's jobs")
  func concurrentScopes() async {
    await withTaskGroup(of: [String].self) { group in
      for name in ["x", "y"] {
        group.addTask { await Self.type(name) }
      }
      for await seen in group {
        let name = seen.first { $0 != "-" }?.first.map(String.init) ?? "?"
        let expected = (1...20).map { $0 % 3 == 0 ? "\(name)\($0)" : ($0 < 3 ? "-" : "\(name)\($0 - $0 % 3)") }
        #expect(seen == expected)
      }
    }
  }
}
