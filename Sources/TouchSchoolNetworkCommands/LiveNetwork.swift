import TouchSchoolCommandLine
import TouchSchoolCore
import TouchSchoolStore

/// The commands' network for real: the server, the client and PostgreSQL.
public struct LiveNetwork: NetworkCommands {
    public init() {}

    public func serve(_ request: ServeRequest, output: CommandOutput) throws { try Serving.serve(request, output: output) }

    public func importIntoPostgres(file: String, url: String, force: Bool) throws -> String {
        try PostgresImport.run(file: file, url: url, force: force)
    }

    public func loadServerBattle(_ servers: ServerURLs, dataDirectory: String, player: String?, board: ServerBoard, period: RankingPeriod) throws -> ServerBattle {
        try ServerBattleLoading.load(servers, dataDirectory: dataDirectory, player: player, board: board, period: period)
    }

    public func joinServer(_ servers: ServerURLs, dataDirectory: String, player: String) throws -> ServerGame {
        try ServerGameJoining.join(servers, dataDirectory: dataDirectory, player: player)
    }

    public func admin(_ request: AdminRequest) throws -> String { try AdminRequests.run(request) }

    public func round(_ request: RoundRequest) throws -> String { try RoundRequests.run(request) }
    public func season(_ request: SeasonRequest) throws -> String { try SeasonRequests.run(request) }
}
