import Foundation
import Hummingbird
import Logging
import TouchSchoolBattleDatabase
import TouchSchoolCore
import TouchSchoolProtocol

/// Rounds over HTTP (docs/protocol.md, "Rounds"): the operator starts and stops one with the
/// admin token (`POST /v1/admin/rounds?seconds=N[&title=T]`, `POST /v1/admin/rounds/stop`);
/// anyone lists them and reads one's standings (`GET /v1/rounds`, `GET /v1/rounds/ID`), as the
/// store keeps them: a round started through one server of a database is every server's.
struct RoundRoutes {
    let battle: BattleHallRuntime
    let token: AdminToken
    let trustedProxies: Set<String>
    let logger: Logger

    /// The most rounds `GET /v1/rounds` lists, newest first.
    static let listed = 50

    func add(to router: Router<HTTPRequestContext>) {
        let admin = router.group("/v1/admin/rounds")
            .add(middleware: AdminRoutes.Authentication(token: token, trustedProxies: trustedProxies, logger: logger))
        admin.post { request, context -> Response in
            let query = request.uri.queryParameters
            guard let seconds = query.get("seconds").flatMap({ Int($0) }), Round.seconds.contains(seconds) else {
                return AdminRoutes.error("seconds: a whole number from \(Round.seconds.lowerBound) to \(Round.seconds.upperBound)",
                                         status: .badRequest)
            }
            let title = Round.title(query.get("title"))
            guard title.valid else {
                return AdminRoutes.error("title: at most \(Round.maximumTitleLength) characters, without control characters",
                                         status: .badRequest)
            }
            logger.notice("Admin request", metadata: ["action": "start a round", "seconds": "\(seconds)",
                                                      "from": "\(AdminRoutes.Authentication.address(request, context, trustedProxies: trustedProxies))"])
            return try await Self.answer {
                guard let round = try await battle.startRound(title: title.title, seconds: seconds) else {
                    return AdminRoutes.error("seconds out of range", status: .badRequest)
                }
                return Routes.json(MessageCoding.encodeJSON(Self.summary(round)))
            }
        }
        admin.post("stop") { request, context -> Response in
            logger.notice("Admin request", metadata: ["action": "stop the round",
                                                      "from": "\(AdminRoutes.Authentication.address(request, context, trustedProxies: trustedProxies))"])
            return try await Self.answer {
                guard let round = try await battle.stopRound() else {
                    return AdminRoutes.error("no round was ever started", status: .notFound)
                }
                return Routes.json(MessageCoding.encodeJSON(Self.summary(round)))
            }
        }
        router.get("/v1/rounds") { _, _ -> Response in
            return try await Self.answer {
                Routes.json(MessageCoding.encodeJSON(try await battle.rounds(limit: Self.listed).map(Self.summary)))
            }
        }
        router.get("/v1/rounds/:id") { _, context -> Response in
            try await standings(context) { standings, nowMs in Routes.json(try await standings.json(nowMs: nowMs)) }
        }
        // The same standings for a spreadsheet, in the language the browser asks for, times by
        // the server's clock in its time zone.
        router.get("/v1/rounds/:id/results.csv") { request, context -> Response in
            let language: Language = Self.asksForKorean(request.headers[.acceptLanguage]) ? .korean : .english
            let catalog = await battle.catalog.catalog
            return try await standings(context) { standings, nowMs in
                let results = standings.results(nowMs: nowMs)
                var names: [String: String] = [:]
                for place in results.players {
                    if let school = place.school, let position = catalog.position(ofID: school) { names[school] = catalog[position].name }
                }
                let csv = RoundCSV.text(results, schoolNames: names, language: language, timeZone: .current)
                return Response(status: .ok, headers: [.contentType: RoundCSV.contentType,
                                                       .contentDisposition: "attachment; filename=\"\(RoundCSV.fileName(round: results.round.id))\""],
                                body: .init(byteBuffer: ByteBuffer(string: csv)))
            }
        }
    }

    /// The standings of the round the path names, as `answer` makes them a response at the
    /// server's time: shared (`RoundAnswers`: the hall's latest read, or a settled round's kept),
    /// else read from the store.
    private func standings(_ context: HTTPRequestContext, answer: (RoundAnswers.Standings, Int64) async throws -> Response) async throws -> Response {
        // Any number is looked up: one no round has (0 included) is 404, as documented.
        guard let id = context.parameters.get("id").flatMap({ Int64($0) }) else {
            return AdminRoutes.error("a round's id: a whole number, as GET /v1/rounds lists them", status: .badRequest)
        }
        let now = battle.clock.wallMs()
        if let shared = battle.roundAnswers.standings(id, atMs: now) { return try await answer(shared, now) }
        return try await Self.answer {
            guard let (round, counts) = try await battle.round(id) else {
                return AdminRoutes.error("no round has the id \(id)", status: .notFound)
            }
            return try await answer(try await battle.roundAnswers.read(round, Self.results(round, counts, nowMs: now), atMs: now), now)
        }
    }

    /// Whether an `Accept-Language` header puts Korean first (`ko`, `ko-KR`; weights aside: a
    /// browser lists its first choice first).
    static func asksForKorean(_ header: String?) -> Bool {
        guard let first = header?.split(separator: ",").first?.split(separator: ";").first else { return false }
        let tag = first.trimmingCharacters(in: .whitespaces).lowercased()
        return tag == "ko" || tag.hasPrefix("ko-")
    }

    private static func answer(_ body: () async throws -> Response) async throws -> Response {
        do { return try await body() } catch let error as BattleStoreError {
            return AdminRoutes.error("the rounds cannot be read or changed now: \(error)", status: .serviceUnavailable)
        }
    }

    static func summary(_ round: Round) -> RoundAnswer.Summary {
        RoundAnswer.Summary(id: round.id, title: round.title, startsAtMs: round.startsAtMs, endsAtMs: round.endsAtMs, graceMs: Round.graceMs)
    }

    /// The standings of the players (all their schools' taps) and of the schools (every player's
    /// taps for it), placed by `RoundStandings`.
    static func results(_ round: Round, _ counts: [RoundPlayerCount], nowMs: Int64) -> RoundAnswer.Results {
        let byDevice = Dictionary(counts.map { ($0.publicID, $0) }, uniquingKeysWith: { first, _ in first })
        let players = RoundStandings.places(counts.map { count in
            RoundCount(key: count.publicID, count: count.bySchool.values.reduce(0) { $0.addingSaturating($1) }, reachedMs: count.reachedMs)
        }).map { place in
            let device = byDevice[place.entry.key]
            return RoundAnswer.Place(place: place.place, tied: place.tied, id: place.entry.key, count: place.entry.count,
                                     player: device?.player, school: device?.school)
        }
        var schools: [String: RoundCount] = [:]
        for count in counts {
            for (school, taps) in count.bySchool {
                schools[school, default: RoundCount(key: school, count: 0, reachedMs: count.reachedMs)].add(taps, atMs: count.reachedMs)
            }
        }
        let schoolPlaces = RoundStandings.schoolPlaces(Array(schools.values)).map {
            RoundAnswer.Place(place: $0.place, tied: $0.tied, id: $0.entry.key, count: $0.entry.count)
        }
        return RoundAnswer.Results(round: summary(round), nowMs: nowMs, players: players, schools: schoolPlaces)
    }
}
