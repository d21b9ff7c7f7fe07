import Foundation
import TouchSchoolCore

/// The play protocol between a game (terminal, web page, bot) and `touchschool serve`: JSON
/// objects, one per WebSocket text frame at `/v1/play`, each with a `"type"`. Documented for
/// other clients in `docs/protocol.md`; this file is its one definition, shared by the client and
/// the server.
public enum PlayProtocol {
    /// The version a client names in `hello`: 2 sends each player the view of the battle its
    /// screen shows (`view`, `page`). A server refuses versions it does not speak with close code
    /// `CloseCode.unsupportedVersion`.
    public static let version = 2
    /// Where the WebSocket lives.
    public static let playPath = "/v1/play"
    /// Where the board is streamed (Server-Sent Events) to a page that shows it without playing.
    public static let boardPath = "/v1/board"
    /// The largest text frame either side sends or accepts: a batch names a few schools; the
    /// largest server message, a page of 100 rows, takes about 2.6 KB (the limit is kept as
    /// documented, so that a client of this version reads whatever a server of it may send).
    public static let maximumClientMessageBytes = 16 << 10
    public static let maximumServerMessageBytes = 4 << 20
    /// The most schools one batch may name (a player taps for one school at a time; a switch
    /// within a batch names two).
    public static let maximumSchoolsPerBatch = 16
    /// A client must say hello within this long after connecting.
    public static let helloTimeoutSeconds = 10
    /// Where `GET` tells the battle's identity (`BattleIdentity`) without a device.
    public static let battlePath = "/v1/battle"
    /// Header with which HTTP requests name the device (`GET /v1/me`).
    public static let deviceHeader = "X-TouchSchool-Device"
    /// The header of an HTTP answer whose numbers are a season's (`/v1/view`, `/v1/page`,
    /// `/v1/scores`): the season's id; absent, all time's.
    public static let seasonHeader = "X-TouchSchool-Season"
}

/// What a client sends.
public enum ClientMessage: Equatable, Sendable {
    /// The first message: who is playing, and which batches the client has numbered so far.
    case hello(Hello)
    /// A batch of taps, numbered.
    case taps(TapBatch)
    /// Keeps an idle connection open through proxies; answered with `pong`.
    case ping
    /// The page of a league the screen shows (protocol 2).
    case watch(Watch)
    /// Whether the screen shows the map of the schools (on the wire `{"type":"map","show":true}`):
    /// the server sends `map` messages only while it does, and no page then (the map takes its place).
    case showMap(Bool)
}

/// What a server sends.
public enum ServerMessage: Equatable, Sendable {
    case welcome(Welcome)
    case ack(Acknowledgement)
    /// The player's school's view (on the wire, type `view`).
    case schoolView(SchoolViewMessage)
    /// The watched page of a league.
    case page(PageMessage)
    /// The operator's round, as it is or as it changed, with this player's place in it.
    case round(RoundMessage)
    /// This player's place in the round, when it changed.
    case roundPlace(RoundStanding)
    /// The map's glow, while the screen shows it (docs/protocol.md, "The map"; sent by `MapNews`).
    case map(MapReport)
    /// The answer to `ping`, with the server's clock then (milliseconds since 1970), from which a
    /// client measures its offset to the server's clock: every screen shows a round's countdown
    /// by the server's clock. Nil from a server that does not tell it.
    case pong(nowMs: Int64?)
    /// The season message (seasonMessage): the season the `view` and `page` of a connection watching the season carry (nil: the battle
    /// has none, both periods carry all time): after the welcome, and again when it turns.
    case season(SeasonAnswer.Summary?)
    /// Sent just before the server closes the connection with `CloseCode`.
    case error(ProtocolError)
}

public struct Hello: Codable, Equatable, Sendable {
    public var `protocol`: Int
    /// The installation's device key: 43 base64url characters (32 random bytes).
    public var device: String
    /// The player's display name; the server cleans it (controls removed, length capped).
    public var player: String
    /// What plays (`ClientKind`'s raw value), for the operator's list; optional, and a value the
    /// server does not know is taken as none.
    public var client: String?

