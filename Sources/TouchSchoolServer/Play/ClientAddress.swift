import HTTPTypes

/// The address a connection is counted under by the per-address limits. Behind a load balancer
/// every connection comes from the balancer: for a connection from one of `trustedProxies`,
/// the address is the nearest one in `X-Forwarded-For` that is not itself a trusted proxy (a
/// client can write anything at the start of that header, not after what the proxy appended).
enum ClientAddress {
    static let forwardedFor = HTTPField.Name("X-Forwarded-For")!

    static func of(peer: String?, forwardedFor header: String?, trustedProxies: Set<String>) -> String {
        guard let peer else { return "unknown" }
        guard trustedProxies.contains(peer), let header else { return peer }
        let hops = header.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        return hops.reversed().first { !trustedProxies.contains($0) } ?? peer
    }
}
