/// Turns the bytes a terminal sends (an SSH client's keys, as the player's terminal writes them)
/// into `TerminalInput`: UTF-8 characters (Hangul included), the escape sequences of the keys the
/// game uses (arrows, Page Up/Down, Home/End, F1, F2, in both the normal and the application
/// cursor modes of xterm, the Linux console and tmux), bracketed paste's markers and SGR mouse
/// clicks. Sequences the game has no use for are dropped. It keeps what a packet cut in two (a
/// character's bytes, a sequence) for the next packet, bounded: an unfinished sequence longer
/// than any the game knows is dropped. The ncurses adapter gets the same inputs from ncurses.
public struct EscapeSequenceReader {
    /// Longer than any sequence below (an SGR click at column and row 9999 is 16 bytes).
    static let maximumSequenceLength = 32

    private static let escape: UInt8 = 0x1B

    /// Bytes of an unfinished sequence or character, from the previous packet.
    private var pending: [UInt8] = []

    public init() {}

    /// The inputs in `bytes`, one packet as it arrived. An Esc alone at the end of a packet is
    /// the Esc key: a terminal writes a key's whole sequence at once, so a packet never ends in
    /// the middle of one except in a paste, where a lost marker only delays the paste's end
    /// (`InputDecoder` ends it after a quiet gap).
    public mutating func read(_ bytes: some Sequence<UInt8>) -> [TerminalInput] {
        var buffer = pending
        buffer.append(contentsOf: bytes)
        pending.removeAll(keepingCapacity: true)
        var inputs: [TerminalInput] = []
        var index = 0
        while index < buffer.count {
            let byte = buffer[index]
            if byte == Self.escape {
                switch Self.sequence(in: buffer, at: index) {
                case let .complete(length, input):
                    if let input { inputs.append(input) }
                    index += length
                case .incomplete:
                    if index + 1 == buffer.count {
                        inputs.append(.character(UInt32(Self.escape)))
                    } else if buffer.count - index <= Self.maximumSequenceLength {
                        pending = Array(buffer[index...])
                    }
                    return inputs
                }
                continue
            }
            let length = Self.utf8Length(byte)
            guard length > 0 else {
                index += 1 // a stray continuation byte or an invalid lead: not a character
                continue
            }
            let available = buffer[(index + 1)..<min(index + length, buffer.count)]
            guard available.allSatisfy({ $0 & 0xC0 == 0x80 }) else {
                index += 1 // a lead byte without its continuation bytes: not a character
                continue
            }
            guard index + length <= buffer.count else {
                pending = Array(buffer[index...])
                return inputs
            }
            let scalar = Self.decodeUTF8(buffer[index..<(index + length)])
            if let scalar { inputs.append(.character(scalar)) }
            index += scalar == nil ? 1 : length
        }
        return inputs
    }

    private enum Parsed {
        /// `length` bytes, meaning `input` (nil: a sequence the game has no use for).
        case complete(length: Int, input: TerminalInput?)
        case incomplete
    }

    /// The escape sequence starting at `start` (an Esc).
    private static func sequence(in bytes: [UInt8], at start: Int) -> Parsed {
        guard start + 1 < bytes.count else { return .incomplete }
        let introducer = bytes[start + 1]
        switch introducer {
        case UInt8(ascii: "["):
            return controlSequence(in: bytes, at: start)
        case UInt8(ascii: "O"):
            // SS3: cursor keys in application mode, F1 to F4.
            guard start + 2 < bytes.count else { return .incomplete }
            let key: TerminalKey? = switch bytes[start + 2] {
            case UInt8(ascii: "A"): .up
            case UInt8(ascii: "B"): .down
            case UInt8(ascii: "C"): .right
            case UInt8(ascii: "D"): .left
            case UInt8(ascii: "H"): .home
            case UInt8(ascii: "F"): .end
            case UInt8(ascii: "P"): .f1
            case UInt8(ascii: "Q"): .f2
            default: nil
            }
            return .complete(length: 3, input: key.map { .key($0) })
        default:
            // Esc then another key (Alt held, or Esc pressed just before): the Esc key, and the
            // next byte read on its own.
            return .complete(length: 1, input: .character(UInt32(escape)))
        }
    }

