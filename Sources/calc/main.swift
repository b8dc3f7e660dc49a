import CalculatorTerminal

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Argument parsing and wiring only; everything else lives in CalculatorTerminal, where it is tested.
exit(await CalcCommand.main(arguments: Array(CommandLine.arguments.dropFirst())))
