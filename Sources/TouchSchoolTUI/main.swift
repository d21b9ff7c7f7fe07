#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import TouchSchoolCommandLine

// `touchschool`: the game and its local commands, without the network modules; what needs the
// network is handed to `touchschool-network` beside it (`NetworkHandOff`).
exit(runTouchSchool(arguments: Array(CommandLine.arguments.dropFirst()), network: NetworkHandOff()))
