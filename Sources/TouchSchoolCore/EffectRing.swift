// CONTRACT STUB — owned by the battle-core work; replace the bodies, keep the signatures.

/// A smoke puff where a tap landed.
public struct Effect: Equatable, Sendable {
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
public struct EffectRing: Sendable {
    public static let capacity = 30
    /// How long a puff lives, and the number of fade stages it passes through.
    public static let lifetimeNanoseconds: Int64 = 1_000_000_000
    public static let fadeStages = 4

    public init() { fatalError("EffectRing not implemented yet") }

    public var count: Int { fatalError() }
    public mutating func add(_ effect: Effect) { fatalError() }
    /// Oldest first.
    public var effects: [Effect] { fatalError() }
    /// 0 (fresh) ..< fadeStages, or nil once faded out.
    public static func stage(of effect: Effect, at now: Instant) -> Int? { fatalError() }
    /// Whether any effect is still visible at `now` (the frame loop may sleep when not).
    public func hasVisibleEffects(at now: Instant) -> Bool { fatalError() }
}
