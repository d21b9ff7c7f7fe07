import TouchSchoolCore

/// Terminal display width: Hangul and other East Asian wide characters take two cells.
/// Layout everywhere goes by this, never by character count.
public enum DisplayWidth {
    /// Cells one character occupies: 0 (combining marks), 1 or 2; a control character, which is
    /// drawn as its escape (`VisibleText`), the width of that escape.
    public static func of(_ character: Character) -> Int {
        guard let first = character.unicodeScalars.first else { return 0 }
        if VisibleText.isControl(first) { return VisibleText.escaping(String(character)).utf8.count }
        return of(first)
    }

    public static func of(_ scalar: Unicode.Scalar) -> Int {
        let v = scalar.value
        if v < 0x20 || (0x7F..<0xA0).contains(v) { return 0 }
        if v < 0x300 { return 1 }
        if (0x300...0x36F).contains(v) || (0x1160...0x11FF).contains(v) || v == 0x200B || (0xFE00...0xFE0F).contains(v) {
            return 0
        }
        if isWide(v) { return 2 }
        return 1
    }

    public static func of(_ text: String) -> Int {
        var total = 0
        for character in text { total += of(character) }
        return total
    }

    /// `text` cut to at most `width` cells, ending in "…" when it had to be cut.
    public static func truncate(_ text: String, toWidth width: Int) -> String {
        guard width > 0 else { return "" }
        if of(text) <= width { return text }
        var result = ""
        var used = 0
        for character in text {
            let w = of(character)
            if used + w > width - 1 { break }
            result.append(character)
            used += w
        }
        return result + "…"
    }

    /// The end of `text` in at most `width` cells, starting with "…" when it had to be cut: a
    /// search line that keeps its cursor end in view.
    public static func truncateLeading(_ text: String, toWidth width: Int) -> String {
        guard width > 0 else { return "" }
        if of(text) <= width { return text }
        var kept: [Character] = []
        var used = 0
        for character in text.reversed() {
            let w = of(character)
            if used + w > width - 1 { break }
            kept.append(character)
            used += w
        }
        return "…" + String(kept.reversed())
    }

    /// `text` padded with spaces (or cut with "…") to exactly `width` cells.
    public static func pad(_ text: String, toWidth width: Int, alignRight: Bool = false) -> String {
        let cut = truncate(text, toWidth: width)
        let padding = String(repeating: " ", count: max(0, width - of(cut)))
        return alignRight ? padding + cut : cut + padding
    }

    /// `text` broken into lines of at most `width` cells, at spaces where possible; a word wider
    /// than a line is broken between characters. Spaces at a break are dropped.
    public static func wrap(_ text: String, toWidth width: Int) -> [String] {
        guard width > 0 else { return [] }
        var lines: [String] = []
        var line = "", lineWidth = 0
        func breakLine() {
            while line.last == " " { line.removeLast(); lineWidth -= 1 }
            lines.append(line)
            line = ""
            lineWidth = 0
        }
        for token in tokens(of: text) {
            let tokenWidth = of(token)
            if token.first == " " {
                // Spaces that would start a continuation line or overflow this one are the break itself.
                if lineWidth + tokenWidth > width { breakLine() } else if !(line.isEmpty && !lines.isEmpty) {
                    line += token
                    lineWidth += tokenWidth
                }
                continue
            }
            if lineWidth + tokenWidth <= width {
                line += token
                lineWidth += tokenWidth
                continue
            }
            if lineWidth > 0, tokenWidth <= width { breakLine() }
            for character in token {
                let characterWidth = of(character)
                if lineWidth > 0, lineWidth + characterWidth > width { breakLine() }
                line.append(character)
                lineWidth += characterWidth
            }
        }
        if !line.isEmpty || lines.isEmpty { breakLine() }
        return lines
    }

    /// Runs of spaces and runs of everything else, in order.
    private static func tokens(of text: String) -> [String] {
        var tokens: [String] = []
        var current = ""
        for character in text {
            if let last = current.last, (last == " ") != (character == " ") {
                tokens.append(current)
                current = ""
            }
            current.append(character)
        }
        if !current.isEmpty { tokens.append(current) }
        return tokens
    }

    private static func isWide(_ v: UInt32) -> Bool {
        (0x1100...0x115F).contains(v) ||        // Hangul Jamo initials
        (0x2E80...0x303E).contains(v) ||        // CJK radicals, punctuation
        (0x3041...0x33FF).contains(v) ||        // Kana, compatibility jamo, CJK symbols
        (0x3400...0x4DBF).contains(v) ||
        (0x4E00...0x9FFF).contains(v) ||
        (0xA960...0xA97F).contains(v) ||        // Hangul Jamo Extended-A
        (0xAC00...0xD7A3).contains(v) ||        // Hangul syllables
        (0xF900...0xFAFF).contains(v) ||
        (0xFE30...0xFE4F).contains(v) ||
        (0xFF00...0xFF60).contains(v) ||        // Fullwidth forms
        (0xFFE0...0xFFE6).contains(v) ||
        (0x1F300...0x1F64F).contains(v) ||      // Emoji
        (0x1F900...0x1F9FF).contains(v) ||
        (0x20000...0x3FFFD).contains(v)
    }
}
