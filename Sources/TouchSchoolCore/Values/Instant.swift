/// A point on a monotonic clock, in nanoseconds from an arbitrary origin.
///
/// The core never reads a clock: every rule that depends on time takes an `Instant`, so tests
/// write timelines by hand and the front end passes the real monotonic clock.
public struct Instant: Comparable, Hashable, Sendable, CustomStringConvertible {
    public var nanoseconds: Int64

    public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

    public static func milliseconds(_ ms: Int64) -> Instant { Instant(nanoseconds: ms * 1_000_000) }
    public static func seconds(_ s: Double) -> Instant { Instant(nanoseconds: Int64(s * 1e9)) }

    public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.nanoseconds < rhs.nanoseconds }

    /// `self - earlier` in nanoseconds.
    public func nanoseconds(since earlier: Instant) -> Int64 { nanoseconds &- earlier.nanoseconds }

    public func adding(milliseconds ms: Int64) -> Instant { Instant(nanoseconds: nanoseconds &+ ms * 1_000_000) }

    public var description: String { "\(Double(nanoseconds) / 1e6)ms" }
}
