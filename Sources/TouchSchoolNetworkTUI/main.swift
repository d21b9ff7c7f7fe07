#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import TouchSchoolCommandLine
import TouchSchoolNetworkCommands

// `touchschool-network`: every command of `touchschool`, with the network (`serve`, `--server`,
// `import --postgres`). `touchschool` hands those commands to this program (`NetworkHandOff`).
exit(runTouchSchool(arguments: Array(CommandLine.arguments.dropFirst()), network: LiveNetwork()))
