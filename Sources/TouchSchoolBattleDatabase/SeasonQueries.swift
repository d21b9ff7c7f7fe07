import TouchSchoolCore

extension League {
    /// The league's columns in the seasons' halls (SQLite's and PostgreSQL's): its level and
    /// province, '' for none (the fields of the wire's `LeagueName`).
    public var storedColumns: (level: String, province: String) {
        switch self {
        case .national: ("", "")
        case let .level(level): (level.rawValue, "")
        case let .province(province): ("", province)
        case let .levelInProvince(level, province): (level.rawValue, province)
        }
    }

    /// The league stored as `level` and `province` (nil: a level none of the three).
    public init?(storedLevel level: String, province: String) {
        let known = SchoolLevel(rawValue: level)
        if !level.isEmpty && known == nil { return nil }
        switch (known, province.isEmpty ? nil : province) {
        case (nil, nil): self = .national
        case let (level?, nil): self = .level(level)
        case let (nil, province?): self = .province(province)
        case let (level?, province?): self = .levelInProvince(level, province)
        }
    }
}

/// The seasons in the battle database (schema 8): the length set (`meta`), each season's school
/// totals (`season_scores`) and what each device counted in it (`season_players`).
extension BattleDatabase.Writing {
    /// The season's length as set (none when it never was).
    public func seasonLength() throws(SQLiteError) -> SeasonLength {
        try connection.statement("SELECT value FROM meta WHERE key = 'season_length'")
            .row { $0.text(0).flatMap(SeasonLength.init(rawValue:)) }.flatMap { $0 } ?? .none
    }

    public func setSeasonLength(_ length: SeasonLength) throws(SQLiteError) {
        try connection.statement("""
            INSERT INTO meta (key, value) VALUES ('season_length', ?1) ON CONFLICT (key) DO UPDATE SET value = excluded.value
            """).bind(.text(length.rawValue)).run()
    }

    /// Adds what a commit counted for a device in a season, per school.
    public func addToSeason(_ season: Season, device: String, bySchool: [String: UInt64]) throws(SQLiteError) {
        for (school, taps) in bySchool.sorted(by: { $0.key < $1.key }) where taps > 0 {
            try connection.statement("""
                INSERT INTO season_players (length, number, device, school, taps) VALUES (?1, ?2, ?3, ?4, ?5)
                ON CONFLICT (length, number, device, school) DO UPDATE SET taps = taps + excluded.taps
                """).bind(.text(season.length.rawValue), .integer(season.number), .text(device), .text(school),
                          .integer(Int64(clamping: taps))).run()
        }
    }

    /// Adds a commit's increments to a season's school totals: one row per school it touched.
    public func addToSeasonScores(_ season: Season, _ increments: [String: UInt64]) throws(SQLiteError) {
        for (school, taps) in increments.sorted(by: { $0.key < $1.key }) where taps > 0 {
            try connection.statement("""
                INSERT INTO season_scores (length, number, school, total) VALUES (?1, ?2, ?3, ?4)
                ON CONFLICT (length, number, school) DO UPDATE SET total =
                    CASE WHEN total > 9223372036854775807 - excluded.total THEN 9223372036854775807 ELSE total + excluded.total END
                """).bind(.text(season.length.rawValue), .integer(season.number), .text(school), .integer(Int64(clamping: taps))).run()
        }
    }

    /// Takes what a device counted in every season off the seasons' totals, and its rows with it
    /// (a ban with removeTaps, in the same transaction as the all-time totals).
    public func removeSeasonTaps(device: String) throws(SQLiteError) {
        let counted = try connection.statement("SELECT length, number, school, taps FROM season_players WHERE device = ?1")
            .bind(.text(device)).rows { ($0.text(0) ?? "", $0.int64(1), $0.text(2) ?? "", $0.int64(3)) }
        for (length, number, school, taps) in counted {
            try connection.statement("""
                UPDATE season_scores SET total = max(0, total - ?4) WHERE length = ?1 AND number = ?2 AND school = ?3
                """).bind(.text(length), .integer(number), .text(school), .integer(taps)).run()
        }
        try connection.statement("DELETE FROM season_players WHERE device = ?1").bind(.text(device)).run()
    }

    /// A season's school totals above 0.
    public func seasonTotals(_ season: Season) throws(SQLiteError) -> [String: UInt64] {
        var totals: [String: UInt64] = [:]
        for (school, total) in try connection.statement(
            "SELECT school, total FROM season_scores WHERE length = ?1 AND number = ?2 AND total > 0")
            .bind(.text(season.length.rawValue), .integer(season.number)).rows({ ($0.text(0) ?? "", UInt64(max(0, $0.int64(1)))) }) {
            totals[school] = total
        }
        return totals
    }

