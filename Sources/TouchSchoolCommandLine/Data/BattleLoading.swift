import TouchSchoolCore
import TouchSchoolStore

/// The catalog and the battle a one-shot command (`rank`, `search`, `stats`) reads: the data
/// directory's own (all time: a local battle has no seasons), or with `--server` the server's,
/// of `period`, so that the same formatting prints both.
func loadBattle(data: DataDirectoryOptions, server: ServerOptions, player: String? = nil, board: ServerBoard = .whole,
                period: RankingPeriod = .season, context: CommandContext) throws -> ServerBattle {
    let directory = data.directory
    if let servers = server.urls(environment: ProcessEnvironment.current) {
        return try context.network.loadServerBattle(servers, dataDirectory: directory, player: player, board: board, period: period)
    }
    return ServerBattle(catalog: try loadCatalog(dataDirectory: directory, output: context.output),
                        state: try loadSavedState(directory: directory, output: context.output), season: nil)
}
