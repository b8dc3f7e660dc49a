/// Runs a `calc` script: placeholder until script mode lands.
@MainActor
struct ScriptRunner {
  let options: CalcOptions

  func run(lines: AsyncStream<String>) async -> Int32 {
    for await _ in lines {}
    return 1
  }
}
