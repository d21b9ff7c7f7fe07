import Hummingbird
import TouchSchoolCore
import TouchSchoolProtocol

/// Seasons over HTTP (docs/protocol.md, "Seasons"): anyone lists them (`GET /v1/seasons`) and reads
/// one's standing and hall of fame (`GET /v1/seasons/week-2960`), as the store keeps them: every
/// server of a database answers the same.
struct SeasonRoutes {
    let battle: BattleHallRuntime

    /// The most seasons `GET /v1/seasons` lists, newest first.
    static let listed = 50

    func add(to router: Router<HTTPRequestContext>) {
        router.get("/v1/seasons") { _, _ -> Response in
            try await Self.answer {
                let nowMs = battle.clock.wallMs()
                let length = try await battle.store.seasonLength()
                var seasons = try await battle.store.seasons(limit: Self.listed)
                // The current season is listed from its start, taps or not.
                if let current = Season.at(length, ms: nowMs), !seasons.contains(where: { $0.season == current }) {
                    seasons.insert(ListedSeason(season: current, fame: []), at: 0)
                    seasons = Array(seasons.prefix(Self.listed))
                }
                return Routes.json(MessageCoding.encodeJSON(SeasonAnswer.List(
                    length: length.rawValue, nowMs: nowMs,
                    seasons: seasons.map { SeasonAnswer.Listed(season: SeasonAnswer.Summary($0.season), fame: $0.fame.map(Self.famed)) })))
            }
        }
        router.get("/v1/seasons/:id") { _, context -> Response in
            guard let season = context.parameters.get("id").flatMap(Season.named) else {
                return AdminRoutes.error("a season's id: its length and number, as GET /v1/seasons lists them (week-2960)",
                                         status: .badRequest)
            }
            return try await Self.answer {
                Routes.json(MessageCoding.encodeJSON(Self.standing(try await battle.store.season(season), nowMs: battle.clock.wallMs())))
            }
        }
    }

    private static func answer(_ body: () async throws -> Response) async throws -> Response {
        do { return try await body() } catch let error as BattleStoreError {
            return AdminRoutes.error("the seasons cannot be read now: \(error)", status: .serviceUnavailable)
        }
    }

    static func famed(_ entry: SeasonFame.Entry) -> SeasonAnswer.Famed {
        SeasonAnswer.Famed(league: LeagueName(entry.league), place: entry.place, rank: entry.rank, school: entry.school, total: entry.total)
    }

    /// The season's first schools by total (ties by id), placed as ranks are (1, 1, 3).
    static func standing(_ standing: SeasonStanding, nowMs: Int64) -> SeasonAnswer.Standing {
        let ordered = standing.totals.filter { $0.value > 0 }.sorted { ($0.value, $1.key) > ($1.value, $0.key) }
        var places: [RoundAnswer.Place] = []
        for (index, (school, total)) in ordered.prefix(SeasonAnswer.Standing.shownSchools).enumerated() {
            let tiedAbove = index > 0 && ordered[index - 1].value == total
            let tiedBelow = index + 1 < ordered.count && ordered[index + 1].value == total
            places.append(RoundAnswer.Place(place: tiedAbove ? places[index - 1].place : index + 1, tied: tiedAbove || tiedBelow,
                                            id: school, count: total))
        }
        return SeasonAnswer.Standing(season: SeasonAnswer.Summary(standing.season), nowMs: nowMs, schoolCount: ordered.count,
                                     schools: places, fame: standing.fame.map(famed))
    }
}
