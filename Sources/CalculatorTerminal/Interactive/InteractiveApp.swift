/// The interactive form: placeholder until the terminal front end lands.
@MainActor
struct InteractiveApp {
  let options: CalcOptions

  func run() async -> Int32 {
    StandardStream.error.write("calc: the interactive form is not built yet; use --script\n")
    return 1
  }
}
