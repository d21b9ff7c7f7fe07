import TouchSchoolView

/// The eight colors every terminal has, numbered as curses and ANSI escape sequences both number
/// them (`-1`: the terminal's own color).
public enum TerminalColor: Int32, Sendable {
    case `default` = -1
    case black, red, green, yellow, blue, magenta, cyan, white
}

/// Text attributes, as bits (the ncurses adapter's C side takes the same bits).
public struct TerminalAttributes: OptionSet, Sendable {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }
    public static let bold = TerminalAttributes(rawValue: 1)
    public static let reverse = TerminalAttributes(rawValue: 2)
    public static let dim = TerminalAttributes(rawValue: 4)
}

/// How each cell style looks in color, and without color (`NO_COLOR`, monochrome terminals):
/// one table for every terminal the game draws on.
public enum TerminalStyle {
    public struct Look: Sendable {
        public var foreground: TerminalColor = .default
        public var background: TerminalColor = .default
        public var colorAttributes: TerminalAttributes = []
        public var monochromeAttributes: TerminalAttributes = []
    }

    public static func look(of style: CellStyle) -> Look {
        switch style {
        case .normal: return Look()
        case .dim: return Look(colorAttributes: .dim, monochromeAttributes: .dim)
        case .title: return Look(foreground: .cyan, colorAttributes: .bold, monochromeAttributes: .bold)
        case .accent: return Look(foreground: .yellow, colorAttributes: .bold, monochromeAttributes: .bold)
        case .highlight: return Look(foreground: .black, background: .cyan, monochromeAttributes: .reverse)
        case .mine: return Look(foreground: .black, background: .yellow, monochromeAttributes: [.reverse, .bold])
        case .warning: return Look(foreground: .white, background: .red, colorAttributes: .bold, monochromeAttributes: [.reverse, .bold])
        case .rankUp: return Look(foreground: .green, colorAttributes: .bold, monochromeAttributes: .bold)
        case .rankDown: return Look(foreground: .red, monochromeAttributes: .dim)
        case .puffFresh: return Look(foreground: .white, colorAttributes: .bold, monochromeAttributes: .bold)
        case .puffFading: return Look(foreground: .cyan)
        case .puffFaint: return Look(foreground: .blue, colorAttributes: .dim, monochromeAttributes: .dim)
        case .inputLine: return Look(foreground: .black, background: .white, monochromeAttributes: .reverse)
        case .mapLit: return Look(foreground: .cyan, colorAttributes: .bold, monochromeAttributes: .bold)
        case .mapWarm: return Look(foreground: .yellow)
        case .mapHot: return Look(foreground: .red, colorAttributes: .bold, monochromeAttributes: .bold)
        case .mapBlazing: return Look(foreground: .white, background: .red, colorAttributes: .bold, monochromeAttributes: [.reverse, .bold])
        case .mapLeader: return Look(foreground: .magenta, colorAttributes: .bold, monochromeAttributes: [.reverse])
        }
    }
}
