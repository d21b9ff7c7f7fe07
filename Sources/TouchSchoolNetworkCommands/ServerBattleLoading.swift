import TouchSchoolClient
import TouchSchoolCommandLine
import TouchSchoolCore
import TouchSchoolOutbox
import TouchSchoolProtocol
import TouchSchoolStore

/// `search`, `rank` and `stats` with `--server`: what they read from a server's battle.
enum ServerBattleLoading {
    /// The server's catalog (the copy kept in the data directory, refreshed when the server has
    /// another), its board of `period` and the season that is of (nil: all time's), and with
    /// `player` the device's player as the server knows it.
    static func load(_ servers: ServerURLs, dataDirectory: String, player: String?, board: ServerBoard,
                     period: RankingPeriod) throws -> ServerBattle {
        let server = try ServerURLReading.addresses(servers).first
        do {
            let folder = BattleFolder(dataDirectory: dataDirectory, battle: try BattleLocator.ask(server), servers: [server])
            let catalog = try serverCatalog(folder)
            let (scores, season) = try scores(board, of: period, from: server)
            var state = SavedState(scores: scores)
            if let player {
                let device = try DeviceKey.loadOrCreate(dataDirectory: dataDirectory)
                // A device the server does not know yet (404) has no record there.
                if let me = try ServerHTTP.fetchJSON(PlayerState.self, from: server, ServerPaths.me, headers: [(PlayProtocol.deviceHeader, device)],
                                                     absentWhen: 404) {
                    state.players[player] = PlayerRecord(schoolID: me.schoolID, taps: me.taps, bestTapsPerSecond: me.bestTapsPerSecond)
                }
            }
            return ServerBattle(catalog: catalog, state: state, season: season.flatMap(Season.named))
        } catch let error as CommandError {
            throw error
        } catch let error as ServerRequestError where error.failure != nil {
            throw CommandError(NetworkCommandText.cannotReach("\(server)", error.failure!, english: error.description))
        } catch {
            throw CommandError("\(error)")
        }
    }

    /// The totals `board` names, of `period`: the whole board, or the pages of a league's first
    /// places (the schools below them are left out: no total of theirs changes those places'
    /// ranks); and the id of the season they are of, as the server's answer says (nil: all time's).
    private static func scores(_ board: ServerBoard, of period: RankingPeriod,
                               from server: ServerAddress) throws -> (scores: [String: UInt64], season: String?) {
        switch board {
        case .whole:
            let (board, season) = try ServerHTTP.fetchSeasonJSON(Board.self, from: server, path(ServerPaths.scores, period))
            return (board.scores, season)
        case let .top(league, count):
            var scores: [String: UInt64] = [:]
            var season: String?
            var from = 0
            while from < count {
                let asked = min(Watch.maximumCount, count - from)
                let (page, pageSeason) = try ServerHTTP.fetchSeasonJSON(PageMessage.self, from: server,
                                                                        path(ServerPaths.page(LeagueName(league), from: from, count: asked), period))
                for row in page.rows { scores[row.school] = row.total }
                // The first page's: the others are read within moments of it.
                if from == 0 { season = pageSeason }
                from += page.rows.count
                guard page.rows.count == asked, from < page.size else { break }
            }
            return (scores, season)
        }
    }

    /// `path` asking for `period`'s numbers: the season's are the server's default.
    static func path(_ path: String, _ period: RankingPeriod) -> String {
        guard period != .season else { return path }
        return path + (path.contains("?") ? "&" : "?") + "period=" + period.rawValue
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
