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

    /// By Unicode's East Asian Width, as terminals (and glibc's `wcwidth`) count: wide (W) and
    /// fullwidth (F) take two cells, marks and format characters none, the rest one.
    public static func of(_ scalar: Unicode.Scalar) -> Int {
        let v = scalar.value
        if v < 0x20 || (0x7F..<0xA0).contains(v) { return 0 }
        // The common cases first: Latin text (no marks below U+0300) and Hangul syllables.
        if v < 0x300 { return 1 }
        if (0xAC00...0xD7A3).contains(v) { return 2 }
        let properties = scalar.properties
        switch properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        // Vowels and finals of old-style Hangul (Jamo and Jamo Extended-B) join the lead before them
        // into one syllable block, though Unicode files them as letters.
        if (0x1160...0x11FF).contains(v) || (0xD7B0...0xD7FF).contains(v) { return 0 }
        // Emoji shown as emoji by default are wide (☔ U+2614, ✅ U+2705, 🎉): Unicode makes every
        // one of them W but the regional indicators, which pair into a flag.
        if properties.isEmojiPresentation { return (0x1F1E6...0x1F1FF).contains(v) ? 1 : 2 }
        return wideRanges.contains { $0.contains(v) } ? 2 : 1
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

    /// East Asian Width W and F, apart from emoji (above) and Hangul syllables (the fast path).
    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F,    // Hangul Jamo leads
        0x2329...0x232A,    // angle brackets
        0x2630...0x2637,    // trigrams ☰…☷ (wide since Unicode 16)
        0x268A...0x268F,    // monograms and digrams (wide since Unicode 16)
        0x2E80...0x303E,    // CJK radicals, ideographic description, CJK symbols and punctuation
        0x3041...0x33FF,    // kana, bopomofo, compatibility jamo, kanbun, enclosed CJK, CJK compatibility
        0x3400...0x4DFF,    // CJK Extension A, Yijing hexagrams (wide since Unicode 16)
        0x4E00...0x9FFF,    // CJK unified ideographs
        0xA000...0xA4CF,    // Yi
        0xA960...0xA97F,    // Hangul Jamo Extended-A (leads)
        0xF900...0xFAFF,    // CJK compatibility ideographs
        0xFE10...0xFE19,    // vertical forms
        0xFE30...0xFE6F,    // CJK compatibility forms, small form variants
        0xFF00...0xFF60,    // fullwidth forms
        0xFFE0...0xFFE6,    // fullwidth signs
        0x1D300...0x1D356,  // Tai Xuan Jing symbols (wide since Unicode 16)
        0x1F200...0x1F2FF,  // enclosed ideographic supplement
        0x20000...0x3FFFD,  // CJK ideographs of planes 2 and 3
    ]
}
