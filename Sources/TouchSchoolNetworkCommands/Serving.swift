import Foundation
import Logging
import TouchSchoolClient
import TouchSchoolCommandLine
import TouchSchoolOutbox
import TouchSchoolServer
import TouchSchoolSSH
import TouchSchoolStore

/// `touchschool serve`: one battle for players on many machines, until SIGTERM or Ctrl-C.
enum Serving {
    static func serve(_ request: ServeRequest, output: CommandOutput) throws {
        let directory = request.dataDirectory
        do { try DataDirectory.prepare(directory) } catch { throw CommandError(NetworkCommandText.cannotUseDataDirectory(directory, "\(error)")) }
        // One server per directory whose battle is in it (`ServerLock`). Servers sharing a battle
        // in PostgreSQL share its board through PostgreSQL.
        let serverLock = request.postgresURL == nil ? try claim(directory) : nil
        defer { serverLock?.lock.release() }
        if let from = request.moveFrom, let url = request.postgresURL {
            do {
                let moved = try blockingWait { try await PostgresAdministration.moveDataDirectory(from, url: url) }
                try? output.write("touchschool serve: \(moved)\n")
            } catch {
                throw CommandError(NetworkCommandText.cannotMoveIntoPostgres(from, "\(error)"))
            }
        }
        let standard = AddressLimitPolicy.standard
        var configuration = ServerConfiguration(
            host: request.host, port: request.port, dataDirectory: directory, postgresURL: request.postgresURL,
            starterCatalogPath: StarterCatalogFile.path,
            limits: AddressLimitPolicy(connectionsPerAddress: request.connectionsPerAddress ?? standard.connectionsPerAddress,
                                       socketsPerAddress: request.socketsPerAddress ?? standard.socketsPerAddress,
                                       devicesPerAddressPerHour: request.devicesPerAddress ?? standard.devicesPerAddressPerHour,
                                       tapsPerSecond: request.addressTapsPerSecond ?? standard.tapsPerSecond,
                                       tapBurst: request.addressBurst ?? standard.tapBurst))
        configuration.trustedProxies = Set(request.trustedProxies)
        if let maximumDevices = request.maximumDevices { configuration.maximumDevices = maximumDevices }
        configuration.seasonLength = request.seasonLength
        if let offset = request.clockOffsetMs { configuration.clockOffsetMs = offset }
        configuration.adminTokenFile = request.adminTokenFile
        configuration.adminToken = request.adminToken
        configuration.activityInterval = .seconds(request.activitySeconds ?? 60)
        if let seconds = request.headSeconds { configuration.timeouts.head = .seconds(seconds) }
        if let seconds = request.idleSeconds { configuration.timeouts.idle = .seconds(seconds) }
        if let seconds = request.helloSeconds { configuration.timeouts.hello = .seconds(seconds) }
        if let seconds = request.writeStallSeconds { configuration.timeouts.writeStall = .seconds(seconds) }
        if let seconds = request.shutdownSeconds { configuration.maximumShutdown = .seconds(seconds) }
        if let seconds = request.postgresSeconds { configuration.postgresTimeout = .seconds(seconds) }
        let columns = terminalColumns()
        configuration.reportActivity = { activity in
            try? output.write(ServeGreeting.fitted(ServeGreeting.activity(activity, language: request.language), width: columns))
        }
        configuration.reportHTTPSAttempt = { address in
            try? output.write(ServeGreeting.fitted(ServeGreeting.httpsAttempt(from: address, language: request.language), width: columns))
        }
        // The listening line first, as docs/operations.md promises scripts, once HTTP and SSH
        // are both up: the SSH listener is often up before the HTTP one.
        let token = tokenPlace(request)
        let greeting = ServeOutput(output, expectsSSH: request.sshPort != nil) { http, ssh in
            ServeGreeting.text(hosts: http.hosts, port: http.port, ssh: ssh, token: token, language: request.language,
                               width: min(ServeGreeting.width, columns ?? ServeGreeting.width))
        }
        var entrances: [any PlayEntrance] = []
        if let sshPort = request.sshPort {
            var ssh = SSHPolicy.standard
            ssh.connectionsPerAddress = request.sshConnectionsPerAddress ?? ssh.connectionsPerAddress
            ssh.idleTimeoutSeconds = request.sshIdleSeconds ?? ssh.idleTimeoutSeconds
            ssh.loginGraceSeconds = request.sshLoginGraceSeconds ?? ssh.loginGraceSeconds
            entrances.append(SSHEntrance(host: request.host, port: sshPort, policy: ssh, dataDirectory: directory,
                                         language: request.language) { port, fingerprint in
                greeting.sshListening(.init(port: port, fingerprint: fingerprint))
            })
        }
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = logLevel(request.logLevel, standardErrorIsTerminal: isatty(STDERR_FILENO) == 1)
            return handler
        }
        let logger = Logger(label: "touchschool.serve")
        do {
            try blockingWait { [configuration, entrances] in try await TouchSchoolServer.run(configuration, entrances: entrances, logger: logger) { host, port in
                serverLock?.announce(port: port)
                let data = request.postgresURL == nil ? directory : "PostgreSQL"
                // The address as bound, for scripts and logs, in English under any locale (scripts
                // read it; the greeting after it is in the locale's language); on every interface that is no
                // address anyone can type (0.0.0.0), so the line says so instead.
                let bound = host == "0.0.0.0" || host == "::" ? "every interface, port \(port)" : ServeGreeting.baseURL(host: host, port: port)
                let hosts = LANAddresses.hosts(listeningOn: host, interfaces: LANAddresses.current())
                greeting.httpListening(.init(line: "touchschool serve: listening on \(bound) (data: \(data))\n", hosts: hosts, port: port))
            } }
        } catch let error as ServerError {
            throw CommandError(error.description)
        } catch let error as ListeningError {
            throw CommandError(NetworkCommandText.cannotListen(error))
        }
    }

    /// Where this server's admin token is, as `round link` is to find it: the file or the
    /// environment it was given, else its data directory's `admin.token`, named unless the
    /// directory is the one every command uses by default (`$HOME/.local/share/touchschool`:
    /// one chosen by `$TOUCHSCHOOL_HOME` is named too, since the teacher's shell may not have it).
    static func tokenPlace(_ request: ServeRequest) -> ServeGreeting.TokenPlace {
        if let file = request.adminTokenFile { return .file(absolute(file)) }
        if let token = request.adminToken, !token.isEmpty { return .environment }
        let home = ProcessInfo.processInfo.environment.filter { $0.key == "HOME" }
        let directory = absolute(request.dataDirectory)
        return directory == absolute(DataDirectory.resolve(explicit: nil, environment: home)) ? .defaultDataDirectory : .dataDirectory(directory)
    }

    /// `path` from the root: the teacher may run the greeting's command from another directory.
    private static func absolute(_ path: String) -> String {
        guard !path.hasPrefix("/") else { return path }
        return URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath)).standardizedFileURL.path
    }

    /// The terminal's width when standard output is one, for the greeting's layout.
    /// The log's level: `LOG_LEVEL`'s when given. Else, on a terminal (the teacher's, which the
    /// greeting, the minute lines and the https note speak to in the teacher's words), warnings
    /// and errors only, not a line in English for every SSH player who comes and goes; elsewhere
    /// (a service's journal, a file) `info`: every admin request and SSH player, as ever.
    static func logLevel(_ given: String?, standardErrorIsTerminal: Bool) -> Logger.Level {
        given.flatMap(Logger.Level.init(rawValue:)) ?? (standardErrorIsTerminal ? .warning : .info)
    }

    private static func terminalColumns() -> Int? {
        var size = winsize()
        guard isatty(STDOUT_FILENO) == 1, ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    /// The directory's `ServerLock`, or the refusal that names the server holding it.
    private static func claim(_ directory: String) throws -> HeldServerLock {
        let outcome: ServerLock.Outcome
        do { outcome = try ServerLock.claim(dataDirectory: directory) } catch {
            throw CommandError(NetworkCommandText.cannotUseDataDirectory(directory, "\(error)"))
        }
        switch outcome {
        case let .held(lock): return lock
        case let .taken(pid, port): throw CommandError(NetworkCommandText.directoryServed(directory, pid: pid, port: port))
        }
    }
}