    public init(protocol: Int = PlayProtocol.version, device: String, player: String, client: ClientKind? = nil) {
        self.protocol = `protocol`
        self.device = device
        self.player = player
        self.client = client?.rawValue
    }
}

/// What a device plays with, as its hello says: the operator tells a terminal from a phone and
/// from an SSH session in `admin devices`.
public enum ClientKind: String, Codable, Sendable, CaseIterable {
    case terminal, web, ssh
}

/// Taps made during one stretch of time, numbered by the client: 1, 2, 3 … per device, without
/// gaps. The server applies each number once, in order, and keeps the last number it applied with
/// the scores, so a batch sent again after a lost acknowledgement is acknowledged, not counted.
public struct TapBatch: Codable, Equatable, Sendable {
    public var seq: UInt64
    /// School id → taps.
    public var taps: [String: UInt64]
    /// The player's taps for their school in this batch (after a switch: since the switch).
    public var playerTaps: UInt64
    /// Set when the player chose this school during the batch: their own count restarts.
    public var switchedToSchool: String?
    /// The best taps in one second the player has made.
    public var bestTapsPerSecond: Int
    /// When the first and last tap of the batch happened, milliseconds since 1970 by the client's
    /// clock. The server judges the taps against this time, not against when the batch arrives,
    /// so that a batch kept offline for an hour is judged as played.
    public var startMs: Int64
    public var endMs: Int64

    public init(seq: UInt64, taps: [String: UInt64], playerTaps: UInt64, switchedToSchool: String? = nil, bestTapsPerSecond: Int,
                startMs: Int64, endMs: Int64) {
        self.seq = seq
        self.taps = taps
        self.playerTaps = playerTaps
        self.switchedToSchool = switchedToSchool
        self.bestTapsPerSecond = bestTapsPerSecond
        self.startMs = startMs
        self.endMs = endMs
    }

    /// The wire's short names (docs/protocol.md); in Swift the names Core gives the same fields.
    enum CodingKeys: String, CodingKey {
        case seq, taps, playerTaps, switchedToSchool = "switchedTo", bestTapsPerSecond = "best", startMs, endMs
    }

    public var totalTaps: UInt64 { taps.values.reduce(0) { $0.addingReportingOverflow($1).overflow ? .max : $0 + $1 } }
}

/// `GET /v1/battle`: which battle a server serves, for a client choosing where it keeps its
/// taps before it connects.
public struct BattleIdentity: Codable, Equatable, Sendable {
    public var battle: String
    public var `protocol`: Int

    public init(battle: String, protocol: Int = PlayProtocol.version) {
        self.battle = battle
        self.protocol = `protocol`
    }
}

public struct Welcome: Codable, Equatable, Sendable {
    public var `protocol`: Int
    /// The battle's identity: the same from every address of this server, across its restarts,
    /// and from every server sharing its PostgreSQL (`GET /v1/battle` says it too). A client keeps
    /// its outbox and its numbering per battle, so that one device has one numbering per battle
    /// whatever address it plays from. 16 to 64 characters of `A–Z a–z 0–9 - _`.
    public var battle: String
    /// The last batch number of this device the server has applied (0: none): the client drops
    /// what it kept up to it and sends the rest.
    public var lastSeq: UInt64
    /// This device's player as the server knows it.
    public var player: PlayerState
    /// The catalog's version (its ETag at `GET /v1/catalog`).
    public var catalog: String

    public init(protocol: Int = PlayProtocol.version, battle: String, lastSeq: UInt64, player: PlayerState, catalog: String) {
        self.protocol = `protocol`
        self.battle = battle
        self.lastSeq = lastSeq
        self.player = player
        self.catalog = catalog
    }
}

/// Every school's total, with the version of the board: it grows with every save.
public struct Board: Codable, Equatable, Sendable {
    public var version: UInt64
    public var scores: [String: UInt64]

    public init(version: UInt64, scores: [String: UInt64]) {
        self.version = version
        self.scores = scores
    }
}

public struct PlayerState: Codable, Equatable, Sendable {
    public var schoolID: String?
    public var taps: UInt64
    public var bestTapsPerSecond: Int

