import Foundation
import Logging
import PostgresNIO
import Synchronization
import Testing
import TouchSchoolBattleDatabase
import TouchSchoolCore
import TouchSchoolProtocol
import TouchSchoolStore
import TouchSchoolTestSupport
@testable import TouchSchoolServer

/// The stores every store test runs against.
enum StoreKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    /// `sqliteCompacting`: the data directory's database compacting `device_changes` every 3
    /// rows, so that a store test crosses compactions (`sqlite` compacts at the server's 20,000
    /// rows, which no test reaches).
    case sqlite, sqliteCompacting, postgres, memory

    var testDescription: String { rawValue }
}

/// A store under test on storage of its own (a data directory, a PostgreSQL cluster, memory),
/// with the means to restart it and to make its commits fail from inside: the failure comes
/// after the commit has written its devices' rows, so that all-or-nothing is what is tested.
protocol StoreFixture: Sendable {
    var store: any BattleStore { get }
    /// A new store object on the same storage, as a restarted server makes.
    func restarted() async throws -> any BattleStore
    /// Commits fail (inside their transaction) until called with false.
    func failCommits(_ failing: Bool) async throws
    /// What changes when the storage is written to (nil: memory, which has no such mark).
    func writeMark() throws -> String?
    func stop() async
}

/// Runs `body` with a fresh store of `kind`, stopped after, passing or failing.
func withStore(_ kind: StoreKind, _ body: (any StoreFixture) async throws -> Void) async throws {
    let fixture: any StoreFixture = switch kind {
    case .sqlite: try SQLiteFixture()
    case .sqliteCompacting: try SQLiteFixture(compactionRows: 3)
    case .postgres: try await PostgresFixture.start()
    case .memory: MemoryFixture()
    }
    do {
        try await body(fixture)
    } catch {
        await fixture.stop()
        throw error
    }
    await fixture.stop()
}

/// The catalog the store tests play with: three schools.
let storeTestCatalog = Catalog(schools: ["A", "B", "C"].map {
    School(id: $0, name: "\($0) school", level: .high, province: "서울특별시", district: "", address: "")
}, source: .starter)

struct SQLiteFixture: StoreFixture {
    let directory = TemporaryDirectory().path
    let compactionRows: Int?
    let store: any BattleStore

    init(compactionRows: Int? = nil) throws {
        self.compactionRows = compactionRows
        store = try SQLiteBattleStore(dataDirectory: directory, starterCatalogPath: nil, compactionRows: compactionRows)
    }

    func restarted() throws -> any BattleStore {
        try SQLiteBattleStore(dataDirectory: directory, starterCatalogPath: nil, compactionRows: compactionRows)
    }

    /// A trigger on the board's row, which a commit updates after its devices' rows.
    func failCommits(_ failing: Bool) throws {
        try sqlite3(BattleDatabase.path(inDataDirectory: directory), failing
            ? "CREATE TRIGGER injected_failure BEFORE UPDATE ON board BEGIN SELECT RAISE(ABORT, 'injected failure'); END"
            : "DROP TRIGGER injected_failure")
    }

    /// The write-ahead log's size: every transaction that wrote appends its pages to it.
    func writeMark() throws -> String? {
        let attributes = try FileManager.default.attributesOfItem(atPath: BattleDatabase.path(inDataDirectory: directory) + "-wal")
        return "\(attributes[.size] ?? 0)"
    }

    func stop() { try? FileManager.default.removeItem(atPath: directory) }
}

final class PostgresFixture: StoreFixture {
    let cluster: PostgresCluster
    let store: any BattleStore
    private let clients: Mutex<[Task<Void, Never>]>

    private init(cluster: PostgresCluster, store: any BattleStore, client: Task<Void, Never>) {
        self.cluster = cluster
        self.store = store
        clients = Mutex([client])
    }

    static func start() async throws -> PostgresFixture {
        let cluster = try PostgresCluster.freshDatabase()
        do {
            let (store, client) = try await connect(cluster.url)
            return PostgresFixture(cluster: cluster, store: store, client: client)
        } catch {
            cluster.stop()
            throw error
        }
    }

    /// A store on its own client, migrated, as a server starts.
    private static func connect(_ url: String) async throws -> (PostgresBattleStore, Task<Void, Never>) {
        let logger = Logger(label: "store-test")
        let client = PostgresClient(configuration: try PostgresSchema.configuration(url: url), backgroundLogger: logger)
        let running = Task { await client.run() }
        do {
            try await PostgresSchema.migrate(client, logger: logger)
        } catch {
            running.cancel()
            throw error
        }
        return (PostgresBattleStore(client: client, starterCatalogPath: nil, logger: logger), running)
    }

    func restarted() async throws -> any BattleStore {
        let (store, client) = try await Self.connect(cluster.url)
        clients.withLock { $0.append(client) }
        return store
    }

    /// A trigger on the board's row, which a commit updates after its devices' rows.
    func failCommits(_ failing: Bool) throws {
        _ = try cluster.psql(failing ? """
            CREATE FUNCTION injected_failure() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'injected failure'; END $$;
            CREATE TRIGGER injected_failure BEFORE UPDATE ON touchschool_board FOR EACH ROW EXECUTE FUNCTION injected_failure();
            """ : "DROP TRIGGER injected_failure ON touchschool_board; DROP FUNCTION injected_failure()")
    }

    /// The row versions of every device (an update, even to the same values, makes a new one)
    /// and the board's version.
    func writeMark() throws -> String? {
        try cluster.psql("SELECT string_agg(device || ':' || xmin::text, ',' ORDER BY device) FROM touchschool_devices")
            + "/" + cluster.psql("SELECT version FROM touchschool_board")
    }

    func stop() async {
        for client in clients.withLock({ $0 }) {
            client.cancel()
            await client.value
        }
        cluster.stop()
    }
}

struct MemoryFixture: StoreFixture {
    let storage = InMemoryBattleStore.Storage()
    let store: any BattleStore

    init() { store = InMemoryBattleStore(storage: storage, catalog: try! CatalogResource(bytes: CatalogFile.encode(storeTestCatalog), source: "test")) }

    func restarted() -> any BattleStore { InMemoryBattleStore(storage: storage, catalog: (store as! InMemoryBattleStore).catalog) }

    func failCommits(_ failing: Bool) { storage.failCommits(failing ? "injected failure" : nil) }

    func writeMark() -> String? { nil }

    func stop() {}
}
