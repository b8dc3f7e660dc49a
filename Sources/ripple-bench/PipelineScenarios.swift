import Observation
import Ripple

/// Edits per run of a seed-pipeline row, alternating between `a` and `b`.
let pipelineEdits = 100_000

/// The model of seed 000, the slow calculator's Observation design: two optional fields and their sum.
@MainActor @Observable final class SeedModel {
  var a: Int?
  var b: Int?
  var sum = 0
}

/// Seed 000's pipeline as users write it with Ripple — `Observed` → `compacted` → `removeDuplicates` →
/// `combineLatest` → `map(+)` → `assign(to:on:)` on the main actor — and the same pipeline fed by the toolchain's
/// `Observations`, its baseline where it exists (OS 26 on Apple platforms).
func pipelineScenarios() -> [Scenario] {
  var baseline = "pipeline.seed000"
  var rows: [Scenario] = []
  if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
    baseline = "pipeline.seed000.observations"
    rows.append(
      Scenario(name: baseline, baseline: baseline, operations: pipelineEdits) {
        await runSeedPipeline { model in
          (
            Observations { model.a }.compacted().removeDuplicates(),
            Observations { model.b }.compacted().removeDuplicates()
          )
        }
      })
  }
  rows.append(
    Scenario(name: "pipeline.seed000", baseline: baseline, operations: pipelineEdits) {
      await runSeedPipeline { model in
        (Observed { model.a }.compacted().removeDuplicates(), Observed { model.b }.compacted().removeDuplicates())
      }
    })
  return rows
}

/// Makes `pipelineEdits` edits on the main actor, `a` and `b` in turn, each its own transaction, while the pipeline
/// made by `makeInputs` writes `a + b` into the model; returns once the final sum has arrived, and checks it.
@MainActor
func runSeedPipeline<A: AsyncSequence<Int, Never> & Sendable, B: AsyncSequence<Int, Never> & Sendable>(
  _ makeInputs: @MainActor (SeedModel) -> (A, B)
) async -> Int {
  let model = SeedModel()
  let (a, b) = makeInputs(model)
  let pipeline = Task { @MainActor in
    await combineLatest(a, b).map(+).assign(to: \.sum, on: model)
  }
  await Task.yield()
  for edit in 1...pipelineEdits {
    if edit.isMultiple(of: 2) { model.b = edit } else { model.a = edit }
    await Task.yield()
  }
  let expected = pipelineEdits + (pipelineEdits - 1)
  while model.sum != expected {
    precondition(model.sum <= expected, "the pipeline wrote \(model.sum), more than the final sum \(expected)")
    await Task.yield()
  }
  pipeline.cancel()
  await pipeline.value
  return pipelineEdits
}