    public init(schoolID: String?, taps: UInt64, bestTapsPerSecond: Int) {
        self.schoolID = schoolID
        self.taps = taps
        self.bestTapsPerSecond = bestTapsPerSecond
    }

    /// The wire's short names (docs/protocol.md); in Swift the names Core's `PlayerRecord` gives them.
    enum CodingKeys: String, CodingKey {
        case schoolID = "school", taps, bestTapsPerSecond = "best"
    }

    /// `school` as documented, `null` without one: not left out, as the synthesized encoding would.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(schoolID, forKey: .schoolID)
        try container.encode(taps, forKey: .taps)
        try container.encode(bestTapsPerSecond, forKey: .bestTapsPerSecond)
    }
}

/// A batch is saved: `accepted` of its taps counted, `refused` judged beyond what a human makes
/// (or, with `banned`, all of them, because the operator banned the device).
/// A batch acknowledged is never to be sent again, whatever was refused.
public struct Acknowledgement: Codable, Equatable, Sendable {
    public var seq: UInt64
    public var accepted: UInt64
    public var refused: UInt64
    /// The player as saved after this batch.
    public var player: PlayerState
    /// True when the operator banned the device: the taps were refused for that, not for their
    /// speed, and the player is told so. Absent otherwise (a client that does not know it reads
    /// the acknowledgement as before).
    public var banned: Bool?

    public init(seq: UInt64, accepted: UInt64, refused: UInt64, player: PlayerState, banned: Bool? = nil) {
        self.seq = seq
        self.accepted = accepted
        self.refused = refused
        self.player = player
        self.banned = banned
    }
}

public struct ProtocolError: Codable, Equatable, Sendable {
    public var code: UInt16
    public var message: String

    public init(code: UInt16, message: String) {
        self.code = code
        self.message = message
    }
}

/// WebSocket close codes the server uses, with the error message sent just before.
public enum CloseCode {
    public static let normal: UInt16 = 1000
    /// The server is shutting down; reconnect later (or to another server).
    public static let goingAway: UInt16 = 1001
    /// A malformed message, a batch out of order, no hello in time: the connection is closed and
    /// nothing of the offending message counted.
    public static let policyViolation: UInt16 = 1008
    public static let messageTooBig: UInt16 = 1009
    public static let unsupportedVersion: UInt16 = 4000
    /// The operator banned the connection's address: new connections from it are refused.
    public static let banned: UInt16 = 4003
    /// The battle holds as many devices as its server allows (`serve --maximum-devices`): a
    /// device it knows still plays; a new one is refused until the operator makes room.
    public static let battleFull: UInt16 = 4007
    /// Too many connections or devices from one address.
    public static let tooManyConnections: UInt16 = 4029
}

extension ServerRefusal {
    /// The refusal a server's close code names (nil: not a refusal of the game): a socket's game
    /// and the SSH game, which the server refuses with the same errors.
    public init?(closeCode code: UInt16) {
        switch code {
        case CloseCode.banned: self = .bannedAddress
        case CloseCode.battleFull: self = .battleFull
        case CloseCode.tooManyConnections: self = .tooManyFromAddress
        default: return nil
        }
    }
}

// MARK: - Encoding

extension ClientMessage: Codable {
    private enum Kind: String, Codable { case hello, taps, ping, watch, map }
    private enum Keys: String, CodingKey { case type, show }

    public init(from decoder: any Decoder) throws {
        switch try decoder.container(keyedBy: Keys.self).decode(Kind.self, forKey: .type) {
        case .hello: self = .hello(try Hello(from: decoder))
        case .taps: self = .taps(try TapBatch(from: decoder))
        case .ping: self = .ping
        case .watch: self = .watch(try Watch(from: decoder))
        case .map: self = .showMap(try decoder.container(keyedBy: Keys.self).decode(Bool.self, forKey: .show))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        switch self {
        case let .hello(hello): try container.encode(Kind.hello, forKey: .type); try hello.encode(to: encoder)
        case let .taps(batch): try container.encode(Kind.taps, forKey: .type); try batch.encode(to: encoder)
        case .ping: try container.encode(Kind.ping, forKey: .type)
        case let .watch(watch): try container.encode(Kind.watch, forKey: .type); try watch.encode(to: encoder)
        case let .showMap(show): try container.encode(Kind.map, forKey: .type); try container.encode(show, forKey: .show)
        }
    }
}

extension ServerMessage: Codable {
    private enum Kind: String, Codable { case welcome, ack, view, page, round, roundPlace, pong, error, map, season }
    private enum Keys: String, CodingKey { case type, nowMs, season }
    private enum MapKeys: String, CodingKey { case catalog, marks, mine, cells, whole }

