import TouchSchoolCore
import TouchSchoolProtocol

/// The season the hall's views of the season rank by (issue 50): which one runs, and its school
/// totals as last read, each with the board version it was read at, as the hall keeps all time's
/// (an older reading never overwrites a newer one: a poll and a commit may finish in either order).
/// A reading of another season turns the board: the new season starts from that reading (a
/// commit's schools, or a poll's whole read), every other school at 0.
struct SeasonBoard: Sendable {
    private(set) var season: Season?
    private(set) var scores: [String: UInt64] = [:]
    private var versions: [String: UInt64] = [:]

    init(_ totals: SeasonTotals?, version: UInt64) {
        if let totals { turn(to: totals, version: version) }
    }

    enum Taken: Equatable {
        /// A reading of the season running: these schools' totals changed.
        case changed([String])
        /// Another season runs from now (nil: none): every view of the season is new.
        case turned
    }

    /// What a poll found of the season, besides the changed schools' totals.
    enum Reading: Sendable, Equatable {
        /// The season the hall has still runs.
        case unchanged
        /// No season runs (the length is none).
        case none
        /// Another runs: every school's totals in it.
        case turned(SeasonTotals)
    }

    /// A reading at `version`: of the season running, its newer totals; of a later season (or a
    /// season of another length: the operator changed it), a turn; of an earlier one (a commit that
    /// read the length before the turn finished after it), nothing.
    mutating func take(_ totals: SeasonTotals, version: UInt64) -> Taken {
        if let season, season != totals.season {
            if season.length == totals.season.length, totals.season.number < season.number { return .changed([]) }
            turn(to: totals, version: version)
            return .turned
        }
        if season == nil {
            turn(to: totals, version: version)
            return .turned
        }
        var changed: [String] = []
        for (id, total) in totals.totals where (versions[id] ?? 0) <= version {
            versions[id] = version
            guard scores[id, default: 0] != total else { continue }
            scores[id] = total
            changed.append(id)
        }
        return .changed(changed)
    }

    /// No season runs any more; true when one did.
    mutating func end() -> Bool {
        guard season != nil else { return false }
        season = nil
        scores = [:]
        versions = [:]
        return true
    }

    private mutating func turn(to totals: SeasonTotals, version: UInt64) {
        season = totals.season
        scores = totals.totals.filter { $0.value > 0 }
        versions = totals.totals.mapValues { _ in version }
    }

    /// The `season` message: what a connection watching the season is told its numbers are.
    static func message(_ season: Season?) -> String {
        MessageCoding.encode(.season(season.map(SeasonAnswer.Summary.init)))
    }

    /// The same as a board stream's `season` event (its data the message, as a `page` event's is).
    static func event(_ season: Season?) -> String { BoardStream.event("season", json: message(season)) }
}
