import TouchSchoolCore
import TouchSchoolLocalBattle

/// What the commands need the network for: `serve`, `import --postgres`, and a server's battle
/// (`--server URL` or `$TOUCHSCHOOL_SERVER`) for `play`, `search`, `rank` and `stats`.
///
/// Why a seam here: the network modules (NIO, Hummingbird, PostgreSQL, HTTP and WebSocket
/// clients) and the Foundation they bring would more than double the memory of a search or of a
/// game on the local battle (BENCHMARKS.md, "Peak memory"). So `touchschool` is built without
/// them and hands these commands, after parsing and before any other work, to the
/// `touchschool-network` executable beside it (`NetworkHandOff`), which runs the same commands with
/// the real implementations (`LiveNetwork`).
public protocol NetworkCommands {
    /// `touchschool serve`: runs until SIGTERM or Ctrl-C, saying on `output` where to join and who plays.
    func serve(_ request: ServeRequest, output: CommandOutput) throws
    /// `touchschool import --postgres URL FILE`: what to tell the user.
    func importIntoPostgres(file: String, url: String, force: Bool) throws -> String
    /// The catalog and board of a server's battle for `search`, `rank` and `stats`, with
    /// `player`'s record as the server knows this device's player: the totals `board` names, of
    /// `period` (the season's while one runs, unless all time's are asked for).
    func loadServerBattle(_ servers: ServerURLs, dataDirectory: String, player: String?, board: ServerBoard, period: RankingPeriod) throws -> ServerBattle
    /// Joins a server's battle for a game: its catalog, and the server's folder in the data
    /// directory held (one game per data directory and server) until `ServerGame.leave`.
    /// Throws `ServerNotAnswering` when no server answered and none was joined before (the game
    /// waits on a screen of its own and tries again).
    func joinServer(_ servers: ServerURLs, dataDirectory: String, player: String) throws -> ServerGame
    /// `touchschool admin …`: what to print.
    func admin(_ request: AdminRequest) throws -> String
    /// `touchschool round …`: what to print.
    func round(_ request: RoundRequest) throws -> String
    /// `touchschool season …`: what to print.
    func season(_ request: SeasonRequest) throws -> String
}

extension CommandError {
    /// `touchschool` could not hand `feature` (`serve`, `--server`…) to `program`, the network's
    /// program, at `path`: the system's error number, said in the commands' language.
    public static func networkProgramMissing(for feature: String, program: String, path: String, errorNumber: Int32) -> CommandError {
        CommandError(CommandText.networkProgramMissing(for: feature, program: program, path: path,
                                                       reason: CommandText.systemError(errorNumber)))
    }
}

/// Which totals of a server's board a command reads.
public enum ServerBoard: Sendable, Equatable {
    /// Every school's (`GET /v1/scores`): `search` and `stats` show any school's rank.
    case whole
    /// The first `count` places of `league`, page by page (`GET /v1/page`): what `rank` prints,
    /// whatever the size of the battle. The ranks of those places need no other total.
    case top(League, count: Int)
}

/// What a command read of a server's battle: its catalog, the totals it asked for with the
/// player's record, and the season those totals are of (nil: all time's; none runs, or all
/// time was asked for).
public struct ServerBattle: Sendable {
    public var catalog: Catalog
    public var state: SavedState
    public var season: Season?

    public init(catalog: Catalog, state: SavedState, season: Season?) {
        self.catalog = catalog
        self.state = state
        self.season = season
    }
}

/// The servers of a battle as the user named them (`--server`, given once or more, else
/// `$TOUCHSCHOOL_SERVER`): the first is joined first, the others are where a game moves when it fails.
public struct ServerURLs: Sendable, Equatable {
    public var first: String
    public var alternates: [String]

    /// The option is named in errors about a URL, so that the user knows which text to fix.
    public var source: String

    public init(first: String, alternates: [String], source: String) {
        self.first = first
        self.alternates = alternates
        self.source = source
    }
}

