// ripple-bench: Ripple's benchmark table. Run it in release: `swift run -c release ripple-bench`.
//
// Every row is the median of several runs after a warm-up; `ratio` divides a row's ns/op by its
// baseline's, measured in the same run.

let usage = """
  usage: ripple-bench [--json] [--filter <text>] [--runs <n>]

    --json           print exactly one JSON object instead of the table
    --filter <text>  run only scenarios whose name contains <text> (baselines they name run too)
    --runs <n>       timed runs per scenario, after one warm-up (default 7)
    --no-baselines   with --filter: skip the baselines (for profiling one scenario; ratios are null)
  """

var json = false
var withBaselines = true
var filters: [String] = []
var harness = Harness()
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
  switch argument {
  case "--json": json = true
  case "--no-baselines": withBaselines = false
  case "--filter":
    guard let value = arguments.popFirst() else { fail("--filter needs a value") }
    filters.append(value)
  case "--runs":
    guard let value = arguments.popFirst(), let runs = Int(value), runs > 0 else {
      fail("--runs needs a positive whole number")
    }
    harness.runs = runs
  case "--help", "-h":
    print(usage)
    terminate(0)
  default: fail("unknown argument '\(argument)'")
  }
}

func fail(_ message: String) -> Never {
  printError("ripple-bench: \(message)\n\(usage)")
  terminate(2)
}

// Each group of scenarios lives in its own file; add a group on a line of its own.
let all: [Scenario] =
  observationScenarios()
  + pipelineScenarios()
  + operatorScenarios()
  + combineOperatorScenarios()
  + timeScenarios()
  + latestScenarios()
  + channelScenarios()
  + shareScenarios()
  + subjectScenarios()
var selected = all.filter { scenario in filters.isEmpty || filters.contains { scenario.name.contains($0) } }
let needed =
  withBaselines ? Set(selected.map(\.baseline) + (selected.contains(where: \.floors) ? Harness.floors : [])) : []
selected = all.filter { selected.map(\.name).contains($0.name) || needed.contains($0.name) }

let results = await harness.measure(selected)
print(json ? Report.json(results) : Report.table(results))
