import Foundation
import TouchSchoolClient
import TouchSchoolCommandLine
import TouchSchoolCore
import TouchSchoolOutbox
import TouchSchoolProtocol
import TouchSchoolView

/// `touchschool admin …` over the server's admin API (docs/protocol.md, "The admin API"): the
/// request with the token in its `Authorization` header, the answer as a table or JSON.
enum AdminRequests {
    static func run(_ request: AdminRequest) throws -> String {
        let server: ServerAddress
        do { server = try ServerAddress(parsing: request.server) } catch { throw CommandError(NetworkCommandText.notAServerURL("--server", error)) }
        let (method, path) = switch request.action {
        case let .devices(top, _): ("GET", "/v1/admin/devices?top=\(top)")
        case let .ban(id, removeTaps): ("POST", "/v1/admin/devices/\(escaped(id))/ban" + (removeTaps ? "?removeTaps=true" : ""))
        case let .unban(id): ("POST", "/v1/admin/devices/\(escaped(id))/unban")
        case let .banAddress(address): ("POST", "/v1/admin/addresses/\(escaped(address))/ban")
        case let .unbanAddress(address): ("POST", "/v1/admin/addresses/\(escaped(address))/unban")
        }
        let response: ServerResponse
        do {
            response = try blockingWait { () throws -> ServerResponse in
                try await ServerHTTP.send(server, method, path, headers: [("Authorization", "Bearer \(request.token)")])
            }
        } catch let error as ServerRequestError where error.failure != nil {
            throw CommandError(NetworkCommandText.cannotReach("\(server)", error.failure!, english: error.description))
        }
        switch (response.status, request.action) {
        case (200, _): break
        case (401, _): throw CommandError(NetworkCommandText.tokenRefused("\(server)"))
        case let (404, .ban(id, _)), let (404, .unban(id)): throw CommandError(NetworkCommandText.noSuchDevice(id, on: "\(server)"))
        default: throw CommandError(NetworkCommandText.serverAnswered("\(server)", status: response.status, message(response.body)))
        }
        switch request.action {
        case let .devices(_, json):
            let devices = try decode([AdminAnswer.Device].self, response.body)
            return json ? Self.json(devices) : table(devices, schoolNames: devices.isEmpty ? [:] : schoolNames(on: server))
        case let .ban(id, removeTaps):
            let answer = try decode(AdminAnswer.Ban.self, response.body)
            let removed = answer.removed.values.reduce(0, +)
            return removeTaps ? NetworkCommandText.banned(id, removedTaps: removed, fromSchools: answer.removed.count) : NetworkCommandText.banned(id)
        case let .unban(id):
            _ = try decode(AdminAnswer.Ban.self, response.body)
            return NetworkCommandText.liftedBan(id)
        case let .banAddress(address): return NetworkCommandText.bannedAddress(address)
        case let .unbanAddress(address): return NetworkCommandText.liftedAddressBan(address)
        }
    }

    /// One row a device, every column lined up by display width (players' names are often
    /// Hangul), folded to 80 columns (`TextTable`); the school by its name where the server's
    /// directory names it (`schoolNames`); what the counts are under it.
    static func table(_ devices: [AdminAnswer.Device], schoolNames: [String: String]) -> String {
        var lines = [NetworkCommandText.devicesHeadings]
        for device in devices {
            let school = device.school.map { schoolNames[$0] ?? $0 } ?? "-"
            lines.append([device.id, playsOn(device.client), counts(device.acceptedLastHour, device.refusedLastHour), counts(device.accepted, device.refused),
                          NetworkCommandText.yesNo(device.banned), device.player, school, device.addresses.joined(separator: ", ")].map(VisibleText.escaping))
        }
        return TextTable.render(lines, rightAligned: []) + NetworkCommandText.devicesLegend + "\n"
    }

    /// Accepted/refused, grouped as every count the program prints (12,345/0).
    private static func counts(_ accepted: UInt64, _ refused: UInt64) -> String { "\(NumberText.grouped(accepted))/\(NumberText.grouped(refused))" }

    /// The device's kind in a word; "-" for one whose game said nothing (before this version).
    static func playsOn(_ client: String?) -> String {
        client.flatMap(ClientKind.init(rawValue:)).map(NetworkCommandText.playsOn) ?? "-"
    }

    /// The server's schools by id (`GET /v1/schools`); none when it does not answer (the ids stay).
    static func schoolNames(on server: ServerAddress) -> [String: String] {
        guard let directory = try? ServerHTTP.fetchJSON(SchoolDirectory.self, from: server, SchoolEndpoints.schoolsPath) else { return [:] }
        var names: [String: String] = [:]
        for row in directory.schools where row.count >= 2 { names[row[0]] = row[1] }
        return names
    }

    /// An answer as `--json` prints it: keys sorted, indented.
    static func json(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(value)) ?? Data("null".utf8), as: UTF8.self) + "\n"
    }

    static func decode<T: Decodable>(_ type: T.Type, _ body: [UInt8]) throws -> T {
        do { return try JSONDecoder().decode(type, from: Data(body)) } catch {
            throw CommandError(NetworkCommandText.unreadableAnswer("\(error)"))
        }
    }

    /// The server's `{"error": …}`, else the body's start.
    static func message(_ body: [UInt8]) -> String {
        let text = (try? JSONDecoder().decode([String: String].self, from: Data(body)))?["error"] ?? String(decoding: body.prefix(300), as: UTF8.self)
        return VisibleText.escaping(text)
    }

    private static func escaped(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/"))) ?? text
    }
}