/// `touchschool serve`'s options, parsed and checked.
public struct ServeRequest: Sendable {
    public var host: String
    public var port: Int
    public var dataDirectory: String
    public var postgresURL: String?
    /// With `postgresURL`: an embedded server's data directory to move into PostgreSQL first.
    public var moveFrom: String?
    public var trustedProxies: [String]
    /// Per-address limits when given (hidden options, for tests and load runs); else the server's own.
    public var connectionsPerAddress: Int?
    public var socketsPerAddress: Int?
    public var devicesPerAddress: Int?
    /// The taps all devices of one address may have accepted, a second and at once; else the server's own.
    public var addressTapsPerSecond: Int?
    public var addressBurst: Int?
    /// The devices the battle may hold; else the server's own.
    public var maximumDevices: Int?
    /// `--season`: the season's length to store (nil: the stored one stays).
    public var seasonLength: SeasonLength?
    public var logLevel: String?
    /// The language of what is printed for the teacher (the locale's).
    public var language: Language
    /// How often the players and taps are said, in seconds, when not every minute (for tests).
    public var activitySeconds: Int?
    /// How long a connection may keep the server waiting, in seconds, when not the server's own
    /// (hidden options, for tests): its first head, an idle keep-alive, a hello, a stalled reader.
    public var headSeconds: Int?
    public var idleSeconds: Int?
    public var helloSeconds: Int?
    public var writeStallSeconds: Int?
    /// How long a graceful shutdown may take, in seconds, when not the server's own (hidden, for tests).
    public var shutdownSeconds: Int?
    /// How long one PostgreSQL operation may wait, in seconds, when not the server's own (hidden, for tests).
    public var postgresSeconds: Int?
    /// How far the battle's time of day is moved from the machine's, in ms (hidden, for tests of a season's boundary).
    public var clockOffsetMs: Int64?
    /// The operator's token: from this file, else `adminToken` ($TOUCHSCHOOL_ADMIN_TOKEN), else the
    /// data directory's admin.token. Never an argument: the process list would show it.
    public var adminTokenFile: String?
    public var adminToken: String?
    /// Also serve the game over SSH on this port (0: any free port); nil: not at all.
    public var sshPort: Int?
    /// SSH limits when given (hidden options, for tests); else the server's own.
    public var sshConnectionsPerAddress: Int?
    public var sshIdleSeconds: Int?
    public var sshLoginGraceSeconds: Int?
}

/// The first join to a server found none answering: the game says why and tries again.
public struct ServerNotAnswering: Error, Sendable {
    /// The address tried first, as the player gave it (`http://host:port`).
    public var server: String
    public var failure: ServerFailure

    public init(server: String, failure: ServerFailure) {
        self.server = server
        self.failure = failure
    }
}

/// A game joined to a server's battle.
public struct ServerGame {
    public var catalog: Catalog
    /// The server joined, as `host:port`: the status line says where the taps go.
    public var server: String
    public var battle: any BattleConnection
    /// Starts the connection and returns the board and the player's record as then known (the
    /// server's word when it answers at once, else the board last seen).
    public var connect: () -> SavedState
    /// Taps handed over and not yet acknowledged by the server.
    public var waitingTaps: () -> UInt64
    /// Where taps still waiting at the end are kept, and for which server: said to the player.
    public var waitingTapsNotice: (UInt64) -> String
    /// Problems the game shows on its first screen (a data directory that cannot be written).
    public var notices: [Notice]
    /// Ends the game's hold on the server's folder in the data directory.
    public var leave: () -> Void

    public init(catalog: Catalog, server: String, battle: any BattleConnection, connect: @escaping () -> SavedState, waitingTaps: @escaping () -> UInt64,
                waitingTapsNotice: @escaping (UInt64) -> String, notices: [Notice], leave: @escaping () -> Void) {
        self.catalog = catalog
        self.server = server
        self.battle = battle
        self.connect = connect
        self.waitingTaps = waitingTaps
        self.waitingTapsNotice = waitingTapsNotice
        self.notices = notices
        self.leave = leave
    }
}
