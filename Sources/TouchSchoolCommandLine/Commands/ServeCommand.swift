import ArgumentParser
import TouchSchoolCore
import TouchSchoolStore

struct ServeCommand: ContextCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: CommandText.serveAbstract,
        discussion: CommandText.serveDiscussion)

    @Option(help: ArgumentHelp(CommandText.serveHostHelp, valueName: "host"))
    var host = "127.0.0.1"

    @Option(help: ArgumentHelp(CommandText.servePortHelp, valueName: "port"))
    var port = 8080

    @Option(help: ArgumentHelp(CommandText.sshPortHelp,
                               valueName: "port"))
    var sshPort: Int?

    // SSH limits (default: the server's own), hidden: for tests.
    @Option(help: .hidden)
    var sshConnectionsPerAddress: Int?

    @Option(help: .hidden)
    var sshIdleSeconds: Int?

    @Option(help: .hidden)
    var sshLoginGraceSeconds: Int?

    // Per-address limits (default: the server's own), hidden: for tests and load runs.
    @Option(help: .hidden)
    var connectionsPerAddress: Int?

    @Option(help: .hidden)
    var socketsPerAddress: Int?

    @Option(help: .hidden)
    var devicesPerAddress: Int?

    // How often the players and taps are said (default every 60 s), hidden: for tests.
    @Option(help: .hidden)
    var activitySeconds: Int?

    // How long a connection may keep the server waiting (default: the server's own), hidden: for
    // tests, which would otherwise wait the standard limits out.
    @Option(help: .hidden)
    var headSeconds: Int?

    @Option(help: .hidden)
    var idleSeconds: Int?

    @Option(help: .hidden)
    var helloSeconds: Int?

    @Option(help: .hidden)
    var writeStallSeconds: Int?

    // How long a graceful shutdown may take before it is cancelled (default: the server's own),
    // hidden: for tests of that bound, which would otherwise wait it out.
    @Option(help: .hidden)
    var shutdownSeconds: Int?

    // How long one PostgreSQL operation may wait before the store is said away (default: the
    // server's own), hidden: for tests of an unreachable database, which would otherwise wait it out.
    @Option(help: .hidden)
    var postgresSeconds: Int?

    // How far the battle's time of day is moved from the machine's, in ms, hidden: for tests of a
    // season's boundary, which a real process otherwise reaches only at midnight on a Monday.
    @Option(help: .hidden)
    var clockOffsetMs: Int64?

    @Option(help: ArgumentHelp(CommandText.addressTapsHelp,
                               valueName: "taps"))
    var addressTapsPerSecond: Int?

    @Option(help: ArgumentHelp(CommandText.addressBurstHelp,
                               valueName: "taps"))
    var addressBurst: Int?

    @Option(help: ArgumentHelp(CommandText.maximumDevicesHelp,
                               valueName: "count"))
    var maximumDevices: Int?

    @Option(help: ArgumentHelp(CommandText.seasonHelp,
                               valueName: "length"))
    var season: SeasonLength?

    /// Where PostgreSQL is: --postgres, --postgres-file, $TOUCHSCHOOL_POSTGRES_URL or $DATABASE_URL;
    /// with none, the battle lives in the data directory.
    @OptionGroup var postgres: PostgresOptions

    @Option(help: ArgumentHelp(CommandText.moveFromHelp,
                               valueName: "dir"))
    var from: String?

    @Option(name: .customLong("trusted-proxy"),
            help: ArgumentHelp(CommandText.trustedProxyHelp,
                               valueName: "ip"))
    var trustedProxies: [String] = []

    @Option(name: .customLong("admin-token-file"),
            help: ArgumentHelp(CommandText.adminTokenFileHelp,
                               valueName: "file"),
            completion: .file())
    var adminTokenFile: String?

    @OptionGroup var data: DataDirectoryOptions

    /// PostgreSQL's URL, from the options or the environment.
    func postgresURL() throws -> String? {
        try postgres.url(environment: ProcessEnvironment.current, alsoFrom: ["DATABASE_URL"])
    }

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError(CommandText.optionBetween("--port", 0, 65_535)) }
        if let sshPort, !(0...65_535).contains(sshPort) { throw ValidationError(CommandText.optionBetween("--ssh-port", 0, 65_535)) }
        if let sshConnectionsPerAddress, sshConnectionsPerAddress < 1 { throw ValidationError(CommandText.optionAtLeast("--ssh-connections-per-address", 1)) }
        if let sshIdleSeconds, sshIdleSeconds < 1 { throw ValidationError(CommandText.optionAtLeast("--ssh-idle-seconds", 1)) }
        if let sshLoginGraceSeconds, sshLoginGraceSeconds < 1 { throw ValidationError(CommandText.optionAtLeast("--ssh-login-grace-seconds", 1)) }
        if let activitySeconds, activitySeconds < 1 { throw ValidationError(CommandText.optionAtLeast("--activity-seconds", 1)) }
        for (name, seconds) in [("--head-seconds", headSeconds), ("--idle-seconds", idleSeconds), ("--hello-seconds", helloSeconds),
                                ("--write-stall-seconds", writeStallSeconds), ("--shutdown-seconds", shutdownSeconds),
                                ("--postgres-seconds", postgresSeconds)] {
            if let seconds, seconds < 1 { throw ValidationError(CommandText.optionAtLeast(name, 1)) }
        }
        let budget = 1...Int(TapBudget.maximum)
        if let addressTapsPerSecond, !budget.contains(addressTapsPerSecond) {
            throw ValidationError(CommandText.optionBetween("--address-taps-per-second", 1, budget.upperBound))
        }
        if let addressBurst, !budget.contains(addressBurst) {
            throw ValidationError(CommandText.optionBetween("--address-burst", 1, budget.upperBound))
        }
        if let maximumDevices, maximumDevices < 1 {
            throw ValidationError(CommandText.optionAtLeast("--maximum-devices", 1))
        }
        if from != nil, try postgresURL() == nil {
            throw ValidationError(CommandText.moveNeedsPostgres)
        }
    }

    func run(in context: CommandContext) throws {
        let postgresURL = try postgresURL()
        try context.network.serve(ServeRequest(
            host: host, port: port, dataDirectory: data.directory, postgresURL: postgresURL, moveFrom: from,
            trustedProxies: trustedProxies, connectionsPerAddress: connectionsPerAddress, socketsPerAddress: socketsPerAddress, devicesPerAddress: devicesPerAddress,
            addressTapsPerSecond: addressTapsPerSecond, addressBurst: addressBurst, maximumDevices: maximumDevices,
            seasonLength: season,
            logLevel: ProcessEnvironment.current["LOG_LEVEL"], language: Language.fromLocale(environment: ProcessEnvironment.current),
            activitySeconds: activitySeconds, headSeconds: headSeconds, idleSeconds: idleSeconds, helloSeconds: helloSeconds,
            writeStallSeconds: writeStallSeconds, shutdownSeconds: shutdownSeconds,
            postgresSeconds: postgresSeconds, clockOffsetMs: clockOffsetMs, adminTokenFile: adminTokenFile,
            adminToken: ProcessEnvironment.current[AdminTokenEnvironment.name], sshPort: sshPort,
            sshConnectionsPerAddress: sshConnectionsPerAddress, sshIdleSeconds: sshIdleSeconds,
            sshLoginGraceSeconds: sshLoginGraceSeconds), output: context.output)
    }
}