    public init(from decoder: any Decoder) throws {
        switch try decoder.container(keyedBy: Keys.self).decode(Kind.self, forKey: .type) {
        case .welcome: self = .welcome(try Welcome(from: decoder))
        case .ack: self = .ack(try Acknowledgement(from: decoder))
        case .view: self = .schoolView(try SchoolViewMessage(from: decoder))
        case .page: self = .page(try PageMessage(from: decoder))
        case .round: self = .round(try RoundMessage(from: decoder))
        case .roundPlace: self = .roundPlace(try RoundStanding(from: decoder))
        case .pong: self = .pong(nowMs: try decoder.container(keyedBy: Keys.self).decodeIfPresent(Int64.self, forKey: .nowMs))
        case .error: self = .error(try ProtocolError(from: decoder))
        case .season: self = .season(try decoder.container(keyedBy: Keys.self).decodeIfPresent(SeasonAnswer.Summary.self, forKey: .season))
        case .map:
            let container = try decoder.container(keyedBy: MapKeys.self)
            let text = try container.decode(String.self, forKey: .cells)
            guard let cells = MapCellCode.decode(text) else {
                throw DecodingError.dataCorruptedError(forKey: .cells, in: container, debugDescription: "cells is not base64url in threes")
            }
            self = .map(MapReport(catalog: try container.decodeIfPresent(String.self, forKey: .catalog),
                                  marks: try container.decode([Int].self, forKey: .marks),
                                  mine: try container.decodeIfPresent(Int.self, forKey: .mine),
                                  cells: cells.map { MapCellGlow(cell: $0.cell, glow: $0.glow) },
                                  whole: try container.decodeIfPresent(Bool.self, forKey: .whole) ?? false))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        switch self {
        case let .welcome(welcome): try container.encode(Kind.welcome, forKey: .type); try welcome.encode(to: encoder)
        case let .ack(ack): try container.encode(Kind.ack, forKey: .type); try ack.encode(to: encoder)
        case let .schoolView(view): try container.encode(Kind.view, forKey: .type); try view.encode(to: encoder)
        case let .page(page): try container.encode(Kind.page, forKey: .type); try page.encode(to: encoder)
        case let .round(round): try container.encode(Kind.round, forKey: .type); try round.encode(to: encoder)
        case let .roundPlace(place): try container.encode(Kind.roundPlace, forKey: .type); try place.encode(to: encoder)
        case let .pong(nowMs):
            try container.encode(Kind.pong, forKey: .type)
            try container.encodeIfPresent(nowMs, forKey: .nowMs)
        case let .error(error): try container.encode(Kind.error, forKey: .type); try error.encode(to: encoder)
        case let .season(season):
            try container.encode(Kind.season, forKey: .type)
            try container.encode(season, forKey: .season)
        case let .map(report):
            try container.encode(Kind.map, forKey: .type)
            var fields = encoder.container(keyedBy: MapKeys.self)
            try fields.encodeIfPresent(report.catalog, forKey: .catalog)
            try fields.encode(report.marks, forKey: .marks)
            try fields.encodeIfPresent(report.mine, forKey: .mine)
            var cells: [UInt8] = []
            for change in report.cells { MapCellCode.append(cell: change.cell, glow: change.glow, to: &cells) }
            try fields.encode(String(decoding: cells, as: UTF8.self), forKey: .cells)
            if report.whole { try fields.encode(true, forKey: .whole) }
        }
    }
}

/// Why a message could not be read: said to the peer in the error before closing.
public struct MessageError: Error, Equatable, CustomStringConvertible, Sendable {
    public var code: UInt16
    public var description: String
}

public enum MessageCoding {
    /// One message as the text of a frame: keys sorted so the same message is the same bytes.
    public static func encode(_ message: ServerMessage) -> String { text(message) }
    public static func encode(_ message: ClientMessage) -> String { text(message) }

