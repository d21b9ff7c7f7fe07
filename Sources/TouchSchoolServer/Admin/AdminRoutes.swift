import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import TouchSchoolBattleDatabase
import TouchSchoolProtocol

/// The admin API under `/v1/admin/` (docs/protocol.md): the devices by their taps, bans of
/// devices (optionally with their taps taken off) and of addresses. Every request needs
/// `Authorization: Bearer TOKEN` (`AdminToken`); every one is logged with who asked (the
/// address) and what, never with the token.
struct AdminRoutes {
    let battle: BattleHallRuntime
    let token: AdminToken
    let trustedProxies: Set<String>
    let logger: Logger

    static let maximumTop = 1_000

    func add(to router: Router<HTTPRequestContext>) {
        let admin = router.group("/v1/admin").add(middleware: Authentication(token: token, trustedProxies: trustedProxies, logger: logger))
        admin.get("devices") { request, context -> Response in
            let top: Int
            if let text = request.uri.queryParameters.get("top") {
                guard let value = Int(text), (1...Self.maximumTop).contains(value) else {
                    return Self.error("top must be a whole number from 1 to \(Self.maximumTop)", status: .badRequest)
                }
                top = value
            } else {
                top = 20
            }
            log(request, context, "list the devices", ["top": "\(top)"])
            return try await answer {
                let nowMs = battle.clock.wallMs()
                let devices = try await battle.listDevices(top: top, nowMs: nowMs)
                let hour = DeviceActivity.hour(ofMs: nowMs)
                return Routes.json(MessageCoding.encodeJSON(devices.map { Self.answer($0, hour: hour) }))
            }
        }
        admin.post("devices/:id/ban") { request, context -> Response in
            guard let id = context.parameters.get("id"), DevicePublicID.isValid(id) else { return Self.badDevice }
            let removeTaps = request.uri.queryParameters.get("removeTaps") == "true"
            log(request, context, "ban a device", ["device": "\(id)", "removeTaps": "\(removeTaps)"])
            return try await answer {
                guard let outcome = try await battle.ban(device: id, removeTaps: removeTaps) else { return Self.unknown(id) }
                logger.notice("Banned a device", metadata: ["device": "\(id)", "removed": "\(outcome.removed)"])
                return Routes.json(MessageCoding.encodeJSON(AdminAnswer.Ban(id: id, banned: true, removed: outcome.removed)))
            }
        }
        admin.post("devices/:id/unban") { request, context -> Response in
            guard let id = context.parameters.get("id"), DevicePublicID.isValid(id) else { return Self.badDevice }
            log(request, context, "unban a device", ["device": "\(id)"])
            return try await answer {
                guard try await battle.unban(device: id) else { return Self.unknown(id) }
                return Routes.json(MessageCoding.encodeJSON(AdminAnswer.Ban(id: id, banned: false, removed: [:])))
            }
        }
        // An address alone, or with its prefix length (`203.0.113.7/32`, `2001:db8::/64`).
        for (action, banned) in [("ban", true), ("unban", false)] {
            for path in ["addresses/:address/\(action)", "addresses/:address/:prefix/\(action)"] {
                admin.post(RouterPath(path)) { request, context -> Response in
                    let given = [context.parameters.get("address"), context.parameters.get("prefix")].compactMap { $0 }.joined(separator: "/")
                    guard let network = ClientAddress.bannedNetwork(given) else {
                        return Self.error("not an address to ban: give an IPv4 address in dotted decimal without leading zeros "
                                          + "(203.0.113.7 or 203.0.113.7/32), or an IPv6 address (2001:db8::1 or 2001:db8::/64, "
                                          + "whose /64 is banned)", status: .badRequest)
                    }
                    log(request, context, "\(action) an address", ["address": "\(network)"])
                    return try await answer {
                        try await battle.setBanned(address: network, banned)
                        // A ban of one IPv6 address made before bans covered its /64.
                        if !banned, network != given { try await battle.setBanned(address: given, false) }
                        return Routes.json(MessageCoding.encodeJSON(AdminAnswer.Address(address: network, banned: banned)))
                    }
                }
            }
        }
    }

    /// One line per action: who (the address), what, on what.
    private func log(_ request: Request, _ context: HTTPRequestContext, _ action: String, _ details: Logger.Metadata) {
        var metadata = details
        metadata["from"] = "\(Authentication.address(request, context, trustedProxies: trustedProxies))"
        metadata["action"] = "\(action)"
        logger.notice("Admin request", metadata: metadata)
    }

    /// The store's failure as 503, with what it said.
    private func answer(_ body: () async throws -> Response) async throws -> Response {
        do { return try await body() } catch let error as BattleStoreError {
            return Self.error("the battle cannot be read or changed now: \(error)", status: .serviceUnavailable)
        }
    }

    static let badDevice = error("not a device id: 24 hex digits, as GET /v1/admin/devices lists them", status: .badRequest)

    static func unknown(_ id: String) -> Response { error("no device has the id \(id)", status: .notFound) }

    static func error(_ message: String, status: HTTPResponse.Status) -> Response {
        Routes.json(MessageCoding.encodeJSON(["error": message]), status: status)
    }

    /// Lets a request through only with the token; 401 otherwise.
    struct Authentication: RouterMiddleware {
        let token: AdminToken
        let trustedProxies: Set<String>
        let logger: Logger

        func handle(_ request: Request, context: HTTPRequestContext,
                    next: (Request, HTTPRequestContext) async throws -> Response) async throws -> Response {
            let header = request.headers[.authorization] ?? ""
            guard header.hasPrefix("Bearer "), token.matches(String(header.dropFirst("Bearer ".count))) else {
                logger.warning("Admin request refused: no token, or a wrong one", metadata: [
                    "from": "\(Self.address(request, context, trustedProxies: trustedProxies))", "path": "\(request.uri.path)"])
                var response = AdminRoutes.error("this needs the server's admin token: Authorization: Bearer TOKEN", status: .unauthorized)
                response.headers[.wwwAuthenticate] = "Bearer"
                return response
            }
            return try await next(request, context)
        }

        static func address(_ request: Request, _ context: HTTPRequestContext, trustedProxies: Set<String>) -> String {
            ClientAddress.of(peer: context.remoteAddress?.ipAddress, forwardedFor: request.headers[ClientAddress.forwardedFor],
                             trustedProxies: trustedProxies)
        }
    }

    /// A device as the admin API lists it, from the store's listing.
    static func answer(_ device: ListedDevice, hour: Int64) -> AdminAnswer.Device {
        let (acceptedLastHour, refusedLastHour) = device.activity.inHour(hour)
        return AdminAnswer.Device(id: device.publicID, player: device.player, school: device.school, accepted: device.activity.accepted,
                                  refused: device.activity.refused, acceptedLastHour: acceptedLastHour, refusedLastHour: refusedLastHour,
                                  addresses: device.activity.addresses, banned: device.banned,
                                  client: device.activity.client.isEmpty ? nil : device.activity.client)
    }
}
