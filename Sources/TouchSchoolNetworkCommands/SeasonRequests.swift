import Foundation
import TouchSchoolClient
import TouchSchoolCommandLine
import TouchSchoolCore
import TouchSchoolOutbox
import TouchSchoolProtocol
import TouchSchoolView

/// `touchschool season …` over the server's seasons API (docs/protocol.md, "Seasons"): what the
/// server answers as tables in the user's language, or as JSON.
enum SeasonRequests {
    static func run(_ request: SeasonRequest) throws -> String {
        let server: ServerAddress
        do { server = try ServerAddress(parsing: request.server) } catch { throw CommandError(NetworkCommandText.notAServerURL("--server", error)) }
        let path = switch request.action {
        case .list: "/v1/seasons"
        case let .show(season, _): "/v1/seasons/\(season.id)"
        }
        let response: ServerResponse
        do {
            response = try blockingWait { () throws -> ServerResponse in try await ServerHTTP.send(server, "GET", path, headers: []) }
        } catch let error as ServerRequestError where error.failure != nil {
            throw CommandError(NetworkCommandText.cannotReach("\(server)", error.failure!, english: error.description))
        }
        guard response.status == 200 else {
            throw CommandError(NetworkCommandText.serverAnswered("\(server)", status: response.status, AdminRequests.message(response.body)))
        }
        let text = SeasonText(language: request.language)
        switch request.action {
        case let .list(json):
            let list = try AdminRequests.decode(SeasonAnswer.List.self, response.body)
            return json ? AdminRequests.json(list) : text.list(list, schoolNames: AdminRequests.schoolNames(on: server))
        case let .show(_, json):
            let standing = try AdminRequests.decode(SeasonAnswer.Standing.self, response.body)
            return json ? AdminRequests.json(standing) : text.standing(standing, schoolNames: AdminRequests.schoolNames(on: server))
        }
    }
}

/// What `season` prints, in Korean or English: a season's days on Korea's calendar, as seasons
/// follow it; names from the server escaped (`VisibleText`), never raw on a terminal.
struct SeasonText {
    let language: Language

    private var ko: Bool { language == .korean }

    func list(_ list: SeasonAnswer.List, schoolNames: [String: String]) -> String {
        let length = SeasonLength(rawValue: list.length) ?? .none
        var text = (ko ? "시즌 길이: " : "Season length: ") + lengthName(length) + "\n"
        guard !list.seasons.isEmpty else { return text + (ko ? "아직 시즌이 없습니다.\n" : "No season yet.\n") }
        text += "\n"
        var lines = [ko ? ["시즌", "기간", "1위", "2위", "3위"] : ["SEASON", "DAYS", "FIRST", "SECOND", "THIRD"]]
        for listed in list.seasons {
            var places = (1...SeasonFame.places).map { place in
                listed.fame.first { $0.place == place }.map { name($0.school, schoolNames) } ?? "-"
            }
            // A season still counting has no hall yet: said where its first would be.
            if list.nowMs < listed.season.endsAtMs + listed.season.graceMs { places[0] = ko ? "진행 중" : "running" }
            lines.append([VisibleText.escaping(listed.season.id), days(listed.season)] + places)
        }
        return text + TextTable.render(lines, rightAligned: [])
    }

    func standing(_ standing: SeasonAnswer.Standing, schoolNames: [String: String]) -> String {
        let season = standing.season
        let running = standing.nowMs < season.endsAtMs + season.graceMs
        var text = (ko ? "시즌 " : "Season ") + VisibleText.escaping(season.id) + ": " + days(season)
            + (running ? (ko ? " (진행 중)" : " (running)") : "") + "\n\n"
        guard !standing.schools.isEmpty else { return text + (ko ? "센 터치가 없습니다.\n" : "No taps counted.\n") }
        var schools = [ko ? ["순위", "학교", "터치"] : ["PLACE", "SCHOOL", "TAPS"]]
        for place in standing.schools { schools.append([String(place.place), name(place.id, schoolNames), String(place.count)]) }
        text += TextTable.render(schools, rightAligned: [0, 2])
        if standing.schoolCount > standing.schools.count {
            text += ko ? "(\(standing.schoolCount)개 학교 중 \(standing.schools.count)개)\n" : "(\(standing.schools.count) of \(standing.schoolCount) schools)\n"
        }
        guard !standing.fame.isEmpty else {
            return text + "\n" + (running ? (ko ? "명예의 전당은 시즌이 끝나면 정해집니다.\n" : "The hall of fame is kept when the season ends.\n")
                                          : (ko ? "명예의 전당이 아직 없습니다.\n" : "No hall of fame kept yet.\n"))
        }
        let strings = Strings(language)
        var hall = [ko ? ["리그", "순위", "학교", "터치"] : ["LEAGUE", "PLACE", "SCHOOL", "TAPS"]]
        for famed in standing.fame {
            let league = League(famed.league).map { strings.leagueName($0) } ?? "-"
            hall.append([VisibleText.escaping(league), String(famed.rank), name(famed.school, schoolNames), String(famed.total)])
        }
        return text + "\n" + (ko ? "명예의 전당\n" : "Hall of fame\n") + TextTable.render(hall, rightAligned: [1, 3])
    }

    private func name(_ school: String, _ names: [String: String]) -> String { VisibleText.escaping(names[school] ?? school) }

    private func lengthName(_ length: SeasonLength) -> String {
        switch length {
        case .none: ko ? "없음 (누적만)" : "none (all time only)"
        case .week: ko ? "한 주" : "a week"
        case .month: ko ? "한 달" : "a month"
        }
    }

    /// The season's first and last days on Korea's calendar.
    private func days(_ season: SeasonAnswer.Summary) -> String {
        "\(day(season.startsAtMs))–\(day(season.endsAtMs - 1))"
    }

    private func day(_ ms: Int64) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: Int(Season.koreaOffsetMs / 1000))
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.string(from: Date(timeIntervalSince1970: Double(ms) / 1000))
    }
}