    /// A school's view exactly as `encode(.schoolView(…))` writes it, without JSONEncoder: the server
    /// encodes one for each school watched, four times a second.
    public static func encodeSchoolView(_ view: SchoolViewMessage) -> String {
        // Sorted keys: above, below, ranks, school, top, total, type, version. Written as bytes:
        // a server with a school per player encodes a view per player four times a second, and
        // string interpolation made that 8 % of its CPU (BENCHMARKS.md, "Network play over views").
        var json = JSONBytes(capacity: 384)
        json.append("{\"above\":")
        json.rows(view.above)
        json.append(",\"below\":")
        json.rows(view.below)
        json.append(",\"ranks\":[")
        for (index, standing) in view.ranks.enumerated() {
            if index > 0 { json.append(",") }
            json.append("[")
            json.number(standing.rank)
            json.append(",")
            json.number(standing.size)
            json.append(",")
            if let gap = standing.gap { json.number(gap) } else { json.append("null") }
            json.append("]")
        }
        json.append("],\"school\":")
        json.quoted(view.school)
        json.append(",\"top\":")
        json.rows(view.top)
        json.append(",\"total\":")
        json.number(view.total)
        json.append(",\"type\":\"view\",\"version\":")
        json.number(view.version)
        json.append("}")
        return json.text
    }

    /// An acknowledgement exactly as `encode(.ack(…))` writes it, without JSONEncoder: one per
    /// batch, a batch a second per player (JSONEncoder was 2.6 % of a server's CPU at 2,000).
    public static func encodeAck(_ ack: Acknowledgement) -> String {
        // Sorted keys: accepted, banned, player (best, school, taps), refused, seq, type.
        var json = JSONBytes(capacity: 128)
        json.append("{\"accepted\":")
        json.number(ack.accepted)
        if let banned = ack.banned { json.append(banned ? ",\"banned\":true" : ",\"banned\":false") }
        json.append(",\"player\":{\"best\":")
        json.number(ack.player.bestTapsPerSecond)
        json.append(",\"school\":")
        if let school = ack.player.schoolID { json.quoted(school) } else { json.append("null") }
        json.append(",\"taps\":")
        json.number(ack.player.taps)
        json.append("},\"refused\":")
        json.number(ack.refused)
        json.append(",\"seq\":")
        json.number(ack.seq)
        json.append(",\"type\":\"ack\"}")
        return json.text
    }

    /// A round place exactly as `encode(.roundPlace(…))` writes it, without JSONEncoder: every
    /// player of a round is sent one a second.
    public static func encodeRoundPlace(_ place: RoundStanding) -> String {
        // Sorted keys: count, final, id, place, players, tied (only when true), type.
        var json = JSONBytes(capacity: 96)
        json.append("{\"count\":")
        json.number(place.count)
        json.append(place.final ? ",\"final\":true,\"id\":" : ",\"final\":false,\"id\":")
        json.number(place.id)
        if let at = place.place {
            json.append(",\"place\":")
            json.number(at)
        }
        json.append(",\"players\":")
        json.number(place.players)
        if place.tied { json.append(",\"tied\":true") }
        json.append(",\"type\":\"roundPlace\"}")
        return json.text
    }

    /// A page exactly as `encode(.page(…))` writes it, without JSONEncoder.
    public static func encodePage(_ page: PageMessage) -> String {
        // Sorted keys: from, league, rows, size, type, version.
        var json = JSONBytes(capacity: 128 + 32 * page.rows.count)
        json.append("{\"from\":")
        json.number(page.from)
        json.append(",\"league\":{")
        if let level = page.league.level {
            json.append("\"level\":")
            json.quoted(level)
        }
        if let province = page.league.province {
            if page.league.level != nil { json.append(",") }
            json.append("\"province\":")
            json.quoted(province)
        }
        json.append("},\"rows\":")
        json.rows(page.rows)
        json.append(",\"size\":")
        json.number(page.size)
        json.append(",\"type\":\"page\",\"version\":")
        json.number(page.version)
        json.append("}")
        return json.text
    }

