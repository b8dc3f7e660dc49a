import CalculatorTerminal

// Argument parsing and wiring only; everything else lives in CalculatorTerminal, where it is tested.
Platform.exit(await CalcCommand.main(arguments: Array(CommandLine.arguments.dropFirst())))
