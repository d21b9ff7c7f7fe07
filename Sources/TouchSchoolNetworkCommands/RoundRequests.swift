import Foundation
import TouchSchoolClient
import TouchSchoolCommandLine
import TouchSchoolCore
import TouchSchoolOutbox
import TouchSchoolProtocol

/// `touchschool round …` over the server's rounds API (docs/protocol.md, "Rounds"): start and
/// stop with the token in the `Authorization` header, list and show without; what the server
/// answers as lines and tables in the user's language, or as JSON.
enum RoundRequests {
    static func run(_ request: RoundRequest, timeZone: TimeZone = .current) throws -> String {
        let server: ServerAddress
        do { server = try ServerAddress(parsing: request.server) } catch { throw CommandError(NetworkCommandText.notAServerURL("--server", error)) }
        let (method, path): (String, String) = switch request.action {
        case let .start(seconds, title, _):
            ("POST", "/v1/admin/rounds?" + query(["seconds": String(seconds), "title": title]))
        case .stop: ("POST", "/v1/admin/rounds/stop")
        case .list: ("GET", "/v1/rounds")
        case let .show(id, _, _): ("GET", "/v1/rounds/\(id)")
        }
        let headers = request.token.map { [("Authorization", "Bearer \($0)")] } ?? []
        let response: ServerResponse
        do {
            response = try blockingWait { () throws -> ServerResponse in try await ServerHTTP.send(server, method, path, headers: headers) }
        } catch let error as ServerRequestError where error.failure != nil {
            throw CommandError(NetworkCommandText.cannotReach("\(server)", error.failure!, english: error.description))
        }
        switch (response.status, request.action) {
        case (200, _): break
        case (401, _): throw CommandError(NetworkCommandText.tokenRefused("\(server)"))
        case let (404, .show(id, _, _)): throw CommandError(NetworkCommandText.noSuchRound(id, on: "\(server)"))
        default: throw CommandError(NetworkCommandText.serverAnswered("\(server)", status: response.status, AdminRequests.message(response.body)))
        }
        let text = RoundText(language: request.language, timeZone: timeZone)
        switch request.action {
        case let .start(_, _, json):
            let round = try AdminRequests.decode(RoundAnswer.Summary.self, response.body)
            return json ? AdminRequests.json(round) : text.started(round)
        case let .stop(json):
            let round = try AdminRequests.decode(RoundAnswer.Summary.self, response.body)
            return json ? AdminRequests.json(round) : text.stopped(round)
        case let .list(json):
            let rounds = try AdminRequests.decode([RoundAnswer.Summary].self, response.body)
            return json ? AdminRequests.json(rounds) : text.list(rounds)
        case let .show(_, json, csv):
            let results = try AdminRequests.decode(RoundAnswer.Results.self, response.body)
            if json { return AdminRequests.json(results) }
            let schoolNames = AdminRequests.schoolNames(on: server)
            return csv ? RoundCSV.text(results, schoolNames: schoolNames, language: request.language, timeZone: timeZone)
                : text.results(results, schoolNames: schoolNames)
        }
    }

    private static func query(_ items: [String: String?]) -> String {
        var components = URLComponents()
        components.queryItems = items.sorted { $0.key < $1.key }.compactMap { key, value in value.map { URLQueryItem(name: key, value: $0) } }
        // `+` is a space in a query: spelled out, so that a title keeps its plus signs.
        return (components.percentEncodedQuery ?? "").replacingOccurrences(of: "+", with: "%2B")
    }
}

/// What `round` prints, in Korean or English: times in the local time zone; names from the
/// server escaped (`VisibleText`), never raw on a terminal.
struct RoundText {
    let language: Language
    let timeZone: TimeZone

    private var ko: Bool { language == .korean }

    func started(_ round: RoundAnswer.Summary) -> String {
        let seconds = (round.endsAtMs - round.startsAtMs) / 1000
        return ko
            ? "라운드 \(round.id)\(titled(round)): \(time(round.startsAtMs))에 시작 (\(Round.countdownMs / 1000)초 카운트다운), \(seconds)초 동안, \(time(round.endsAtMs))에 끝납니다.\n"
            : "Round \(round.id)\(titled(round)): starts at \(time(round.startsAtMs)) (a \(Round.countdownMs / 1000) s countdown), lasts \(seconds) s, ends at \(time(round.endsAtMs)).\n"
    }

    func stopped(_ round: RoundAnswer.Summary) -> String {
        ko ? "라운드 \(round.id)\(titled(round)): \(time(round.endsAtMs))에 끝났습니다.\n"
            : "Round \(round.id)\(titled(round)) ended at \(time(round.endsAtMs)).\n"
    }

    func list(_ rounds: [RoundAnswer.Summary]) -> String {
        guard !rounds.isEmpty else { return ko ? "아직 라운드가 없습니다.\n" : "No round yet.\n" }
        var lines = [ko ? ["번호", "시작", "길이(초)", "제목"] : ["ID", "STARTS", "SECONDS", "TITLE"]]
        for round in rounds {
            // A round stopped in its countdown ended before its window opened: it lasted 0 s.
            lines.append([String(round.id), date(round.startsAtMs), String(max(0, round.endsAtMs - round.startsAtMs) / 1000),
                          VisibleText.escaping(round.title ?? "-")])
        }
        return TextTable.render(lines, rightAligned: [0, 2])
    }

    func results(_ results: RoundAnswer.Results, schoolNames: [String: String]) -> String {
        let round = results.round
        let counting = results.nowMs < round.endsAtMs + round.graceMs
        var text = ko
            ? "라운드 \(round.id)\(titled(round)): \(date(round.startsAtMs))–\(time(round.endsAtMs))" + (counting ? " (집계 중…)" : "") + "\n\n"
            : "Round \(round.id)\(titled(round)): \(date(round.startsAtMs))–\(time(round.endsAtMs))" + (counting ? " (counting…)" : "") + "\n\n"
        guard !results.players.isEmpty else { return text + (ko ? "센 터치가 없습니다.\n" : "No taps counted.\n") }
        var players = [ko ? ["순위", "선수", "학교", "터치"] : ["PLACE", "PLAYER", "SCHOOL", "TAPS"]]
        for place in results.players {
            let school = place.school.map { schoolNames[$0] ?? $0 } ?? "-"
            players.append([String(place.place), VisibleText.escaping(place.player ?? place.id), VisibleText.escaping(school), String(place.count)])
        }
        text += TextTable.render(players, rightAligned: [0, 3])
        guard !results.schools.isEmpty else { return text }
        var schools = [ko ? ["순위", "학교", "터치"] : ["PLACE", "SCHOOL", "TAPS"]]
        for place in results.schools {
            schools.append([String(place.place), VisibleText.escaping(schoolNames[place.id] ?? place.id), String(place.count)])
        }
        return text + "\n" + TextTable.render(schools, rightAligned: [0, 2])
    }

    private func titled(_ round: RoundAnswer.Summary) -> String {
        round.title.map { " \u{201C}\(VisibleText.escaping($0))\u{201D}" } ?? ""
    }

    private func time(_ ms: Int64) -> String { format(ms, "HH:mm:ss") }
    private func date(_ ms: Int64) -> String { format(ms, "yyyy-MM-dd HH:mm:ss") }

    private func format(_ ms: Int64, _ pattern: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = pattern
        return formatter.string(from: Date(timeIntervalSince1970: Double(ms) / 1000))
    }
}
