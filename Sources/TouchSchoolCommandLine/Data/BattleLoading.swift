import TouchSchoolCore
import TouchSchoolStore

/// The catalog and the battle a one-shot command (`rank`, `search`, `stats`) reads: the data
/// directory's own, or with `--server` the server's, so that the same formatting prints both.
func loadBattle(data: DataDirectoryOptions, server: ServerOptions, player: String? = nil, board: ServerBoard = .whole,
                context: CommandContext) throws -> (catalog: Catalog, state: SavedState) {
    let directory = data.directory
    if let servers = server.urls(environment: ProcessEnvironment.current) {
        return try context.network.loadServerBattle(servers, dataDirectory: directory, player: player, board: board)
    }
    return (try loadCatalog(dataDirectory: directory, output: context.output), try loadSavedState(directory: directory, output: context.output))
}
