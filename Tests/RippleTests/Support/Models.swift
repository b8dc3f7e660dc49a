import Observation

/// A custom global actor, to run observation tests off the main actor.
@globalActor actor TestActor {
  static let shared = TestActor()
}

/// Two inputs and a counter, isolated to the main actor.
@MainActor @Observable final class MainModel {
  var a = 0
  var b = 0
  var unrelated = 0
}

/// The same shape, isolated to ``TestActor``.
@TestActor @Observable final class ActorModel {
  var a = 0
  var b = 0
  var unrelated = 0
}

/// The error a test's closure throws.
enum Boom: Error, Equatable {
  case boom
}

/// Inputs without static isolation, for harnesses that take the actor as a parameter.
///
/// `@unchecked Sendable`: each test reads and writes it on one actor only, the one it passes around.
@Observable final class Inputs: @unchecked Sendable {
  var a = 0
  var b = 0
  var unrelated = 0
}
