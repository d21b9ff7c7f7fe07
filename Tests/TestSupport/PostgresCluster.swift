import Foundation
import Synchronization

/// A throwaway PostgreSQL cluster on loopback for one test, through `scripts/pg-cluster` (the
/// script the load benchmark uses too): created in a temporary directory on a free
/// port, stopped and deleted by `stop()` (also at deinit), passing or failing.
///
/// A test that does not stop or restart the server takes `freshDatabase()` instead: a database of
/// its own on one cluster the test process shares, dropped by `stop()`. A cluster's initdb and
/// start cost 3 to 6 s on two cores; a database costs a tenth of a second.
///
/// Without PostgreSQL installed, `start()` throws: tests that need it fail, never pass silently
/// (`scripts/test` installs it; a developer: `apt-get install postgresql`).
public final class PostgresCluster: @unchecked Sendable {
    public let directory: String
    public private(set) var url: String
    private var removed = false
    /// In a shared cluster, the database this one is (dropped at `stop`); nil for a cluster of its own.
    private let database: String?
    private var dropped = false

    static let script: String = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("scripts/pg-cluster").path

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public init() throws {
        var template = Array("/tmp/touchschool-pg-XXXXXX".utf8CString)
        directory = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
        url = ""
        database = nil
        do { url = try Self.runScript(["start", directory]) } catch {
            remove()
            throw error
        }
    }

    private init(shared: PostgresCluster, database: String) {
        directory = shared.directory
        self.database = database
        removed = true // the directory is the shared cluster's
        url = shared.url.replacingOccurrences(of: "/postgres?", with: "/\(database)?")
    }

    /// The cluster the process's fresh databases live in: started at the first, stopped and
    /// deleted when the test process exits.
    private static let shared = Mutex<PostgresCluster?>(nil)
    private static let databases = Atomic<Int>(0)

    /// A new, empty database of its own on the process's shared cluster.
    public static func freshDatabase() throws -> PostgresCluster {
        let cluster = try shared.withLock { shared in
            if let shared { return shared }
            let started = try PostgresCluster()
            shared = started
            atexit { PostgresCluster.shared.withLock { $0?.stop() } }
            return started
        }
        let name = "test_\(getpid())_\(databases.add(1, ordering: .relaxed).newValue)"
        _ = try cluster.psql("CREATE DATABASE \(name)")
        return PostgresCluster(shared: cluster, database: name)
    }

    /// Starts it again after `stop(removing: false)`, on the same port.
    public func start() throws {
        precondition(database == nil, "a database of the shared cluster cannot restart it")
        url = try Self.runScript(["start", directory])
    }

    /// Stops the server; `immediate` is a crash-like stop (no checkpoint, clients cut at once).
    /// A database of the shared cluster is dropped instead, its clients cut.
    public func stop(immediate: Bool = true, removing: Bool = true) {
        if let database {
            precondition(removing, "a database of the shared cluster cannot stop it")
            guard !dropped else { return }
            dropped = true
            let shared = url.replacingOccurrences(of: "/\(database)?", with: "/postgres?")
            _ = Subprocess.run(Self.tool("psql"), ["-X", "-q", shared, "-c", "DROP DATABASE IF EXISTS \(database) WITH (FORCE)"])
            return
        }
        _ = try? Self.runScript(["stop", directory, immediate ? "immediate" : "fast"])
        if removing { remove() }
    }

    /// Runs SQL with psql against the cluster; what it printed (unaligned, tuples only).
    /// `application`: the session's `application_name`, by which another finds it in
    /// `pg_stat_activity` (to end a session that holds a lock).
    public func psql(_ sql: String, application: String? = nil) throws -> String {
        let psql = ["/usr/bin/psql"].first { FileManager.default.isExecutableFile(atPath: $0) } ?? "psql"
        let session = application.map { "\(url)\(url.contains("?") ? "&" : "?")application_name=\($0)" } ?? url
        let result = Subprocess.run(psql, ["-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", session, "-c", sql])
        guard result.status == 0 else { throw Failure(description: "psql \(sql): \(result.error)") }
        return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `pg_dump` of the database, in its custom format, to `file`: a backup as an operator makes one.
    public func dump(to file: String) throws {
        let result = Subprocess.run(Self.tool("pg_dump"), ["-Fc", "-f", file, url])
        guard result.status == 0 else { throw Failure(description: "pg_dump: \(result.error)") }
    }

    /// The database restored from a `dump`, as an operator restores one: everything in it dropped,
    /// then `pg_restore`.
    public func restore(from file: String) throws {
        _ = try psql("DROP SCHEMA public CASCADE; CREATE SCHEMA public")
        let result = Subprocess.run(Self.tool("pg_restore"), ["--no-owner", "-d", url, file])
        guard result.status == 0 else { throw Failure(description: "pg_restore: \(result.error)") }
    }

    /// A PostgreSQL client program: Debian's wrapper on the PATH, else the newest version's own.
    static func tool(_ name: String) -> String {
        let candidates = ["/usr/bin/\(name)"] + ((try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? [])
            .sorted { $0.compare($1, options: .numeric) == .orderedDescending }.map { "/usr/lib/postgresql/\($0)/bin/\(name)" }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) } ?? name
    }

    private func remove() {
        guard !removed else { return }
        removed = true
        try? FileManager.default.removeItem(atPath: directory)
    }

    deinit { stop() }

    private static func runScript(_ arguments: [String]) throws -> String {
        let result = Subprocess.run("/bin/bash", [script] + arguments)
        guard result.status == 0 else {
            throw Failure(description: "scripts/pg-cluster \(arguments.joined(separator: " ")) failed (\(result.status)): \(result.error)")
        }
        return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
