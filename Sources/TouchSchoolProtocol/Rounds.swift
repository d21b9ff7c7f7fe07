import Foundation
import TouchSchoolCore

/// Rounds on the wire (docs/protocol.md, "Rounds"): what `GET /v1/rounds` lists and
/// `GET /v1/rounds/ID` shows, and what the operator's start and stop answer.
public enum RoundAnswer {
    /// A round as listed: its window in milliseconds since 1970 by the server's clock, and the
    /// grace after it in which batches made inside it still count.
    public struct Summary: Codable, Equatable, Sendable {
        public var id: Int64
        public var title: String?
        public var startsAtMs: Int64
        public var endsAtMs: Int64
        public var graceMs: Int64

        public init(id: Int64, title: String?, startsAtMs: Int64, endsAtMs: Int64, graceMs: Int64) {
            self.id = id
            self.title = title
            self.startsAtMs = startsAtMs
            self.endsAtMs = endsAtMs
            self.graceMs = graceMs
        }
    }

    /// A row of a round's standings: a player (by the device's public id, with the player's name
    /// and school) or a school (by its id).
    public struct Place: Codable, Equatable, Sendable {
        /// Equal counts share the place (`RoundStandings.places`): 1, 1, 3.
        public var place: Int
        /// Another row has the same count, so the same place; false when absent (a server from
        /// before shared places).
        public var tied: Bool
        public var id: String
        public var count: UInt64
        public var player: String?
        public var school: String?

        public init(place: Int, tied: Bool = false, id: String, count: UInt64, player: String? = nil, school: String? = nil) {
            self.place = place
            self.tied = tied
            self.id = id
            self.count = count
            self.player = player
            self.school = school
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.init(place: try container.decode(Int.self, forKey: .place), tied: try container.decodeIfPresent(Bool.self, forKey: .tied) ?? false,
                      id: try container.decode(String.self, forKey: .id), count: try container.decode(UInt64.self, forKey: .count),
                      player: try container.decodeIfPresent(String.self, forKey: .player),
                      school: try container.decodeIfPresent(String.self, forKey: .school))
        }
    }

    /// A round and its standings as counted so far; `nowMs`: the server's clock when it answered.
    public struct Results: Codable, Equatable, Sendable {
        public var round: Summary
        public var nowMs: Int64
        public var players: [Place]
        /// Empty when one school or none played.
        public var schools: [Place]

        public init(round: Summary, nowMs: Int64, players: [Place], schools: [Place]) {
            self.round = round
            self.nowMs = nowMs
            self.players = players
            self.schools = schools
        }
    }
}

/// `round` (server → player, docs/protocol.md "Rounds"): the operator's round, sent after the
/// welcome while a round is current or ended less than `RoundMessage.shownForMs` ago, and again
/// whenever it changes (a new round, one stopped early). Its times are the server's clock:
/// the countdown runs over the `Round.countdownMs` before `startsAtMs`, the race until `endsAtMs`.
public struct RoundMessage: Codable, Equatable, Sendable {
    public var id: Int64
    public var title: String?
    public var startsAtMs: Int64
    public var endsAtMs: Int64
    public var graceMs: Int64
    /// The server's clock when it sent this: a client without a `pong` measured yet takes its
    /// offset from it.
    public var nowMs: Int64
    /// This player's place, as `roundPlace` carries it (`RoundStanding`).
    public var place: Int?
    /// Another player has the same count, so the same place; false when absent (a server from
    /// before shared places).
    public var tied: Bool
    public var count: UInt64
    public var players: Int
    public var final: Bool

    public init(id: Int64, title: String?, startsAtMs: Int64, endsAtMs: Int64, graceMs: Int64, nowMs: Int64,
                place: Int?, tied: Bool = false, count: UInt64, players: Int, final: Bool) {
        self.id = id
        self.title = title
        self.startsAtMs = startsAtMs
        self.endsAtMs = endsAtMs
        self.graceMs = graceMs
        self.nowMs = nowMs
        self.place = place
        self.tied = tied
        self.count = count
        self.players = players
        self.final = final
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(id: try container.decode(Int64.self, forKey: .id), title: try container.decodeIfPresent(String.self, forKey: .title),
                  startsAtMs: try container.decode(Int64.self, forKey: .startsAtMs), endsAtMs: try container.decode(Int64.self, forKey: .endsAtMs),
                  graceMs: try container.decode(Int64.self, forKey: .graceMs), nowMs: try container.decode(Int64.self, forKey: .nowMs),
                  place: try container.decodeIfPresent(Int.self, forKey: .place),
                  tied: try container.decodeIfPresent(Bool.self, forKey: .tied) ?? false,
                  count: try container.decode(UInt64.self, forKey: .count), players: try container.decode(Int.self, forKey: .players),
                  final: try container.decode(Bool.self, forKey: .final))
    }

    /// How long after its grace a round is still sent to a player who connects: its result stays
    /// something to see for the rest of a lesson's break, not forever.
    public static let shownForMs: Int64 = 10 * 60_000
    /// `roundPlace` (server → player, a `RoundStanding`): the player's place in round `id`
    /// changed. When only others moved it, sent at most this often; when the player's own count
    /// changed, at the views' next tick (a player's screen never shows fewer of their taps than
    /// the projector); at once when final. Small: it comes on top of the views within the
    /// per-player byte budget.
    public static let placeIntervalMs: Int64 = 1_000
}

