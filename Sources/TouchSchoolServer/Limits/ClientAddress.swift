#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import HTTPTypes

/// The address a connection is counted under by the per-address limits. Behind a load balancer
/// every connection comes from the balancer: for a connection from one of `trustedProxies`,
/// the address is the nearest one in `X-Forwarded-For` that is not itself a trusted proxy (a
/// client can write anything at the start of that header, not after what the proxy appended).
package enum ClientAddress {
    static let forwardedFor = HTTPField.Name("X-Forwarded-For")!

    static func of(peer: String?, forwardedFor header: String?, trustedProxies: Set<String>) -> String {
        guard let peer else { return "unknown" }
        guard trustedProxies.contains(peer), let header else { return peer }
        let hops = header.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        return hops.reversed().first { !trustedProxies.contains($0) } ?? peer
    }

    /// What the operator may name in a ban, as the network it bans (`network(of:)`, the key the
    /// bans are kept and looked up under): an IPv4 address in dotted decimal (`/32` may follow),
    /// or an IPv6 address in any of its spellings (`/64` may follow), whose /64 is banned as the
    /// budgets count it; one mapped into IPv6 (`::ffff:203.0.113.7`) is its IPv4 address, as a
    /// server listening on `::` sees that player. Nil for anything else: a leading zero
    /// (`127.0.0.071`, octal to some tools), another prefix length, a host name.
    static func bannedNetwork(_ text: String) -> String? {
        var bytes = [UInt8](repeating: 0, count: 16)
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        let address = parts[0], prefix = parts.count == 2 ? parts[1] : nil
        if inet_pton(AF_INET, address, &bytes) == 1 {
            return prefix == nil || prefix == "32" ? address : nil
        }
        guard inet_pton(AF_INET6, address, &bytes) == 1 else { return nil }
        let key = network(of: address)
        // A mapped IPv4 address is one address (/128, or /32 of its IPv4 form); any other is its /64.
        if !key.hasSuffix("/64") { return prefix == nil || prefix == "128" ? key : nil }
        return prefix == nil || prefix == "64" ? key : nil
    }

    /// The network `address` shares a tap budget with: an IPv6 address's /64 (one household or
    /// lab is given a /64, and a host picks any of its 2^64 addresses at will), an IPv4 address
    /// (also one mapped into IPv6) itself.
    package static func network(of address: String) -> String {
        var bytes = [UInt8](repeating: 0, count: 16)
        guard address.contains(":"), inet_pton(AF_INET6, address, &bytes) == 1 else { return address }
        if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF {
            return bytes[12...].map(String.init).joined(separator: ".")
        }
        let groups = stride(from: 0, to: 8, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }
        return groups.joined(separator: ":") + "::/64"
    }
}
