import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import TouchSchoolCore
import TouchSchoolProtocol

/// The HTTP endpoints: scores, catalog, the player of a device, health and metrics.
struct Routes {
    let battle: BattleHallRuntime
    let metrics: ServerMetrics
    /// Where a whole board is encoded: not in front of play.
    let costly: CostlyWork

    func add(to router: Router<HTTPRequestContext>) {
        router.get("/v1/scores") { request, _ -> Response in
            guard let period = Self.period(request) else { return Self.periodRefused }
            let (board, season) = await battle.board(period)
            return Self.seasonNamed(season, Self.json(await costly.run { MessageCoding.encodeJSON(board) }))
        }
        // What a player of the school is sent as its `view`, and a page as a `watch` of it gets
        // it: for a client that shows one without playing (`rank --server`), and to check a
        // screen against the server's numbers.
        router.get("/v1/view") { request, _ -> Response in
            guard let id = request.uri.queryParameters.get("school"), id.utf8.count <= 64 else {
                return Self.json(#"{"error":"name the school: ?school=ID"}"#, status: .badRequest)
            }
            guard let period = Self.period(request) else { return Self.periodRefused }
            guard let key = await battle.viewKey(ofSchool: id), let (text, season) = await battle.view(key, period: period) else {
                return Self.json(#"{"error":"the catalog has no such school"}"#, status: .notFound)
            }
            return Self.seasonNamed(season, Self.json(text))
        }
        router.get("/v1/page") { request, _ -> Response in
            let key: BoardViewKey?
            do throws(BoardRanking.WatchRefusal) {
                key = try BoardStream.page(request.uri.queryParameters)
            } catch {
                return Self.json(MessageCoding.encodeJSON(["error": error.message]), status: .badRequest)
            }
            guard let period = Self.period(request) else { return Self.periodRefused }
            guard let key, let (text, season) = await battle.view(key, period: period) else {
                return Self.json(#"{"error":"name the page: ?count=N (1 to 100), with from, level and province as in watch"}"#, status: .badRequest)
            }
            return Self.seasonNamed(season, Self.json(text))
        }
        router.get(RouterPath(PlayProtocol.battlePath)) { _, _ -> Response in
            var response = Self.json(MessageCoding.encodeJSON(BattleIdentity(battle: battle.battleID)))
            response.headers[.cacheControl] = "no-cache"
            return response
        }
        router.get("/v1/catalog") { request, _ -> Response in
            let catalog = await battle.catalog
            var headers: HTTPFields = [.eTag: catalog.etag, .cacheControl: "no-cache"]
            if let tags = request.headers[.ifNoneMatch],
               tags.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == catalog.etag || $0.trimmingCharacters(in: .whitespaces) == "*" }) {
                return Response(status: .notModified, headers: headers)
            }
            headers[.contentType] = "application/json; charset=utf-8"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: catalog.bytes)))
        }
        // The map's grid (`MapGridAnswer`), asked once per catalog by a screen showing the map.
        router.get("/v1/map") { _, _ -> Response in
            var response = Self.json(await battle.mapGrid())
            response.headers[.cacheControl] = "no-cache"
            return response
        }
        router.get("/v1/me") { request, _ -> Response in
            guard let device = request.headers[HTTPField.Name(PlayProtocol.deviceHeader)!], BattleRules.isValidDeviceKey(device) else {
                return Self.json(#"{"error":"name the device with the header \#(PlayProtocol.deviceHeader)"}"#, status: .badRequest)
            }
            let known: (PlayerState, DeviceRecord)?
            do { known = try await battle.playerRecord(device: device) } catch {
                return Self.json(MessageCoding.encodeJSON(["error": "the scores cannot be read now: \(error)"]), status: .serviceUnavailable)
            }
            guard let (player, record) = known else {
                return Self.json(#"{"error":"this server does not know the device"}"#, status: .notFound)
            }
            return Self.json(MessageCoding.encodeJSON(Me(player: record.player, lastSeq: record.lastSeq, school: player.schoolID,
                                                         taps: player.taps, best: player.bestTapsPerSecond)))
        }
        router.get("/healthz") { _, _ -> Response in
            if let error = await battle.lastSaveError {
                return Self.json(MessageCoding.encodeJSON(Health(status: "failing", saving: false, error: error)), status: .serviceUnavailable)
            }
            return Self.json(MessageCoding.encodeJSON(Health(status: "ok", saving: true, error: nil)))
        }
        router.get("/metrics") { _, _ -> Response in
            Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                     body: .init(byteBuffer: ByteBuffer(bytes: metrics.text())))
        }
    }

    struct Me: Codable {
        var player: String
        var lastSeq: UInt64
        var school: String?
        var taps: UInt64
        var best: Int

        /// `school` as documented, `null` without one: not left out, as the synthesized encoding would.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(player, forKey: .player)
            try container.encode(lastSeq, forKey: .lastSeq)
            try container.encode(school, forKey: .school)
            try container.encode(taps, forKey: .taps)
            try container.encode(best, forKey: .best)
        }
    }

    struct Health: Codable {
        var status: String
        var saving: Bool
        var error: String?
    }

    /// The numbers a request asks for: `?period=all` all time, else the season (nil: neither).
    static func period(_ request: Request) -> RankingPeriod? {
        guard let asked = request.uri.queryParameters.get("period") else { return .season }
        return RankingPeriod(rawValue: String(asked))
    }

    static let periodRefused = json(#"{"error":"period is season or all"}"#, status: .badRequest)

    static let seasonHeader = HTTPField.Name(PlayProtocol.seasonHeader)!

    static func seasonNamed(_ season: Season?, _ response: Response) -> Response {
        var response = response
        if let season { response.headers[seasonHeader] = season.id }
        return response
    }

    static func json(_ text: String, status: HTTPResponse.Status = .ok) -> Response {
        json(ResponseBody(byteBuffer: ByteBuffer(string: text)), status: status)
    }

    static func json(_ body: ResponseBody, status: HTTPResponse.Status = .ok) -> Response {
        Response(status: status, headers: [.contentType: "application/json; charset=utf-8"], body: body)
    }
}

extension MessageCoding {
    /// Any value as JSON text, keys sorted (the HTTP endpoints' bodies).
    static func encodeJSON(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try! encoder.encode(value), as: UTF8.self)
    }
}
