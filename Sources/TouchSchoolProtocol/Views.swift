import Foundation
import TouchSchoolCore

/// One row of a ranking on the wire: `[rank, school id, total]`, an array so that the rows a
/// player receives several times a second stay small (docs/protocol.md, "Views").
public struct RankedRow: Codable, Equatable, Sendable {
    public var rank: Int
    public var school: String
    public var total: UInt64

    public init(rank: Int, school: String, total: UInt64) {
        self.rank = rank
        self.school = school
        self.total = total
    }

    public init(from decoder: any Decoder) throws {
        var row = try decoder.unkeyedContainer()
        rank = try row.decode(Int.self)
        school = try row.decode(String.self)
        total = try row.decode(UInt64.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var row = encoder.unkeyedContainer()
        try row.encode(rank)
        try row.encode(school)
        try row.encode(total)
    }
}

/// Where a school stands in one league: `[rank, size, gap]`, gap `null` for a leader.
public struct Standing: Codable, Equatable, Sendable {
    public var rank: Int
    /// How many schools the league holds.
    public var size: Int
    /// Taps to the school above (one more overtakes it); nil for a leader, tied leaders included.
    public var gap: UInt64?

    public init(rank: Int, size: Int, gap: UInt64?) {
        self.rank = rank
        self.size = size
        self.gap = gap
    }

    public init(from decoder: any Decoder) throws {
        var standing = try decoder.unkeyedContainer()
        rank = try standing.decode(Int.self)
        size = try standing.decode(Int.self)
        gap = try standing.decodeNil() ? nil : try standing.decode(UInt64.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var standing = encoder.unkeyedContainer()
        try standing.encode(rank)
        try standing.encode(size)
        if let gap { try standing.encode(gap) } else { try standing.encodeNil() }
    }
}

/// What a player's screen shows of the battle (protocol 2): its school's total, its rank in each
/// of its four leagues (national, its level, its province, its level in its province), the
/// schools around it nationally and the national top. Sent when it changes, at most every
/// `PlayProtocol.viewIntervalMilliseconds`; every player of a school receives the same bytes.
public struct SchoolViewMessage: Codable, Equatable, Sendable {
    /// The board version it was computed at: grows with every save that changed a total.
    public var version: UInt64
    public var school: String
    public var total: UInt64
    /// National, level, province, level in province: as `League.leagues(of:)` orders them.
    public var ranks: [Standing]
    /// The national rows just above the school (up to 2), nearest last.
    public var above: [RankedRow]
    /// The national rows just below (up to 2), nearest first.
    public var below: [RankedRow]
    /// The national top 3.
    public var top: [RankedRow]

    public init(version: UInt64, school: String, total: UInt64, ranks: [Standing], above: [RankedRow], below: [RankedRow],
                top: [RankedRow]) {
        self.version = version
        self.school = school
        self.total = total
        self.ranks = ranks
        self.above = above
        self.below = below
        self.top = top
    }
}

/// A league on the wire: `{}` for the nation, `{"level": "high"}`, `{"province": "서울특별시"}`,
/// or both. `level` is `elementary`, `middle` or `high`.
public struct LeagueName: Codable, Hashable, Sendable {
    public var level: String?
    public var province: String?

    public init(level: String? = nil, province: String? = nil) {
        self.level = level
        self.province = province
    }
}

/// `watch` (client → server, protocol 2): the page of a league the screen shows, `count` places
/// from place `from` (0-based), instead of the page watched before; without `league`, no page.
/// Answered at the next interval with a `page`, then whenever that page changes. `period`: the
/// numbers the connection's view and page carry from now (`"all"`: all time; left out: the season).
public struct Watch: Codable, Equatable, Sendable {
    public var league: LeagueName?
    public var from: Int
    public var count: Int
    public var period: RankingPeriod

    public init(league: LeagueName?, from: Int = 0, count: Int = 0, period: RankingPeriod = .season) {
        self.league = league
        self.from = from
        self.count = count
        self.period = period
    }

    private enum CodingKeys: String, CodingKey { case league, from, count, period }

    /// `from` and `count` may be left out with the league (no page), `period` for the season.
    public init(from decoder: any Decoder) throws {
        let members = try decoder.container(keyedBy: CodingKeys.self)
        league = try members.decodeIfPresent(LeagueName.self, forKey: .league)
        from = try members.decodeIfPresent(Int.self, forKey: .from) ?? 0
        count = try members.decodeIfPresent(Int.self, forKey: .count) ?? 0
        let period = try members.decodeIfPresent(String.self, forKey: .period) ?? RankingPeriod.season.rawValue
        guard let known = RankingPeriod(rawValue: period) else {
            throw DecodingError.dataCorruptedError(forKey: .period, in: members, debugDescription: "period is season or all")
        }
        self.period = known
    }

    /// The season is left out: what a client of before seasons sends means the same.
    public func encode(to encoder: any Encoder) throws {
        var members = encoder.container(keyedBy: CodingKeys.self)
        try members.encodeIfPresent(league, forKey: .league)
        if league != nil {
            try members.encode(from, forKey: .from)
            try members.encode(count, forKey: .count)
        }
        if period != .season { try members.encode(period.rawValue, forKey: .period) }
    }

    /// The most rows a page holds: a tall terminal's ranking, twice over.
    public static let maximumCount = 100
    /// The deepest place a page may start at: past any league's end (12,011 schools nationally).
    public static let maximumFrom = 1_000_000
}

/// `page` (server → client): the rows of the watched page, with the league's size so that a
/// screen knows how far it can scroll. Places past the league's end are left out.
public struct PageMessage: Codable, Equatable, Sendable {
    public var version: UInt64
    public var league: LeagueName
    public var from: Int
    public var size: Int
    public var rows: [RankedRow]

    public init(version: UInt64, league: LeagueName, from: Int, size: Int, rows: [RankedRow]) {
        self.version = version
        self.league = league
        self.from = from
        self.size = size
        self.rows = rows
    }
}

/// `GET /v1/map`: the catalog's schools on the map's fixed grid (`MapGrid`), for a screen that
/// shows the map; asked once per catalog (the `map` message names the catalog it is of).
public struct MapGridAnswer: Codable, Equatable, Sendable {
    /// The catalog's entity tag, without its quotes.
    public var catalog: String
    public var columns: Int
    public var rows: Int
    /// The provinces as the catalog names them; a cell names one by its index.
    public var provinces: [String]
    /// `MapGrid.encodedCells`.
    public var cells: String
    /// The starter list, which has no coordinates: each school is at its province's seat, and the
    /// screen says that the full map comes with `touchschool import`.
    public var starter: Bool

    public init(catalog: String, columns: Int, rows: Int, provinces: [String], cells: String, starter: Bool) {
        self.starter = starter
        self.catalog = catalog
        self.columns = columns
        self.rows = rows
        self.provinces = provinces
        self.cells = cells
    }
}