/// The `round` event of a page stream (`GET /v1/board?count=…`, the projector): the round with
/// its first places, at most `RoundLive.shownPlaces` players and schools, and how many players
/// have a place. Sent when the stream opens (a round current or recent) and whenever it changes.
public struct RoundLive: Codable, Equatable, Sendable {
    public var id: Int64
    public var title: String?
    public var startsAtMs: Int64
    public var endsAtMs: Int64
    public var graceMs: Int64
    public var nowMs: Int64
    public var final: Bool
    public var playerCount: Int
    public var players: [RoundAnswer.Place]
    /// Empty when one school or none played.
    public var schools: [RoundAnswer.Place]

    public init(id: Int64, title: String?, startsAtMs: Int64, endsAtMs: Int64, graceMs: Int64, nowMs: Int64, final: Bool,
                playerCount: Int, players: [RoundAnswer.Place], schools: [RoundAnswer.Place]) {
        self.id = id
        self.title = title
        self.startsAtMs = startsAtMs
        self.endsAtMs = endsAtMs
        self.graceMs = graceMs
        self.nowMs = nowMs
        self.final = final
        self.playerCount = playerCount
        self.players = players
        self.schools = schools
    }

    /// The places a projector shows: a podium and the rest of a class's first rows.
    public static let shownPlaces = 10
}

/// A round's player standings as CSV, for a spreadsheet (`touchschool round show ID --csv`,
/// `GET /v1/rounds/ID/results.csv`): a header row, then a row a player with the round's number,
/// title, start and end on every row, so that a sheet of several rounds' files pasted together
/// still sorts and filters. RFC 4180 (cells quoted where they hold a comma, a quote or a line
/// break; CRLF lines), after a UTF-8 byte order mark so that Excel reads the Hangul as UTF-8.
/// A cell from data (a title, a name) that a spreadsheet would take for a formula (= + - @) is
/// kept text by a leading `'`, and its controls other than line breaks are written out
/// (`VisibleText`): printed to a terminal, the file moves no cursor.
public enum RoundCSV {
    public static let contentType = "text/csv; charset=utf-8"

    /// The name a download is saved under.
    public static func fileName(round id: Int64) -> String { "round-\(id).csv" }

    /// The results with each school by its name in `schoolNames` (its id when not there); times
    /// as `yyyy-MM-dd HH:mm:ss` in `timeZone`, which the headers name (`UTC+09:00`).
    public static func text(_ results: RoundAnswer.Results, schoolNames: [String: String], language: Language,
                            timeZone: TimeZone) -> String {
        let ko = language == .korean
        let zone = offset(timeZone, at: results.round.startsAtMs)
        let header = ko ? ["라운드", "제목", "시작 (\(zone))", "끝 (\(zone))", "순위", "선수", "학교", "터치"]
            : ["round", "title", "starts (\(zone))", "ends (\(zone))", "place", "player", "school", "taps"]
        let round = results.round
        let roundCells = [String(round.id), data(round.title ?? ""), time(round.startsAtMs, timeZone), time(round.endsAtMs, timeZone)]
        var lines = [header.map(quoted)]
        for place in results.players {
            let school = place.school.map { schoolNames[$0] ?? $0 } ?? ""
            lines.append(roundCells + [String(place.place), data(place.player ?? place.id), data(school), String(place.count)])
        }
        return "\u{FEFF}" + lines.map { $0.joined(separator: ",") + "\r\n" }.joined()
    }

    /// A cell from data: kept text, controls written out, quoted as needed.
    private static func data(_ text: String) -> String {
        var cell = ""
        for scalar in text.unicodeScalars {
            if VisibleText.isControl(scalar), scalar != "\n", scalar != "\r" {
                cell += VisibleText.escaping(String(scalar))
            } else {
                cell.unicodeScalars.append(scalar)
            }
        }
        if let first = cell.unicodeScalars.first, ["=", "+", "-", "@", "\r", "\n"].contains(first) { cell = "'" + cell }
        return quoted(cell)
    }

    /// RFC 4180: in quotes, its quotes doubled, when it holds a comma, a quote or a line break.
    private static func quoted(_ cell: String) -> String {
        guard cell.unicodeScalars.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return cell }
        return "\"" + cell.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    private static func time(_ ms: Int64, _ timeZone: TimeZone) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        return formatter.string(from: Date(timeIntervalSince1970: Double(ms) / 1000))
    }

    /// `UTC+09:00`, `UTC-03:30`, `UTC`.
    private static func offset(_ timeZone: TimeZone, at ms: Int64) -> String {
        let seconds = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(ms) / 1000))
        guard seconds != 0 else { return "UTC" }
        let minutes = abs(seconds) / 60
        let hours = minutes / 60, rest = minutes % 60
        return "UTC" + (seconds < 0 ? "-" : "+") + (hours < 10 ? "0" : "") + String(hours) + ":" + (rest < 10 ? "0" : "") + String(rest)
    }
}
