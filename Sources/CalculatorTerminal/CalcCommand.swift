/// The `calc` program: reads the options, then runs the interactive form or a script.
///
/// The executable only calls ``main(arguments:)``; keeping the decision here lets tests run it without a
/// process. Exit statuses: 0 success, 1 a script had bad lines, 2 a bad command line.
public enum CalcCommand {
  /// Runs `calc` with `arguments` (without the program name) and returns the exit status.
  @MainActor
  public static func main(arguments: [String]) async -> Int32 {
    let options: CalcOptions
    do {
      options = try CalcOptions.parse(arguments)
    } catch {
      StandardStream.error.write("calc: \(error)\n\n\(CalcOptions.usage)\n")
      return 2
    }
    if options.help {
      StandardStream.output.write(CalcOptions.usage + "\n")
      return 0
    }
    if options.version {
      StandardStream.output.write(CalcOptions.versionText + "\n")
      return 0
    }
    // The form needs a terminal on both sides: `calc > file` from a terminal reads a typed script instead of
    // writing escape sequences into the file.
    if options.script || !Platform.isTerminal(Platform.standardInput)
      || !Platform.isTerminal(Platform.standardOutput)
    {
      return await ScriptRunner(options: options).run(lines: StandardStream.inputLines())
    }
    return await InteractiveApp(options: options).run()
  }
}
