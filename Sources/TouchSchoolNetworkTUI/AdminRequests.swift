import Foundation
import TouchSchoolClient
import TouchSchoolCommandLine
import TouchSchoolCore
import TouchSchoolProtocol

/// `touchschool admin …` over the server's admin API (docs/protocol.md, "The admin API"): the
/// request with the token in its `Authorization` header, the answer as a table or JSON.
enum AdminRequests {
    static func run(_ request: AdminRequest) throws -> String {
        let server: ServerAddress
        do { server = try ServerAddress(parsing: request.server) } catch { throw CommandError("--server is \(error)") }
        let (method, path) = switch request.action {
        case let .devices(top, _): ("GET", "/v1/admin/devices?top=\(top)")
        case let .ban(id, removeTaps): ("POST", "/v1/admin/devices/\(escaped(id))/ban" + (removeTaps ? "?removeTaps=true" : ""))
        case let .unban(id): ("POST", "/v1/admin/devices/\(escaped(id))/unban")
        case let .banAddress(address): ("POST", "/v1/admin/addresses/\(escaped(address))/ban")
        case let .unbanAddress(address): ("POST", "/v1/admin/addresses/\(escaped(address))/unban")
        }
        let response: ServerResponse
        do {
            response = try runAsync { () throws -> ServerResponse in
                try await ServerHTTP.send(server, method, path, headers: [("Authorization", "Bearer \(request.token)")])
            }
        } catch let error as ServerRequestError where error.failure != nil {
            throw CommandError(NetworkCommandText.cannotReach("\(server)", error.failure!, english: error.description))
        }
        switch response.status {
        case 200: break
        case 401: throw CommandError("the token is not this server's (\(server) answered 401): use the admin.token of its data directory, or the file given to its --admin-token-file")
        default: throw CommandError("\(server) answered \(response.status): \(message(response.body))")
        }
        switch request.action {
        case let .devices(_, json):
            let devices = try decode([AdminAnswer.Device].self, response.body)
            return json ? Self.json(devices) : table(devices)
        case let .ban(id, removeTaps):
            let answer = try decode(AdminAnswer.Ban.self, response.body)
            let removed = answer.removed.values.reduce(0, +)
            return "Banned \(id)" + (removeTaps ? ": \(removed) taps taken off \(answer.removed.count) schools\n" : "\n")
        case let .unban(id):
            _ = try decode(AdminAnswer.Ban.self, response.body)
            return "Lifted the ban of \(id)\n"
        case let .banAddress(address): return "Banned the address \(address): new connections from it are refused\n"
        case let .unbanAddress(address): return "Lifted the ban of the address \(address)\n"
        }
    }

    static func table(_ devices: [AdminAnswer.Device]) -> String {
        var text = "ID                        LAST HOUR (ACCEPTED/REFUSED)  IN ALL (ACCEPTED/REFUSED)  BANNED  PLAYER  SCHOOL  ADDRESSES\n"
        for device in devices {
            let hour = "\(device.acceptedLastHour)/\(device.refusedLastHour)"
            let all = "\(device.accepted)/\(device.refused)"
            text += device.id.padding(toLength: 26, withPad: " ", startingAt: 0)
                + hour.padding(toLength: 30, withPad: " ", startingAt: 0)
                + all.padding(toLength: 27, withPad: " ", startingAt: 0)
                + (device.banned ? "yes     " : "no      ")
                + VisibleText.escaping(device.player) + "  " + VisibleText.escaping(device.school ?? "-") + "  "
                + VisibleText.escaping(device.addresses.joined(separator: ", ")) + "\n"
        }
        return text
    }

    static func json(_ devices: [AdminAnswer.Device]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(devices)) ?? Data("[]".utf8), as: UTF8.self) + "\n"
    }

    private static func decode<T: Decodable>(_ type: T.Type, _ body: [UInt8]) throws -> T {
        do { return try JSONDecoder().decode(type, from: Data(body)) } catch {
            throw CommandError("the server's answer cannot be read by this version (\(error))")
        }
    }

    /// The server's `{"error": …}`, else the body's start.
    private static func message(_ body: [UInt8]) -> String {
        let text = (try? JSONDecoder().decode([String: String].self, from: Data(body)))?["error"] ?? String(decoding: body.prefix(300), as: UTF8.self)
        return VisibleText.escaping(text)
    }

    private static func escaped(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/"))) ?? text
    }
}
