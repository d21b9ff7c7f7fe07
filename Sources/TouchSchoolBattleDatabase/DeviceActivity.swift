import TouchSchoolCore

/// A device's tally beside the scores, for the operator (`GET /v1/admin/devices`): its taps
/// accepted and refused in all and in the current hour, and the addresses it played from. Kept
/// by every store in the same transaction as the scores; the merge is here, in one place.
///
/// "The last hour" is a clock-hour bucket: the hour (UTC, counted from 1970) of the last save
/// that touched the device, with what it accepted and refused in that hour. Read at a later hour,
/// the bucket counts 0: a device that played at 10:59 shows nothing at 11:00. Simple, and enough
/// to see who is hammering the battle now.
public struct DeviceActivity: Equatable, Sendable {
    public var accepted: UInt64 = 0
    public var refused: UInt64 = 0
    public var hour: Int64 = 0
    public var hourAccepted: UInt64 = 0
    public var hourRefused: UInt64 = 0
    /// The last `maximumAddresses` distinct addresses, the most recent last.
    public var addresses: [String] = []
    /// What the device last played with (`ClientKind`'s raw value), "" before a hello said.
    public var client: String = ""

    /// Enough to see a device hopping between networks, bounded so that a row stays small.
    public static let maximumAddresses = 8

    public init(accepted: UInt64 = 0, refused: UInt64 = 0, hour: Int64 = 0, hourAccepted: UInt64 = 0, hourRefused: UInt64 = 0,
                addresses: [String] = [], client: String = "") {
        self.accepted = accepted
        self.refused = refused
        self.hour = hour
        self.hourAccepted = hourAccepted
        self.hourRefused = hourRefused
        self.addresses = addresses
        self.client = client
    }

    /// The clock hour of a time in milliseconds since 1970.
    public static func hour(ofMs ms: Int64) -> Int64 { ms >= 0 ? ms / 3_600_000 : (ms + 1) / 3_600_000 - 1 }

    /// This activity with a save's taps and addresses (in order) added at `hour`.
    public func adding(accepted: UInt64, refused: UInt64, addresses seen: [String], client: String? = nil, hour now: Int64) -> DeviceActivity {
        var next = self
        next.client = client ?? self.client
        next.accepted = accepted.addingSaturating(self.accepted)
        next.refused = refused.addingSaturating(self.refused)
        if now != hour {
            next.hour = now
            next.hourAccepted = 0
            next.hourRefused = 0
        }
        next.hourAccepted = next.hourAccepted.addingSaturating(accepted)
        next.hourRefused = next.hourRefused.addingSaturating(refused)
        for address in seen {
            next.addresses.removeAll { $0 == address }
            next.addresses.append(address)
        }
        next.addresses = Array(next.addresses.suffix(Self.maximumAddresses))
        return next
    }

    /// The taps accepted and refused in the hour `now`: 0 when the bucket is of an earlier hour.
    public func inHour(_ now: Int64) -> (accepted: UInt64, refused: UInt64) {
        hour == now ? (hourAccepted, hourRefused) : (0, 0)
    }
}