    /// JSON written as UTF-8 bytes into one buffer, for the views' hand encoders.
    private struct JSONBytes {
        private var bytes: [UInt8] = []

        init(capacity: Int) { bytes.reserveCapacity(capacity) }

        var text: String { String(decoding: bytes, as: UTF8.self) }

        mutating func append(_ literal: StaticString) {
            literal.withUTF8Buffer { bytes.append(contentsOf: $0) }
        }

        mutating func number(_ value: some BinaryInteger) {
            if value < 0 {
                bytes.append(UInt8(ascii: "-"))
                number(value.magnitude)
                return
            }
            var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                          UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
                (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            var count = 0
            var rest = UInt64(value)
            withUnsafeMutableBytes(of: &digits) { buffer in
                repeat {
                    buffer[19 - count] = UInt8(ascii: "0") + UInt8(rest % 10)
                    rest /= 10
                    count += 1
                } while rest > 0
                bytes.append(contentsOf: buffer[(20 - count)...])
            }
        }

        /// A school id or a province as a JSON string. Ids are `A–Z a–z 0–9 - _` and provinces
        /// the catalog's Korean names, which need no escape; anything else goes through
        /// JSONEncoder.
        mutating func quoted(_ string: String) {
            if string.utf8.allSatisfy({ $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") && $0 != 0x7F }) {
                bytes.append(UInt8(ascii: "\""))
                bytes.append(contentsOf: string.utf8)
                bytes.append(UInt8(ascii: "\""))
            } else {
                bytes.append(contentsOf: MessageCoding.text(string).utf8)
            }
        }

        mutating func rows(_ rows: [RankedRow]) {
            append("[")
            for (index, row) in rows.enumerated() {
                if index > 0 { append(",") }
                append("[")
                number(row.rank)
                append(",")
                quoted(row.school)
                append(",")
                number(row.total)
                append("]")
            }
            append("]")
        }
    }

    public static func decodeClient(_ text: String) throws(MessageError) -> ClientMessage {
        if text.utf8.count <= PlayProtocol.maximumClientMessageBytes, let batch = TapsDecoding.decode(text) { return .taps(batch) }
        return try decode(text, limit: PlayProtocol.maximumClientMessageBytes)
    }

    public static func decodeServer(_ text: String) throws(MessageError) -> ServerMessage {
        try decode(text, limit: PlayProtocol.maximumServerMessageBytes)
    }

    private static func text(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Our own values always encode: a failure here is a programming error.
        return String(decoding: try! encoder.encode(value), as: UTF8.self)
    }

    private static func decode<Message: Decodable>(_ text: String, limit: Int) throws(MessageError) -> Message {
        guard text.utf8.count <= limit else {
            throw MessageError(code: CloseCode.messageTooBig, description: "message of \(text.utf8.count) bytes: the limit is \(limit)")
        }
        do {
            return try JSONDecoder().decode(Message.self, from: Data(text.utf8))
        } catch let DecodingError.dataCorrupted(context) {
            throw MessageError(code: CloseCode.policyViolation, description: "not a message: \(context.debugDescription)")
        } catch let DecodingError.keyNotFound(key, _) {
            throw MessageError(code: CloseCode.policyViolation, description: "not a message: \"\(key.stringValue)\" is missing")
        } catch let DecodingError.typeMismatch(_, context) {
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            throw MessageError(code: CloseCode.policyViolation, description: "not a message: \(path) has the wrong type")
        } catch let DecodingError.valueNotFound(_, context) {
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            throw MessageError(code: CloseCode.policyViolation, description: "not a message: \(path) is null")
        } catch {
            throw MessageError(code: CloseCode.policyViolation, description: "not a message")
        }
    }
}
