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

    func serve(_ request: ServeRequest, output: CommandOutput) throws { try handOff(for: "serve") }

    func importIntoPostgres(file: String, url: String, force: Bool) throws -> String { try handOff(for: "import --postgres") }

    func loadServerBattle(_ servers: ServerURLs, dataDirectory: String, player: String?, board: ServerBoard, period: RankingPeriod) throws -> ServerBattle {
        try handOff(for: servers.source)
    }

    func joinServer(_ servers: ServerURLs, dataDirectory: String, player: String) throws -> ServerGame {
        try handOff(for: servers.source)
    }

    func admin(_ request: AdminRequest) throws -> String { try handOff(for: "admin") }

    func round(_ request: RoundRequest) throws -> String { try handOff(for: "round") }

    func season(_ request: SeasonRequest) throws -> String { try handOff(for: "season") }

    /// Replaces this process with `touchschool-network`; returns only by throwing, when it cannot.
    private func handOff(for feature: String) throws -> Never {
        let path = "\(ExecutableLocation.directory)/\(Self.siblingName)"
        // The arguments as the kernel gave them (not re-encoded: a query need not be UTF-8), but
        // for a `--postgres URL`, which moves into the environment: the URL holds the database's
        // password, and a server's command line is there for every user to read while it runs.
        var (arguments, url) = Self.withoutPostgresURL(CommandLine.unsafeArgv, count: Int(CommandLine.argc))
        var environment: [UnsafeMutablePointer<CChar>?] = []
        var index = 0
        while let entry = environ[index] {
            index += 1
            if url != nil, strncmp(entry, Self.postgresEntryPrefix, strlen(Self.postgresEntryPrefix)) == 0 { continue }
            environment.append(entry)
        }
        if let url {
            let entry = Array(Self.postgresEntryPrefix.utf8CString.dropLast()) + url + [0]
            environment.append(entry.withUnsafeBufferPointer { strdup($0.baseAddress!) })
        }
        arguments.append(nil)
        environment.append(nil)
        execve(path, arguments, environment)
        throw CommandError.networkProgramMissing(for: feature, program: Self.siblingName, path: path, errorNumber: errno)
    }

    static let postgresEntryPrefix = "\(PostgresURLEnvironment.name)="

    /// `argv` without `--postgres URL` or `--postgres=URL` (before a `--`), and that URL's bytes.
    static func withoutPostgresURL(_ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>,
                                   count: Int) -> (arguments: [UnsafeMutablePointer<CChar>?], url: [CChar]?) {
        var kept: [UnsafeMutablePointer<CChar>?] = []
        var url: [CChar]?
        var index = 0, optionsEnded = false
        func bytes(_ text: UnsafeMutablePointer<CChar>) -> [CChar] { Array(UnsafeBufferPointer(start: text, count: strlen(text))) }
        while index < count, let argument = argv[index] {
            if index > 0, !optionsEnded {
                if strcmp(argument, "--") == 0 {
                    optionsEnded = true
                } else if strcmp(argument, "--postgres") == 0, index + 1 < count, let value = argv[index + 1] {
                    url = bytes(value)
                    index += 2
                    continue
                } else if strncmp(argument, "--postgres=", 11) == 0 {
                    url = bytes(argument + 11)
                    index += 1
                    continue
                }
            }
            kept.append(argument)
            index += 1
        }
        return (kept, url)
    }
}