    /// A season's totals of `schools` (0 for those without a row).
    public func seasonTotals(_ season: Season, schools: [String]) throws(SQLiteError) -> [String: UInt64] {
        var totals: [String: UInt64] = [:]
        for school in schools {
            let read = try connection.statement("SELECT total FROM season_scores WHERE length = ?1 AND number = ?2 AND school = ?3")
                .bind(.text(season.length.rawValue), .integer(season.number), .text(school)).rows({ UInt64(max(0, $0.int64(0))) })
            totals[school] = read.first ?? 0
        }
        return totals
    }

    /// What each device counted in a season, per school.
    public func seasonPlayers(_ season: Season) throws(SQLiteError) -> [String: [String: UInt64]] {
        var players: [String: [String: UInt64]] = [:]
        for (device, school, taps) in try connection.statement(
            "SELECT device, school, taps FROM season_players WHERE length = ?1 AND number = ?2")
            .bind(.text(season.length.rawValue), .integer(season.number))
            .rows({ ($0.text(0) ?? "", $0.text(1) ?? "", UInt64(max(0, $0.int64(2)))) }) {
            players[device, default: [:]][school] = taps
        }
        return players
    }

    /// Takes the hall of fame of `season` (`SeasonFame.due`) from its totals now, unless it was
    /// taken already: once for every season.
    public func takeHallOfFame(_ season: Season, catalog: Catalog) throws(SQLiteError) {
        let key: [SQLiteValue] = [.text(season.length.rawValue), .integer(season.number)]
        guard try connection.statement("SELECT 1 FROM season_fame_taken WHERE length = ?1 AND number = ?2")
            .bind(key[0], key[1]).row({ _ in true }) == nil else { return }
        try connection.statement("INSERT INTO season_fame_taken (length, number) VALUES (?1, ?2)").bind(key[0], key[1]).run()
        for entry in SeasonFame.of(totals: try seasonTotals(season), catalog: catalog) {
            let (level, province) = entry.league.storedColumns
            try connection.statement("""
                INSERT INTO season_fame (length, number, level, province, place, rank, school, total)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) ON CONFLICT DO NOTHING
                """).bind(key[0], key[1], .text(level), .text(province), .integer(Int64(entry.place)), .integer(Int64(entry.rank)),
                          .text(entry.school), .integer(Int64(clamping: entry.total))).run()
        }
    }

    /// A season's hall of fame as taken (empty: not yet, or no school had a tap); `nationalOnly`:
    /// the national league's alone.
    public func hallOfFame(_ season: Season, nationalOnly: Bool = false) throws(SQLiteError) -> [SeasonFame.Entry] {
        try connection.statement("""
            SELECT level, province, place, rank, school, total FROM season_fame WHERE length = ?1 AND number = ?2
                AND (?3 = 0 OR (level = '' AND province = ''))
            """).bind(.text(season.length.rawValue), .integer(season.number), .integer(nationalOnly ? 1 : 0))
            .rows { row -> SeasonFame.Entry? in
                League(storedLevel: row.text(0) ?? "", province: row.text(1) ?? "").map {
                    SeasonFame.Entry(league: $0, place: Int(row.int64(2)), rank: Int(row.int64(3)), school: row.text(4) ?? "",
                                     total: UInt64(max(0, row.int64(5))))
                }
            }.compactMap { $0 }.sorted(by: SeasonFame.order)
    }

    /// The seasons that counted any taps, newest first (by their start: weeks and months of
    /// lengths set one after the other mix), at most `limit`.
    public func seasons(limit: Int) throws(SQLiteError) -> [Season] {
        // Each length's newest `limit` numbers, one probe of the key each (not a scan of every
        // school's row of every season).
        var seasons: [Season] = []
        for length in SeasonLength.allCases where length != .none {
            var below = Int64.max
            while seasons.count(where: { $0.length == length }) < limit, let number = try connection.statement("""
                SELECT number FROM season_scores WHERE length = ?1 AND number < ?2 ORDER BY number DESC LIMIT 1
                """).bind(.text(length.rawValue), .integer(below)).row({ $0.int64(0) }) {
                if let season = Season.numbered(length, number) { seasons.append(season) }
                below = number
            }
        }
        return Array(seasons.sorted { ($0.startsAtMs, $0.endsAtMs) > ($1.startsAtMs, $1.endsAtMs) }.prefix(limit))
    }
}
