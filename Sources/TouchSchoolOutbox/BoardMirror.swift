import TouchSchoolCore
import TouchSchoolProtocol

/// The battle as the server last showed it (protocol 2): the view of this device's school, the
/// page of the league watched, the totals those named and this device's player. What the game
/// shows is this plus the taps still waiting in the outbox. Kept on disk, so that a game started
/// offline shows the last views.
public struct BoardMirror: Codable, Equatable, Sendable {
    /// The totals of the schools the views named, as last heard, with the taps of acknowledged
    /// batches added until the next view says them.
    public var scores: [String: UInt64]
    public var player: PlayerState?
    public var view: SchoolViewMessage?
    public var page: PageMessage?

    public init(scores: [String: UInt64] = [:], player: PlayerState? = nil, view: SchoolViewMessage? = nil, page: PageMessage? = nil) {
        self.scores = scores
        self.player = player
        self.view = view
        self.page = page
    }

    /// A welcome brings the player (the views follow it).
    public mutating func take(_ welcome: Welcome) {
        player = welcome.player
    }

    /// A view of the player's school: its totals replace those heard before.
    public mutating func take(_ view: SchoolViewMessage) {
        self.view = view
        scores[view.school] = view.total
        for row in view.above + view.below + view.top { scores[row.school] = row.total }
    }

    /// A page of the league watched: likewise.
    public mutating func take(_ page: PageMessage) {
        self.page = page
        for row in page.rows { scores[row.school] = row.total }
    }

    /// A batch is saved on the server. Its taps leave the outbox now, so they go on the totals now
    /// (when all were counted), until the server's next view says them.
    public mutating func acknowledged(_ ack: Acknowledgement, batch: TapBatch?) {
        player = ack.player
        if let batch, ack.refused == 0 {
            for (id, taps) in batch.taps { scores[id] = scores[id, default: 0].addingSaturating(taps) }
        }
    }

    /// The totals with the outbox's taps added, as the game's store would hold them, for `player`.
    public func savedState(adding outbox: Outbox, player name: String) -> SavedState {
        var scores = self.scores
        var record = player.map { PlayerRecord(schoolID: $0.schoolID, taps: $0.taps, bestTapsPerSecond: $0.bestTapsPerSecond) }
        for batch in outbox.batches {
            for (id, taps) in batch.taps { scores[id] = scores[id, default: 0].addingSaturating(taps) }
            record = BattleRules.player(record ?? PlayerRecord(), adding: batch.playerTaps, switchedTo: batch.switchedToSchool, best: batch.bestTapsPerSecond)
        }
        return SavedState(scores: scores, players: record.map { [name: $0] } ?? [:])
    }

    /// What a `.synced` answer carries: the totals plus the outbox, by position in `catalog`.
    public func board(adding outbox: Outbox, catalog: Catalog, generation: Int, player name: String) -> SyncedBoard {
        SyncedBoard(savedState(adding: outbox, player: name), catalog: catalog, generation: generation, player: name)
    }

    /// The views kept, as the game reads them (by position in `catalog`): what a game starts with,
    /// and what it is given again after the catalog changed.
    public func views(in catalog: Catalog) -> [BoardView] {
        [view.flatMap { SchoolView($0, in: catalog) }.map(BoardView.school), page.flatMap { PageView($0, in: catalog) }.map(BoardView.page)]
            .compactMap { $0 }
    }
}

extension SchoolView {
    /// A view from the server, by position in `catalog`; nil for a school the catalog does not
    /// have. Rows of schools it does not have are left out (the catalog is being refreshed).
    public init?(_ message: SchoolViewMessage, in catalog: Catalog) {
        guard let school = catalog.position(ofID: message.school) else { return nil }
        let leagues = League.leagues(of: catalog[school])
        guard message.ranks.count == leagues.count else { return nil }
        self.init(school: school, count: message.total,
                  standings: zip(leagues, message.ranks).map { LeagueStanding(league: $0, rank: $1.rank, size: $1.size, gap: $1.gap) },
                  above: RankedSchool.rows(message.above, in: catalog), below: RankedSchool.rows(message.below, in: catalog),
                  top: RankedSchool.rows(message.top, in: catalog))
    }
}

extension PageView {
    /// A page from the server, by position in `catalog`; nil for a league no school level names.
    public init?(_ message: PageMessage, in catalog: Catalog) {
        guard let league = League(message.league) else { return nil }
        let rows = RankedSchool.rows(message.rows, in: catalog)
        self.init(league: league, places: message.from..<(message.from + rows.count), size: message.size, rows: rows)
    }
}

extension RankedSchool {
    static func rows(_ rows: [RankedRow], in catalog: Catalog) -> [RankedSchool] {
        rows.compactMap { row in catalog.position(ofID: row.school).map { RankedSchool(position: $0, rank: row.rank, count: row.total) } }
    }
}

extension Watch {
    /// What the game asks for (nil: no page), ranked by `period`, as said on the wire: at most the
    /// places a server sends (a screen taller than a page shows the rest empty).
    public init(_ page: PageWatch?, period: RankingPeriod = .season) {
        self.init(league: page.map { LeagueName($0.league) }, from: min(page?.places.lowerBound ?? 0, Self.maximumFrom),
                  count: min(page?.places.count ?? 0, Self.maximumCount), period: period)
    }
}

extension Season {
    /// The season a server's `season` message names, as the game holds it (nil: a length or
    /// number this version does not know, taken as no season).
    public init?(_ summary: SeasonAnswer.Summary) {
        guard let season = Season.named(summary.id) else { return nil }
        self = season
    }
}
