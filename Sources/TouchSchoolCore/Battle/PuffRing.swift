/// A smoke puff where a tap landed.
public struct Puff: Equatable, Sendable {
    /// Where, as fractions of the play area (0 = left/top, 1 = right/bottom), so a resize keeps it in place.
    public var x: Float
    public var y: Float
    public var born: Instant
    /// Which shape to draw.
    public var variant: UInt8
    /// Rotation of the shape, in eighths of a turn.
    public var angle: UInt8

    public init(x: Float, y: Float, born: Instant, variant: UInt8, angle: UInt8) {
        self.x = x
        self.y = y
        self.born = born
        self.variant = variant
        self.angle = angle
    }
}

/// Exactly 30 slots; the oldest is replaced first; adding never allocates.
///
/// The slots are an `InlineArray` inside the struct, so not even a copy of the game state makes
/// adding allocate (a heap buffer would be copied on write).
public struct PuffRing: Sendable {
    public static let capacity = 30
    /// How long a puff lives, and the number of fade stages it passes through.
    public static let lifetimeNanoseconds: Int64 = 1_000_000_000
    public static let fadeStages = 4

    private var slots: InlineArray<30, Puff>
    /// The slot the next puff goes into: once the ring is full, the oldest one.
    private var nextSlot = 0
    public private(set) var count = 0

    public init() {
        slots = InlineArray(repeating: Puff(x: 0, y: 0, born: Instant(nanoseconds: 0), variant: 0, angle: 0))
    }

    public mutating func add(_ puff: Puff) {
        slots[nextSlot] = puff
        nextSlot = nextSlot + 1 == Self.capacity ? 0 : nextSlot + 1
        count = min(count + 1, Self.capacity)
    }

    /// Oldest first.
    public var puffs: [Puff] {
        let oldest = count < Self.capacity ? 0 : nextSlot
        return (0..<count).map { slots[(oldest + $0) % Self.capacity] }
    }

    /// 0 (fresh) ..< fadeStages, or nil once faded out. A puff born after `now` (a clock read
    /// out of order) counts as fresh.
    public static func stage(of puff: Puff, at now: Instant) -> Int? {
        let age = max(0, now.nanoseconds(since: puff.born))
        guard age < lifetimeNanoseconds else { return nil }
        return Int(age * Int64(fadeStages) / lifetimeNanoseconds)
    }

    /// Whether any puff is still visible at `now` (the frame loop may sleep when not).
    public func hasVisiblePuffs(at now: Instant) -> Bool {
        for index in 0..<count where Self.stage(of: slots[index], at: now) != nil { return true }
        return false
    }
}
