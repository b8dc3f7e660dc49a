/// The `calc` program: reads the options, then runs the interactive form or a script.
///
/// The executable only calls ``main(arguments:)``; keeping the decision here lets tests run it without a
/// process. Exit statuses: 0 success, 1 a script had bad lines or output or input failed, 2 a bad command line.
public enum CalcCommand {
  /// Runs `calc` with `arguments` (without the program name) and returns the exit status.
  ///
  /// Output that cannot be written (a full disk, a closed descriptor) or input that cannot be read is reported on
  /// standard error and makes the status 1; a closed pipe on standard output is a quiet end.
  @MainActor
  public static func main(arguments: [String]) async -> Int32 {
    let status = await run(arguments: arguments)
    guard let failure = StandardStream.failure else { return status }
    StandardStream.error.write("calc: \(failure)\n")
    return max(status, 1)
  }

  @MainActor
  private static func run(arguments: [String]) async -> Int32 {
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
