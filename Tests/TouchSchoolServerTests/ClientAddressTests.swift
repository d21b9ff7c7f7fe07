import Testing
import TouchSchoolTestSupport
@testable import TouchSchoolServer

/// The address a connection is counted under, and the network its tap budget and request
/// budgets are shared by.
@Suite(.onOwnThreads) struct ClientAddressTests {
    /// A host picks any address of its /64 at will: every one of them is one network.
    @Test func anIPv6AddressCountsAsItsSlash64() {
        #expect(ClientAddress.network(of: "2001:db8:1:2:aaaa:bbbb:cccc:1") == "2001:db8:1:2::/64")
        #expect(ClientAddress.network(of: "2001:db8:1:2::9") == "2001:db8:1:2::/64")
        #expect(ClientAddress.network(of: "2001:DB8:1:3::1") == "2001:db8:1:3::/64")
        #expect(ClientAddress.network(of: "fe80::1") == "fe80:0:0:0::/64")
    }

    @Test func anIPv4AddressAlsoMappedIntoIPv6IsItself() {
        #expect(ClientAddress.network(of: "10.1.2.3") == "10.1.2.3")
        #expect(ClientAddress.network(of: "::ffff:10.1.2.3") == "10.1.2.3")
        #expect(ClientAddress.network(of: "unknown") == "unknown")
    }

    /// A ban names the network the budgets count, in one spelling whatever spelling was given.
    @Test func aBanNamesOneNetworkWhateverTheSpelling() {
        #expect(ClientAddress.bannedNetwork("203.0.113.7") == "203.0.113.7")
        #expect(ClientAddress.bannedNetwork("203.0.113.7/32") == "203.0.113.7")
        #expect(ClientAddress.bannedNetwork("::ffff:203.0.113.7") == "203.0.113.7")
        #expect(ClientAddress.bannedNetwork("::FFFF:cb00:7107") == "203.0.113.7")
        #expect(ClientAddress.bannedNetwork("2001:db8:1:2::9") == "2001:db8:1:2::/64")
        #expect(ClientAddress.bannedNetwork("2001:0DB8:0001:0002:0:0:0:1") == "2001:db8:1:2::/64")
        #expect(ClientAddress.bannedNetwork("2001:db8:1:2::/64") == "2001:db8:1:2::/64")
        for refused in ["203.0.113.007", "203.0.113.7/24", "203.0.113.7/", "2001:db8::1/48", "2001:db8::1/128", "::ffff:203.0.113.7/64",
                        "203.0.113", "example.org", "", "unknown"] {
            #expect(ClientAddress.bannedNetwork(refused) == nil, "\(refused)")
        }
    }

    /// Behind a trusted balancer, the nearest forwarded address that is not a balancer; what a
    /// client wrote at the start of the header is not believed.
    @Test func behindATrustedProxyTheLimitsCountTheAddressItForwards() {
        let proxies: Set<String> = ["10.0.0.1", "10.0.0.2"]
        #expect(ClientAddress.of(peer: "10.0.0.1", forwardedFor: "203.0.113.9", trustedProxies: proxies) == "203.0.113.9")
        // What a client wrote itself comes first; the proxies appended the real address after.
        #expect(ClientAddress.of(peer: "10.0.0.1", forwardedFor: "1.2.3.4, 203.0.113.9, 10.0.0.2", trustedProxies: proxies) == "203.0.113.9")
        #expect(ClientAddress.of(peer: "198.51.100.7", forwardedFor: "1.2.3.4", trustedProxies: proxies) == "198.51.100.7")
        #expect(ClientAddress.of(peer: "10.0.0.1", forwardedFor: nil, trustedProxies: proxies) == "10.0.0.1")
        #expect(ClientAddress.of(peer: nil, forwardedFor: "1.2.3.4", trustedProxies: proxies) == "unknown")
    }
}
