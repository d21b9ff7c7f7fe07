#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import TouchSchoolView

/// argument-parser's help laid out again by display width. The parser wraps by character count,
/// so a Korean line of 80 characters took up to 160 columns and the terminal broke it wherever
/// the 80th column fell, inside a word ("들\n어오게"). The parser is asked for its help unwrapped
/// (`unwrapped` columns: a paragraph a line) and every line wider than the terminal is broken
/// here at spaces, its continuation lines indented as the parser indents them.
enum HelpLayout {
    /// Columns to ask the parser for: wider than any paragraph, so that it breaks none.
    static let unwrapped = 1_000_000

    /// Whether `message` is a command's help, to be laid out; not a version, a completion script
    /// or the JSON of `--experimental-dump-help`, which go out as the parser wrote them.
    static func isHelp(_ message: String) -> Bool {
        message.hasPrefix("OVERVIEW: ") || message.hasPrefix("USAGE: ")
    }

    /// `help`'s lines at most `width` columns wide (but for a word wider than a line, broken
    /// between characters), and, in Korean, argument-parser's own words in Korean.
    static func laidOut(_ help: String, width: Int) -> String {
        help.split(separator: "\n", omittingEmptySubsequences: false)
            .flatMap { lines(CommandText.parsersWords(String($0)), width: width) }
            .joined(separator: "\n")
    }

    /// The width of the terminal the help is read on: `$COLUMNS`, else standard output's
    /// terminal, else 80 (a file or a pipe: a terminal's usual width), as argument-parser chose it.
    static var terminalWidth: Int {
        if let columns = ProcessEnvironment.current["COLUMNS"].flatMap({ Int($0) }), columns > 0 { return columns }
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return 80
    }

    /// One line of the help as one or more, each at most `width` columns.
    private static func lines(_ line: String, width: Int) -> [String] {
        guard DisplayWidth.of(line) > width else { return [line] }
        let (prefix, text) = split(line)
        let margin = line.prefix { $0 == " " }.count
        // Beside a long label a narrow terminal would leave a column a word wide: under it instead,
        // indented past the label's start.
        let beside = DisplayWidth.of(prefix) == margin || width - DisplayWidth.of(prefix) >= 20
        let indent = beside ? DisplayWidth.of(prefix) : margin + underLabelIndent
        let usage = usagePrefixes.contains { line.hasPrefix($0) }
        let wrapped = DisplayWidth.wrap(heldTogether(text, usage: usage), toWidth: max(width - indent, 1))
            .map(\.replacingNonBreakingSpaces)
        let continuation = String(repeating: " ", count: indent)
        if beside { return [prefix + wrapped[0]] + wrapped.dropFirst().map { continuation + $0 } }
        return [prefix.trimmingTrailingSpaces] + wrapped.map { continuation + $0 }
    }

    /// The usage as the help heads it, as a usage error does, and as both do in Korean.
    private static let usagePrefixes = ["USAGE: ", "Usage: ", CommandText.koreanUsage]
    private static let underLabelIndent = 4

    /// A usage error's lines with its usage and the option's help laid out as the help's; the
    /// message itself as written.
    static func laidOutUsage(_ error: String, width: Int) -> String {
        error.split(separator: "\n", omittingEmptySubsequences: false).flatMap { line in
            (usagePrefixes.dropFirst() + optionHelpLabels).contains { line.hasPrefix($0) } ? lines(String(line), width: width) : [String(line)]
        }.joined(separator: "\n")
    }

    /// What a usage error puts before the option's help, and what it does in Korean.
    private static let optionHelpLabels = ["Help:  ", CommandText.koreanHelpLabel]

    /// The line's margin and label (where its continuation lines start), and its text: after
    /// "USAGE: "; after an indented label and the gap of two or more spaces that ends it (an
    /// option, a subcommand, a key in the overview's list); else after the indentation.
    private static func split(_ line: String) -> (prefix: String, text: String) {
        if let usage = usagePrefixes.first(where: { line.hasPrefix($0) }) { return (usage, String(line.dropFirst(usage.count))) }
        let indentation = line.prefix { $0 == " " }
        let rest = line[indentation.endIndex...]
        if !indentation.isEmpty, let gap = rest.firstRange(of: "  ") {
            let textStart = rest[gap.lowerBound...].firstIndex { $0 != " " } ?? line.endIndex
            return (String(line[..<textStart]), String(line[textStart...]))
        }
        return (String(indentation), String(rest))
    }

    /// The spaces of a command in backquotes (`` `ssh -p PORT NAME@HOST` ``), and in the usage
    /// those inside brackets (`[--port <port>]`), as no-break spaces, which `DisplayWidth.wrap`
    /// never breaks at: what is typed as one stays on one line.
    private static func heldTogether(_ text: String, usage: Bool) -> String {
        var depth = 0, quoted = false
        return String(text.map { character -> Character in
            switch character {
            case "`": quoted.toggle()
            case "[" where usage, "<" where usage: depth += 1
            case "]" where usage, ">" where usage: depth = max(0, depth - 1)
            case " " where depth > 0 || quoted: return "\u{00A0}"
            default: break
            }
            return character
        })
    }
}

private extension String {
    var replacingNonBreakingSpaces: String { String(map { $0 == "\u{00A0}" ? " " : $0 }) }
    var trimmingTrailingSpaces: String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
