/// One benchmark row: a named workload, timed as a whole and divided by its operation count.
struct Scenario: Sendable {
  /// The scenario's name, as printed and in JSON (`group.variant`).
  let name: String
  /// The scenario this one is compared with; a baseline names itself.
  let baseline: String
  /// Operations per run; `ns_per_op` divides a run's time by this.
  let operations: Int
  /// Whether the row also reports its ratio to the floors (``Harness/floors``): the operator rows.
  var floors = false
  /// Runs the workload once and returns how many values its consumer saw.
  let run: @Sendable () async -> Int
  /// For a scenario that measures its own time per operation (a latency): runs once and returns that time in
  /// nanoseconds and the values seen. `run` is unused then.
  var timesItself: (@Sendable () async -> (nanoseconds: Double, values: Int))? = nil

  /// A row whose figure is a latency the workload measures itself, such as a median over many samples; a
  /// baseline of its own.
  static func latency(
    name: String, operations: Int, _ measure: @escaping @Sendable () async -> (nanoseconds: Double, values: Int)
  ) -> Scenario {
    Scenario(name: name, baseline: name, operations: operations, run: { 0 }, timesItself: measure)
  }
}

/// A scenario's measurement: the median of several timed runs after a warm-up.
struct Measurement: Sendable {
  let scenario: Scenario
  let nanosecondsPerOperation: Double
  let valuesSeen: Int
  var ratio = 1.0
  /// The ratio to each floor of ``Harness/floors``, for a row that reports them; `nan` where a floor did not run.
  var floorRatios: [Double] = []
}

/// Runs scenarios and computes ratios against baselines measured in the same run.
struct Harness {
  /// What an operator row is also compared with: the synchronous push of Combine at best, and Ripple's channel alone.
  static let floors = ["floor.sync", "channel.raw"]

  var runs = 7
  var warmups = 1

  func measure(_ scenario: Scenario) async -> Measurement {
    let clock = ContinuousClock()
    var samples: [Double] = []
    var values = 0
    for index in 0..<(warmups + runs) {
      if let timesItself = scenario.timesItself {
        let (nanoseconds, seen) = await timesItself()
        values = seen
        if index >= warmups { samples.append(nanoseconds) }
        continue
      }
      let start = clock.now
      values = await scenario.run()
      let elapsed = clock.now - start
      if index >= warmups {
        samples.append(elapsed.nanoseconds / Double(scenario.operations))
      }
    }
    samples.sort()
    return Measurement(scenario: scenario, nanosecondsPerOperation: samples[samples.count / 2], valuesSeen: values)
  }

  func measure(_ scenarios: [Scenario]) async -> [Measurement] {
    var results: [Measurement] = []
    let clock = ContinuousClock()
    let start = clock.now
    for (index, scenario) in scenarios.enumerated() {
      // Progress on standard error, so that the table or the JSON on standard output stays as it is.
      let elapsed = Int((clock.now - start).nanoseconds / 1e9)
      printError("[\(index + 1)/\(scenarios.count), \(elapsed) s] \(scenario.name)")
      results.append(await measure(scenario))
    }
    for index in results.indices {
      if let base = results.first(where: { $0.scenario.name == results[index].scenario.baseline }) {
        results[index].ratio = results[index].nanosecondsPerOperation / base.nanosecondsPerOperation
      } else {
        results[index].ratio = .nan
      }
      guard results[index].scenario.floors else { continue }
      results[index].floorRatios = Self.floors.map { floor in
        guard let floor = results.first(where: { $0.scenario.name == floor }) else { return .nan }
        return results[index].nanosecondsPerOperation / floor.nanosecondsPerOperation
      }
    }
    return results
  }
}

extension Duration {
  var nanoseconds: Double {
    let (seconds, attoseconds) = components
    return Double(seconds) * 1e9 + Double(attoseconds) / 1e9
  }
}
