// CONTRACT STUB — owned by the battle-core work; replace the bodies, keep the signatures.

/// Why a tap was not counted.
public enum TapRefusal: Equatable, Sendable {
    /// More taps in the window than a human makes (the original's 비정상 터치).
    case tooManyTaps
    /// One key repeating faster than anyone presses one key: the terminal's auto-repeat.
    case heldKey
    /// Pasted text.
    case paste
}

public enum TapVerdict: Equatable, Sendable {
    case counted
    case refused(TapRefusal)
}

/// Detects taps too fast to be human. All thresholds live in `TapGuardPolicy`.
public struct TapGuard: Sendable {
    public init() { fatalError("TapGuard not implemented yet") }
    /// `key` identifies the key pressed (its Unicode scalar value or key code).
    public mutating func judge(key: UInt32, at now: Instant) -> TapVerdict { fatalError() }
}
