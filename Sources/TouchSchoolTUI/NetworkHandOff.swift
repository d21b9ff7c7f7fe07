#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import TouchSchoolCommandLine
import TouchSchoolCore
import TouchSchoolStore

/// The network of `touchschool`: none of its own. A command that needs it (`serve`, `--server`,
/// `import --postgres`) is handed, as parsed and before any other work, to `touchschool-network`
/// beside this program, by `execv` with the same arguments and environment: the same process
/// (pid, terminal, signals, exit status), now with the network. Why two programs: see
/// `NetworkCommands`.
struct NetworkHandOff: NetworkCommands {
    static let siblingName = "touchschool-network"

    func serve(_ request: ServeRequest) throws { try handOff(for: "serve") }

    func importIntoPostgres(file: String, url: String, force: Bool) throws -> String { try handOff(for: "import --postgres") }

    func loadServerBattle(_ servers: ServerURLs, dataDirectory: String, player: String?) throws -> (catalog: Catalog, state: SavedState) {
        try handOff(for: servers.source)
    }

    func joinServer(_ servers: ServerURLs, dataDirectory: String, player: String) throws -> ServerGame {
        try handOff(for: servers.source)
    }

    /// Replaces this process with `touchschool-network`; returns only by throwing, when it cannot.
    private func handOff(for feature: String) throws -> Never {
        let path = "\(ExecutableLocation.directory)/\(Self.siblingName)"
        // The arguments as the kernel gave them (not re-encoded: a query need not be UTF-8).
        execv(path, CommandLine.unsafeArgv)
        let reason = String(cString: strerror(errno))
        throw CommandError("\(feature) needs \(Self.siblingName), which should be installed beside touchschool: "
                           + "\(path): \(reason). Build both with `swift build` (or `swift build -c release`), "
                           + "or copy \(Self.siblingName) from the same build next to touchschool.")
    }
}
