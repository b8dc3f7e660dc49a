import Observation
import Ripple

/// A custom global actor, to measure observation off the main actor.
@globalActor actor BenchActor {
  static let shared = BenchActor()
}

@MainActor @Observable final class MainActorCounter {
  var value = 0
}

@BenchActor @Observable final class ActorCounter {
  var value = 0
}

/// Mutations per run of an observation scenario; each is followed by `Task.yield()`.
let observationMutations = 100_000

/// `Observations` (the toolchain's) and `Observed` (Ripple's), with consumer and producer on one actor.
///
/// `Observations` needs OS 26 on Apple platforms; before it, each `Observed` row is its own baseline.
func observationScenarios() -> [Scenario] {
  let toolchain: (mainActor: Scenario, actor: Scenario)?
  if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
    toolchain = observationsScenarios()
  } else {
    toolchain = nil
  }
  let mainActorBaseline = toolchain?.mainActor.name ?? "observed.mainactor"
  let actorBaseline = toolchain?.actor.name ?? "observed.actor"
  return [
    toolchain?.mainActor,
    Scenario(name: "observed.mainactor", baseline: mainActorBaseline, operations: observationMutations) {
      await observeOnMainActor { model in Observed { model.value } }
    },
    // The producer alone, nobody observing: the floor under both rows above, set by the executor.
    Scenario(name: "floor.yield.mainactor", baseline: mainActorBaseline, operations: observationMutations) {
      await mutateOnMainActor(MainActorCounter())
      return 0
    },
    toolchain?.actor,
    Scenario(name: "observed.actor", baseline: actorBaseline, operations: observationMutations) {
      await observeOnBenchActor { model in Observed { model.value } }
    },
    Scenario(name: "floor.yield.actor", baseline: actorBaseline, operations: observationMutations) {
      await mutateOnBenchActor(ActorCounter())
      return 0
    },
  ].compactMap { $0 }
}

/// The toolchain's `Observations` on the main actor and on a custom actor: the baselines of the `Observed` rows.
@available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *)
func observationsScenarios() -> (mainActor: Scenario, actor: Scenario) {
  (
    Scenario(name: "observations.mainactor", baseline: "observations.mainactor", operations: observationMutations) {
      await observeOnMainActor { model in Observations { model.value } }
    },
    Scenario(name: "observations.actor", baseline: "observations.actor", operations: observationMutations) {
      await observeOnBenchActor { model in Observations { model.value } }
    }
  )
}

/// Counts the values a main-actor consumer sees while the main actor mutates the model; returns once the
/// final value has arrived.
@MainActor
func observeOnMainActor<S: AsyncSequence<Int, Never> & Sendable>(
  _ makeSequence: @MainActor (MainActorCounter) -> S
) async -> Int {
  let model = MainActorCounter()
  let values = makeSequence(model)
  let consumer = Task { @MainActor in
    var seen = 0
    for await value in values {
      seen += 1
      if value == observationMutations { break }
    }
    return seen
  }
  await Task.yield()
  await mutateOnMainActor(model)
  return await consumer.value
}

/// The producer: `observationMutations` increments, each its own transaction.
@MainActor
func mutateOnMainActor(_ model: MainActorCounter) async {
  for _ in 0..<observationMutations {
    model.value += 1
    await Task.yield()
  }
}

/// The same as ``mutateOnMainActor(_:)`` on ``BenchActor``.
@BenchActor
func mutateOnBenchActor(_ model: ActorCounter) async {
  for _ in 0..<observationMutations {
    model.value += 1
    await Task.yield()
  }
}

/// The same as ``observeOnMainActor(_:)`` on ``BenchActor``.
@BenchActor
func observeOnBenchActor<S: AsyncSequence<Int, Never> & Sendable>(
  _ makeSequence: @BenchActor (ActorCounter) -> S
) async -> Int {
  let model = ActorCounter()
  let values = makeSequence(model)
  let consumer = Task { @BenchActor in
    var seen = 0
    for await value in values {
      seen += 1
      if value == observationMutations { break }
    }
    return seen
  }
  await Task.yield()
  await mutateOnBenchActor(model)
  return await consumer.value
}
