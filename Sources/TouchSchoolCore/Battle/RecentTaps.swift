/// The taps of the last few seconds, by school: what the map glows with. Kept as a ring of the
/// latest changes the game saw (its own taps, and the totals a sync brought), so that recording
/// costs the same however many schools there are and a frame reads at most `capacity` entries.
public struct RecentTaps: Sendable {
    /// "The last few seconds": long enough to span a few syncs (half a second each), short enough
    /// that a school which stopped fades out while one watches.
    public static let windowNanoseconds: Int64 = 5_000_000_000
    /// Taps of one school this close together make one entry: a player mashing fills four a
    /// second, not twenty.
    static let mergeNanoseconds: Int64 = 250_000_000
    /// Room for about fifty schools changing at every sync through the window; beyond that the
    /// oldest entries go first.
    static let capacity = 512

    private struct Entry: Sendable {
        var school: Int32
        var taps: UInt64
        var at: Instant
    }

    private var entries: [Entry] = []
    /// Where the next entry goes once the ring is full.
    private var next = 0
    private var newest: Int?

    public init() {}

    /// `taps` more for `school` at `now`.
    public mutating func record(_ taps: UInt64, school: Int, at now: Instant) {
        guard taps > 0 else { return }
        if let newest, entries[newest].school == Int32(school), now.nanoseconds(since: entries[newest].at) < Self.mergeNanoseconds {
            entries[newest].taps = entries[newest].taps.addingSaturating(taps)
            return
        }
        let entry = Entry(school: Int32(school), taps: taps, at: now)
        if entries.count < Self.capacity {
            entries.append(entry)
            newest = entries.count - 1
        } else {
            entries[next] = entry
            newest = next
            next = (next + 1) % Self.capacity
        }
    }

    /// Forgets every entry (the catalog changed: positions name other schools).
    public mutating func removeAll() {
        self = RecentTaps()
    }

    /// Every school that tapped within the window before `now`, with its taps in it.
    public func schools(at now: Instant) -> [Int: UInt64] {
        var taps: [Int: UInt64] = [:]
        for entry in entries where now.nanoseconds(since: entry.at) < Self.windowNanoseconds && now.nanoseconds(since: entry.at) >= 0 {
            taps[Int(entry.school), default: 0] = taps[Int(entry.school), default: 0].addingSaturating(entry.taps)
        }
        return taps
    }
}

/// How brightly a school glows on the map: by its taps per second over the last few seconds.
public enum MapGlow: Int, Comparable, Sendable {
    /// Tapped in the window.
    case warm = 1
    /// About one player mashing (a human manages 5–10 a second).
    case hot
    /// Several at once.
    case blazing

    /// Taps per second from which a school is hot, and blazing.
    static let hotPerSecond: UInt64 = 4
    static let blazingPerSecond: UInt64 = 15

    /// The glow of `taps` within `RecentTaps.windowNanoseconds`.
    public init(taps: UInt64) {
        let seconds = UInt64(RecentTaps.windowNanoseconds / 1_000_000_000)
        self = taps >= Self.blazingPerSecond * seconds ? .blazing : taps >= Self.hotPerSecond * seconds ? .hot : .warm
    }

    public static func < (lhs: MapGlow, rhs: MapGlow) -> Bool { lhs.rawValue < rhs.rawValue }
}
