import Synchronization

/// Limits per remote address. A school lab sits behind one NAT, so one address may be hundreds of
/// players; the limits are far above that and only stop one address from opening connections or
/// minting device keys without end (each device costs a record in the state file).
public struct AddressLimitPolicy: Sendable {
    /// Open play connections from one address: a lab of several hundred players, twice over.
    public var connectionsPerAddress: Int
    /// Open sockets from one address (an IPv6 /64), whatever they carry: each player's play
    /// socket and board stream, and the few HTTP connections a page loads with.
    public var socketsPerAddress: Int
    /// Distinct devices one address may play with in an hour: a school's labs in a day of
    /// classes, while a bot minting a key per connection is stopped within the hour.
    public var devicesPerAddressPerHour: Int
    /// Taps a second all devices of one address (an IPv6 /64) may have accepted together,
    /// sustained: a school lab of 40 behind one NAT, every player at the guard's 46 a second,
    /// makes 1,840, so a whole lab may sprint; 300 keys of one script share the same 2,000.
    public var tapsPerSecond: Int
    /// Taps one address may have accepted at once: a lab's 40 players coming back together from
    /// an outage of a few seconds deliver a full burst window (230) each, 9,200. A new device's
    /// allowance of two minutes before it was first seen comes out of it too, so keys minted in
    /// a burst buy no more than this.
    public var tapBurst: Int

    public static let standard = AddressLimitPolicy(connectionsPerAddress: 1_000, socketsPerAddress: 2_500, devicesPerAddressPerHour: 1_000,
                                                    tapsPerSecond: 2_000, tapBurst: 10_000)

    public init(connectionsPerAddress: Int, socketsPerAddress: Int, devicesPerAddressPerHour: Int, tapsPerSecond: Int, tapBurst: Int) {
        self.connectionsPerAddress = connectionsPerAddress
        self.socketsPerAddress = socketsPerAddress
        self.devicesPerAddressPerHour = devicesPerAddressPerHour
        self.tapsPerSecond = tapsPerSecond
        self.tapBurst = tapBurst
    }
}

/// Counts open sockets, play connections and recent devices per address, shared by every
/// connection.
package final class AddressLimits: Sendable {
    let policy: AddressLimitPolicy
    /// The sockets this process can hold, all told and per address (`SocketCapacity`).
    let capacity: SocketCapacity
    private let state = Mutex(State())

    private struct State {
        var open: [String: Int] = [:]
        var sockets: [String: Int] = [:]
        var allSockets = 0
        /// Devices seen per address, with when they were last seen (seconds, monotonic).
        var devices: [String: [String: Int64]] = [:]
    }

    /// `capacity`: by default the policy's own numbers, as if descriptors were without end.
    package init(policy: AddressLimitPolicy, capacity: SocketCapacity? = nil) {
        self.policy = policy
        self.capacity = capacity ?? SocketCapacity(unbounded: policy)
    }

    /// Takes a connection slot for `address`; false when it has too many open.
    package func openConnection(from address: String) -> Bool {
        state.withLock { Self.take(address, in: &$0.open, limit: capacity.connectionsPerAddress) }
    }

    package func closeConnection(from address: String) {
        state.withLock { Self.give(address, in: &$0.open) }
    }

    /// Takes a socket slot for `address` (any connection, before its first byte is read);
    /// false when it has too many open.
    /// false when it has too many open, or the process as many as it can hold.
    package func openSocket(from address: String) -> Bool {
        state.withLock { state in
            guard state.allSockets < capacity.total, Self.take(address, in: &state.sockets, limit: capacity.perAddress) else { return false }
            state.allSockets += 1
            return true
        }
    }

    package func closeSocket(from address: String) {
        state.withLock { state in
            guard state.sockets[address] != nil else { return }
            Self.give(address, in: &state.sockets)
            state.allSockets -= 1
        }
    }

    private static func take(_ address: String, in open: inout [String: Int], limit: Int) -> Bool {
        let count = open[address] ?? 0
        guard count < limit else { return false }
        open[address] = count + 1
        return true
    }

    private static func give(_ address: String, in open: inout [String: Int]) {
        let count = (open[address] ?? 1) - 1
        open[address] = count > 0 ? count : nil
    }

    /// Whether `device` may play from `address` now (`nowSeconds`: a monotonic clock).
    func admitDevice(_ device: String, from address: String, nowSeconds: Int64) -> Bool {
        state.withLock { state in
            // In place: a copy of the address's devices per hello made a lab's thousand
            // devices joining together cost a million entries copied.
            if state.devices[address]?[device] == nil, let seen = state.devices[address], seen.count >= policy.devicesPerAddressPerHour {
                let recent = seen.filter { nowSeconds - $0.value < 3_600 }
                state.devices[address] = recent
                guard recent.count < policy.devicesPerAddressPerHour else { return false }
            }
            state.devices[address, default: [:]][device] = nowSeconds
            return true
        }
    }
}
