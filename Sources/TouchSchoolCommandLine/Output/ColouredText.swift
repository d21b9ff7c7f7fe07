/// Text for standard output in which this program, and never the data, sets colours: every piece
/// is escaped as `StandardStreams.write` escapes text, and the colours are written only when
/// standard output is a terminal (a file or a pipe gets the text alone).
public struct ColouredText: Sendable, Equatable {
    /// The few colour pairs the program draws with, as SGR sequences.
    public enum Colours: String, Sendable {
        /// Bright white on black whatever the terminal's theme: the QR code's light and dark
        /// modules stay light and dark on a light background too.
        case lightOnBlack = "\u{1B}[97;40m"
        static let reset = "\u{1B}[0m"
    }

    public struct Piece: Sendable, Equatable {
        public var text: String
        public var colours: Colours?
    }

    public private(set) var pieces: [Piece] = []

    public init(_ text: String = "") {
        if !text.isEmpty { pieces = [Piece(text: text, colours: nil)] }
    }

    public mutating func append(_ text: String, in colours: Colours? = nil) {
        pieces.append(Piece(text: text, colours: colours))
    }

    public static func + (left: ColouredText, right: ColouredText) -> ColouredText {
        var sum = left
        sum.pieces += right.pieces
        return sum
    }

    /// The text without its colours.
    public var plain: String { pieces.map(\.text).joined() }
}
