import TouchSchoolClient
import TouchSchoolCommandLine
import TouchSchoolCore
import TouchSchoolOutbox
import TouchSchoolProtocol
import TouchSchoolStore

/// `search`, `rank` and `stats` with `--server`: what they read from a server's battle.
enum ServerBattleLoading {
    /// The server's catalog (the copy kept in the data directory, refreshed when the server has
    /// another), its board, and with `player` the device's player as the server knows it.
    static func load(_ servers: ServerURLs, dataDirectory: String, player: String?, board: ServerBoard) throws -> (catalog: Catalog, state: SavedState) {
        let server = try ServerURLReading.addresses(servers).first
        do {
            let folder = BattleFolder(dataDirectory: dataDirectory, battle: try BattleLocator.ask(server), servers: [server])
            let catalog = try serverCatalog(folder)
            var state = SavedState(scores: try scores(board, from: server))
            if let player {
                let device = try DeviceKey.loadOrCreate(dataDirectory: dataDirectory)
                // A device the server does not know yet (404) has no record there.
                if let me = try ServerHTTP.fetchJSON(PlayerState.self, from: server, ServerPaths.me, headers: [(PlayProtocol.deviceHeader, device)],
                                                     absentWhen: 404) {
                    state.players[player] = PlayerRecord(schoolID: me.schoolID, taps: me.taps, bestTapsPerSecond: me.bestTapsPerSecond)
                }
            }
            return (catalog, state)
        } catch let error as CommandError {
            throw error
        } catch let error as ServerRequestError where error.failure != nil {
            throw CommandError(NetworkCommandText.cannotReach("\(server)", error.failure!, english: error.description))
        } catch {
            throw CommandError("\(error)")
        }
    }

    /// The totals `board` names: the whole board, or the pages of a league's first places
    /// (the schools below them are left out: no total of theirs changes those places' ranks).
    private static func scores(_ board: ServerBoard, from server: ServerAddress) throws -> [String: UInt64] {
        switch board {
        case .whole:
            return try ServerHTTP.fetchJSON(Board.self, from: server, ServerPaths.scores).scores
        case let .top(league, count):
            var scores: [String: UInt64] = [:]
            var from = 0
            while from < count {
                let asked = min(Watch.maximumCount, count - from)
                let page = try ServerHTTP.fetchJSON(PageMessage.self, from: server, ServerPaths.page(LeagueName(league), from: from, count: asked))
                for row in page.rows { scores[row.school] = row.total }
                from += page.rows.count
                guard page.rows.count == asked, from < page.size else { break }
            }
            return scores
        }
    }

    /// The kept copy of the server's catalog when the server says it is current (304), else the
    /// server's, kept for next time.
    private static func serverCatalog(_ folder: BattleFolder) throws -> Catalog {
        let cached = folder.cachedCatalog()
        var headers: [(String, String)] = []
        if let etag = cached?.etag { headers.append(("If-None-Match", etag)) }
        let response = try ServerHTTP.getWaiting(folder.server, ServerPaths.catalog, headers: headers, timeoutSeconds: 30)
        if response.status == 304, let cached { return cached.catalog }
        guard response.status == 200 else {
            throw CommandError(NetworkCommandText.catalogAnswered("\(folder.server)", path: ServerPaths.catalog, status: response.status))
        }
        do {
            return try folder.saveCatalog(bytes: response.body, etag: response.etag)
        } catch {
            throw CommandError(NetworkCommandText.serversCatalogUnusable("\(folder.server)", "\(error)"))
        }
    }
}
