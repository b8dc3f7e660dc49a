/// The `calc` program: reads the options, then runs the interactive form or a script.
///
/// The executable only calls ``main(arguments:)``; keeping the decision here lets tests run it without a
/// process. Exit statuses: 0 success, 1 a script had bad lines or output or input failed, 2 a bad command line.
public enum CalcCommand {
  /// Runs `calc` with `arguments` (without the program name) and returns the exit status.
  ///
  /// It is interactive when standard input and standard output are both terminals and `--script` is not given;
  /// otherwise it reads a script from standard input.
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
    let parsed: CalcOptions
    do {
      parsed = try CalcOptions.parse(arguments)
    } catch {
      return usageError(error)
    }
    if parsed.help {
      StandardStream.output.write(CalcOptions.usage + "\n")
      return 0
    }
    if parsed.version {
      StandardStream.output.write(CalcOptions.versionText + "\n")
      return 0
    }
    // The form needs a terminal on both sides: `calc > file` from a terminal reads a typed script instead of
    // writing escape sequences into the file.
    let inputIsTerminal = Platform.isTerminal(Platform.standardInput)
    let interactive = !parsed.script && inputIsTerminal && Platform.isTerminal(Platform.standardOutput)
    let options: CalcOptions
    do {
      options = try parsed.resolved(interactive: interactive)
    } catch {
      return usageError(error)
    }
    guard interactive else {
      if inputIsTerminal {
        // `calc --script`, or `calc | cat`, in a terminal: say what it waits for.
        StandardStream.error.write(
          "calc: reading a script from the terminal: lines such as 'a 12', 'b 30', 'wait 1s'; Ctrl-D ends it\n")
      }
      return await ScriptRunner(options: options).run(lines: StandardStream.inputLines())
    }
    return await InteractiveApp(options: options).run()
  }

  /// Reports a bad command line: the reason, and where the usage is, so the reason stays on screen.
  private static func usageError(_ error: CalcOptions.UsageError) -> Int32 {
    StandardStream.error.write("calc: \(error)\nsee 'calc --help'\n")
    return 2
  }
}