    /// `Esc [ parameters final`: the final byte is in 0x40–0x7E; parameters are digits, `;`, `<`, `[`.
    private static func controlSequence(in bytes: [UInt8], at start: Int) -> Parsed {
        var end = start + 2
        while end < bytes.count {
            let byte = bytes[end]
            if (0x40...0x7E).contains(byte), !(byte == UInt8(ascii: "[") && end == start + 2) { break }
            guard end - start < maximumSequenceLength else { return .complete(length: end - start, input: nil) }
            end += 1
        }
        guard end < bytes.count else { return .incomplete }
        let parameters = bytes[(start + 2)..<end]
        let final = bytes[end]
        let length = end - start + 1
        return .complete(length: length, input: controlInput(parameters: Array(parameters), final: final))
    }

    private static func controlInput(parameters: [UInt8], final: UInt8) -> TerminalInput? {
        if parameters.first == UInt8(ascii: "<") { return click(parameters: parameters.dropFirst(), final: final) }
        if parameters == [UInt8(ascii: "[")] {
            // The Linux console's F1 to F5: Esc [ [ A … E.
            switch final {
            case UInt8(ascii: "A"): return .key(.f1)
            case UInt8(ascii: "B"): return .key(.f2)
            default: return nil
            }
        }
        switch final {
        // Modifiers (`Esc [ 1 ; 5 A`, Ctrl-Up) do not change what the key means to the game.
        case UInt8(ascii: "A"): return .key(.up)
        case UInt8(ascii: "B"): return .key(.down)
        case UInt8(ascii: "C"): return .key(.right)
        case UInt8(ascii: "D"): return .key(.left)
        case UInt8(ascii: "H"): return .key(.home)
        case UInt8(ascii: "F"): return .key(.end)
        case UInt8(ascii: "~"):
            let number = numbers(parameters).first ?? 0
            switch number {
            case 1, 7: return .key(.home)
            case 4, 8: return .key(.end)
            case 5: return .key(.pageUp)
            case 6: return .key(.pageDown)
            case 11: return .key(.f1)
            case 12: return .key(.f2)
            case 200: return .key(.pasteStart)
            case 201: return .key(.pasteEnd)
            default: return nil
            }
        default:
            return nil
        }
    }

    /// An SGR mouse report, `Esc [ < button ; column ; row M` (1-based): a press of the left
    /// button is a click; releases, drags, wheels and other buttons are not.
    private static func click(parameters: ArraySlice<UInt8>, final: UInt8) -> TerminalInput? {
        let values = numbers(parameters)
        guard final == UInt8(ascii: "M"), values.count == 3, values[0] == 0, values[1] >= 1, values[2] >= 1 else { return nil }
        return .click(column: values[1] - 1, row: values[2] - 1)
    }

    /// The `;`-separated decimal numbers of a sequence's parameters (at most four digits each:
    /// no terminal is wider, and no number may overflow).
    private static func numbers(_ parameters: some Collection<UInt8>) -> [Int] {
        parameters.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false).map { digits in
            digits.prefix(4).reduce(0) { value, byte in
                (0x30...0x39).contains(byte) ? value * 10 + Int(byte - 0x30) : value
            }
        }
    }

    /// How many bytes the UTF-8 sequence led by `byte` has; 0 if `byte` cannot lead one.
    private static func utf8Length(_ byte: UInt8) -> Int {
        switch byte {
        case 0x00...0x7F: 1
        case 0xC2...0xDF: 2
        case 0xE0...0xEF: 3
        case 0xF0...0xF4: 4
        default: 0
        }
    }

    private static func decodeUTF8(_ bytes: ArraySlice<UInt8>) -> UInt32? {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        guard case let .scalarValue(scalar) = decoder.decode(&iterator) else { return nil }
        return scalar.value
    }
}
