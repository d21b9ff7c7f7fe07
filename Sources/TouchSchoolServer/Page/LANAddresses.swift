#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The addresses students can type to reach `serve`: the host it listens on, or, listening on
/// every interface (0.0.0.0, ::), this machine's addresses on its networks. 0.0.0.0 itself is
/// never one: nobody can reach it. What `serve` prints for the teacher, and what the projector
/// opened at this machine's loopback shows instead of it (`JoinAddresses`).
public enum LANAddresses {
    /// One address of one network interface, as `getifaddrs` lists it.
    public struct InterfaceAddress: Equatable, Sendable {
        public var interface: String
        public var address: String
        public var isIPv6: Bool

        public init(interface: String, address: String, isIPv6: Bool) {
            self.interface = interface
            self.address = address
            self.isIPv6 = isIPv6
        }
    }

    /// The hosts to hand out for a server listening on `host`, best first.
    public static func hosts(listeningOn host: String, interfaces: [InterfaceAddress]) -> [String] {
        guard host == "0.0.0.0" || host == "::" else { return [host] }
        let reachable = interfaces.filter { candidate in
            // "::" takes IPv6 and IPv4 connections; "0.0.0.0" IPv4 only.
            (host == "::" || !candidate.isIPv6) && !isLoopbackOrLinkLocal(candidate)
        }
        // IPv4 first (what people type), and the networks of containers and VMs on this machine
        // after the real ones: the first address is the one drawn as a QR code.
        let ordered = reachable.enumerated().sorted { left, right in
            func key(_ item: (offset: Int, element: InterfaceAddress)) -> (Int, Int, Int) {
                (item.element.isIPv6 ? 1 : 0, isVirtual(item.element.interface) ? 1 : 0, item.offset)
            }
            return key(left) < key(right)
        }
        var hosts: [String] = []
        for candidate in ordered.map(\.element.address) where !hosts.contains(candidate) { hosts.append(candidate) }
        return hosts
    }

    /// 127.0.0.0/8 and ::1 reach only this machine; 169.254.0.0/16 and fe80::/10 need an
    /// interface named in the URL, which browsers do not take.
    static func isLoopbackOrLinkLocal(_ candidate: InterfaceAddress) -> Bool {
        let address = candidate.address.lowercased()
        if candidate.isIPv6 {
            return address == "::1" || ["fe8", "fe9", "fea", "feb"].contains { address.hasPrefix($0) }
        }
        return address.hasPrefix("127.") || address.hasPrefix("169.254.")
    }

    /// Bridges of containers and virtual machines, by their usual names.
    static func isVirtual(_ interface: String) -> Bool {
        ["docker", "br-", "veth", "virbr", "lxc", "cni", "flannel"].contains { interface.hasPrefix($0) }
    }

    /// Every IPv4 and IPv6 address of the interfaces that are up, as `getifaddrs` lists them.
    public static func current() -> [InterfaceAddress] {
        var first: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&first) == 0 else { return [] }
        defer { freeifaddrs(first) }
        var result: [InterfaceAddress] = []
        var next = first
        while let entry = next {
            next = entry.pointee.ifa_next
            guard let socketAddress = entry.pointee.ifa_addr, entry.pointee.ifa_flags & UInt32(IFF_UP) != 0 else { continue }
            let family = Int32(socketAddress.pointee.sa_family)
            var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
            let written: UnsafePointer<CChar>?
            switch family {
            case AF_INET:
                written = socketAddress.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { address in
                    var bytes = address.pointee.sin_addr
                    return inet_ntop(AF_INET, &bytes, &text, socklen_t(text.count))
                }
            case AF_INET6:
                written = socketAddress.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { address in
                    var bytes = address.pointee.sin6_addr
                    return inet_ntop(AF_INET6, &bytes, &text, socklen_t(text.count))
                }
            default:
                continue
            }
            guard written != nil else { continue }
            result.append(InterfaceAddress(interface: String(cString: entry.pointee.ifa_name), address: text.withUnsafeBufferPointer { String(cString: $0.baseAddress!) },
                                           isIPv6: family == AF_INET6))
        }
        return result
    }
}
