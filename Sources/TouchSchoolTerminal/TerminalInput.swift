import TouchSchoolCore

/// A special key as the terminal reports it, before the game gives it a meaning.
public enum TerminalKey: Equatable, Sendable {
    case up, down, left, right, pageUp, pageDown, home, end
    case f1, f2
    case backspace, enter
    /// Bracketed paste: the terminal marks where pasted text starts and ends.
    case pasteStart, pasteEnd
}

/// One thing read from the terminal.
public enum TerminalInput: Equatable, Sendable {
    /// A Unicode scalar as typed, control characters included.
    case character(UInt32)
    case key(TerminalKey)
    case click(column: Int, row: Int)
    case resize(columns: Int, rows: Int)
}

/// Turns terminal input into game events. It remembers one thing across reads: whether it is
/// inside a bracketed paste, whose text becomes a single `.paste` event (never taps). A paste
/// whose end marker never comes is bounded: it ends after `pasteQuietNanoseconds` without input
/// (`tick`), at Ctrl-C (which also interrupts), and at the start of another paste. It reads no
/// clock: the game loop passes the time in.
public struct InputDecoder {
    /// Longer pastes are cut: the text only tells the game that a paste happened.
    public static let maximumPasteLength = 4096

    /// A paste with no input for this long has lost its end marker, and ends. A terminal writes a
    /// paste in one burst (tmux in one write, a terminal emulator in chunks microseconds apart,
    /// ssh in packets at most a network round trip apart), and the game reads on after each frame
    /// (16 ms): gaps far under half a second. Yet half a second is short enough that the player's
    /// next keys count as taps again almost at once.
    public static let pasteQuietNanoseconds: Int64 = 500_000_000

    private var pastedText: String?
    /// Scalars in `pastedText`, counted as they come: counting the string would cost its length per key.
    private var pastedLength = 0
    /// When the last input came: in a paste, the start of its quiet gap.
    private var lastInput = Instant(nanoseconds: 0)

    public init() {}

    /// When `tick` ends the open paste unless input comes first; nil outside a paste. The game
    /// loop's wait for input ends by then.
    public var pasteDeadline: Instant? {
        pastedText == nil ? nil : Instant(nanoseconds: lastInput.nanoseconds &+ Self.pasteQuietNanoseconds)
    }

    /// Ends a paste that has had no input for `pasteQuietNanoseconds`: its text as a `.paste`.
    /// Called when a wait for input ends without any, and before each input is decoded, so that a
    /// key after the gap is a tap even when the loop did not wake in between (a busy machine,
    /// Ctrl-Z and `fg`).
    public mutating func tick(now: Instant) -> GameEvent? {
        guard let text = pastedText, now.nanoseconds(since: lastInput) >= Self.pasteQuietNanoseconds else { return nil }
        pastedText = nil
        return .paste(text)
    }

    /// `input`, read at `now`, as a game event; `tick(now:)` first.
    public mutating func decode(_ input: TerminalInput, now: Instant) -> GameEvent? {
        lastInput = now
        if pastedText != nil { return continuePaste(with: input) }
        switch input {
        case let .character(value):
            return Self.character(value).map { .key($0) }
        case let .key(key):
            switch key {
            case .up: return .key(.up)
            case .down: return .key(.down)
            case .left: return .key(.left)
            case .right: return .key(.right)
            case .pageUp: return .key(.pageUp)
            case .pageDown: return .key(.pageDown)
            case .home: return .key(.home)
            case .end: return .key(.end)
            case .f1: return .key(.help)
            case .f2: return .key(.chooseSchool)
            case .backspace: return .key(.backspace)
            case .enter: return .key(.enter)
            case .pasteStart:
                startPaste()
                return nil
            case .pasteEnd:
                return nil
            }
        case let .click(column, row):
            return .click(column: column, row: row)
        case let .resize(columns, rows):
            return .resize(columns: columns, rows: rows)
        }
    }

    private mutating func continuePaste(with input: TerminalInput) -> GameEvent? {
        switch input {
        case .key(.pasteEnd):
            defer { pastedText = nil }
            return .paste(pastedText ?? "")
        case .key(.pasteStart):
            defer { startPaste() }
            return .paste(pastedText ?? "")
        case .character(Self.interruptCharacter):
            // The pasted text is dropped: it was never taps, and the player wants out.
            pastedText = nil
            return .key(.interrupt)
        case let .resize(columns, rows):
            return .resize(columns: columns, rows: rows)
        case .key(.enter):
            appendToPaste("\n")
        case let .character(value):
            if let scalar = Unicode.Scalar(value) { appendToPaste(scalar == "\r" ? "\n" : scalar) }
        default:
            break
        }
        return nil
    }

    private mutating func startPaste() {
        pastedText = ""
        pastedLength = 0
    }

    /// Appends in place (a copy of the text would cost its length per key).
    private mutating func appendToPaste(_ scalar: Unicode.Scalar) {
        guard pastedLength < Self.maximumPasteLength else { return }
        pastedText?.unicodeScalars.append(scalar)
        pastedLength += 1
    }

    /// Ctrl-C.
    public static let interruptCharacter: UInt32 = 3

    /// What a typed character means: a control key, a printable character, or nothing.
    public static func character(_ value: UInt32) -> Key? {
        switch value {
        case interruptCharacter: return .interrupt
        case 8, 127: return .backspace
        case 9: return .tab
        case 10, 13: return .enter
        case 27: return .escape
        case 0..<32, 0x80..<0xA0: return nil
        default:
            guard let scalar = Unicode.Scalar(value) else { return nil }
            return .character(Character(scalar))
        }
    }
}
