import ArgumentParser
import TouchSchoolCore
import TouchSchoolStore

struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: CommandText.serveAbstract,
        discussion: """
            Needs no setup: the battle lives in the data directory's battle.sqlite (the first start \
            moves in a state.json of an earlier release, once, and leaves it as it was), and the \
            catalog served is the directory's imported list, else the starter catalog. \
            Prints the address it listens on (with --port 0, the port chosen), then, in the \
            locale's language, what to hand out to a class: the page's address for phones, the \
            projector's (/?board), the `touchschool --server` line and a QR code of the phone \
            address (with --host 0.0.0.0, for each of this machine's network addresses); then, \
            each minute something happened, the players connected and the taps of that minute. \
            SIGTERM or Ctrl-C: saves and acknowledges what arrived, closes every connection, exits 0. \
            The protocol: docs/protocol.md. Logs go to standard error ($LOG_LEVEL: trace … critical).

            With --postgres-file (or --postgres, $TOUCHSCHOOL_POSTGRES_URL, $DATABASE_URL), the scores, devices and catalog live in PostgreSQL \
            instead, shared by every server started with the same URL (run as many as needed behind \
            a load balancer: docs/operations.md). The schema is created or updated at start.
            """)

    @Option(help: ArgumentHelp("The address to listen on (0.0.0.0: every interface, for other machines).", valueName: "host"))
    var host = "127.0.0.1"

    @Option(help: ArgumentHelp("The port to listen on (0: any free port).", valueName: "port"))
    var port = 8080

    @Option(help: ArgumentHelp("Also serve the game itself over SSH on this port, on the same host (0: any free port): `ssh -p PORT NAME@HOST` plays with nothing installed. The host key is made once in the data directory (ssh_host_ed25519_key); its fingerprint is printed at start.",
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

    @Option(help: ArgumentHelp("The taps a second all players from one address (an IPv6 /64) may have counted together, sustained (default 2000: a school lab of 40 behind one NAT at full speed).",
                               valueName: "taps"))
    var addressTapsPerSecond: Int?

    @Option(help: ArgumentHelp("The taps all players from one address may have counted at once (default 10000: a lab coming back from a short outage).",
                               valueName: "taps"))
    var addressBurst: Int?

    @Option(help: ArgumentHelp("The players (devices) the battle may hold; past it new players are refused and the others play on (default 2000000).",
                               valueName: "count"))
    var maximumDevices: Int?

    /// Where PostgreSQL is: --postgres, --postgres-file, $TOUCHSCHOOL_POSTGRES_URL or $DATABASE_URL;
    /// with none, the battle lives in the data directory.
    @OptionGroup var postgres: PostgresOptions

    @Option(help: ArgumentHelp("With --postgres: first move the scores, devices and catalog of an embedded server's data directory into PostgreSQL, once (a second move is refused).",
                               valueName: "dir"))
    var from: String?

    @Option(name: .customLong("trusted-proxy"),
            help: ArgumentHelp("A load balancer's address (given once per balancer): connections from it are counted by the address its X-Forwarded-For names, for the per-address limits.",
                               valueName: "ip"))
    var trustedProxies: [String] = []

    @Option(name: .customLong("admin-token-file"),
            help: ArgumentHelp("A file holding the operator's token for the admin API (/v1/admin/), e.g. one shared by every server on one PostgreSQL (default: $TOUCHSCHOOL_ADMIN_TOKEN, else the data directory's admin.token, made at the first start).",
                               valueName: "file"),
            completion: .file())
    var adminTokenFile: String?

    @OptionGroup var data: DataDirectoryOptions

    /// PostgreSQL's URL, from the options or the environment.
    func postgresURL() throws -> String? {
        try postgres.url(environment: ProcessEnvironment.current, alsoFrom: ["DATABASE_URL"])
    }

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be between 0 and 65535") }
        if let sshPort, !(0...65_535).contains(sshPort) { throw ValidationError("--ssh-port must be between 0 and 65535") }
        if let sshConnectionsPerAddress, sshConnectionsPerAddress < 1 { throw ValidationError("--ssh-connections-per-address must be at least 1") }
        if let sshIdleSeconds, sshIdleSeconds < 1 { throw ValidationError("--ssh-idle-seconds must be at least 1") }
        if let sshLoginGraceSeconds, sshLoginGraceSeconds < 1 { throw ValidationError("--ssh-login-grace-seconds must be at least 1") }
        if let activitySeconds, activitySeconds < 1 { throw ValidationError("--activity-seconds must be at least 1") }
        let budget = 1...Int(TapBudget.maximum)
        if let addressTapsPerSecond, !budget.contains(addressTapsPerSecond) {
            throw ValidationError("--address-taps-per-second must be between 1 and \(budget.upperBound)")
        }
        if let addressBurst, !budget.contains(addressBurst) {
            throw ValidationError("--address-burst must be between 1 and \(budget.upperBound)")
        }
        if let maximumDevices, maximumDevices < 1 {
            throw ValidationError("--maximum-devices must be at least 1")
        }
        if from != nil, try postgresURL() == nil {
            throw ValidationError("--from moves a data directory into PostgreSQL: give --postgres-file, --postgres or $DATABASE_URL too")
        }
    }

    func run() throws {
        let postgresURL = try postgresURL()
        try network.serve(ServeRequest(
            host: host, port: port, dataDirectory: data.directory, postgresURL: postgresURL, moveFrom: from,
            trustedProxies: trustedProxies, connectionsPerAddress: connectionsPerAddress, socketsPerAddress: socketsPerAddress, devicesPerAddress: devicesPerAddress,
            addressTapsPerSecond: addressTapsPerSecond, addressBurst: addressBurst, maximumDevices: maximumDevices,
            logLevel: ProcessEnvironment.current["LOG_LEVEL"], language: Language.fromLocale(environment: ProcessEnvironment.current),
            activitySeconds: activitySeconds, adminTokenFile: adminTokenFile,
            adminToken: ProcessEnvironment.current[AdminTokenEnvironment.name], sshPort: sshPort,
            sshConnectionsPerAddress: sshConnectionsPerAddress, sshIdleSeconds: sshIdleSeconds,
            sshLoginGraceSeconds: sshLoginGraceSeconds))
    }
}
