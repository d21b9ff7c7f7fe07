import Testing
import TouchSchoolTestSupport
@testable import TouchSchoolView

@Suite(.onOwnThreads) struct DisplayWidthTests {
    /// Widths known without any table: what a terminal shows for these, written out by hand.
    @Test func knownCharactersTakeTheirCells() {
        let expected: [(String, Int)] = [
            ("a", 1), ("~", 1), ("é", 1), ("·", 1), ("…", 1), ("▲", 1), ("▼", 1), ("↑", 1), ("\u{7}", 0),
            ("가", 2), ("힣", 2), ("ㄱ", 2), ("ㅏ", 2), ("中", 2), ("あ", 2), ("Ａ", 2), ("ｱ", 1), ("〈", 2), ("〈", 2),
            // Emoji and the symbols of U+2600–27BF that have an emoji presentation.
            ("☔", 2), ("⚡", 2), ("✅", 2), ("⭐", 2), ("🎉", 2), ("🙂", 2), ("🚀", 2), ("🥇", 2), ("🫠", 2),
            // The same blocks' text-style symbols stay narrow.
            ("☀", 1), ("☎", 1), ("✈", 1), ("❤", 1), ("🌡", 1), ("🕊", 1),
            // Conjoining jamo after the lead (Hangul Jamo, Extended-B) and combining marks join the
            // cell before them.
            ("\u{1161}", 0), ("\u{11A8}", 0), ("\u{D7B0}", 0), ("\u{D7CB}", 0), ("\u{D7FB}", 0), ("\u{0301}", 0),
            ("\u{20DD}", 0), ("\u{FE0F}", 0), ("\u{200B}", 0),
            // Leads of Hangul Jamo and Extended-A are wide.
            ("\u{1100}", 2), ("\u{A960}", 2),
            // Trigrams, hexagrams and Tai Xuan Jing symbols, wide since Unicode 16.
            ("☰", 2), ("䷀", 2), ("𝌀", 2),
        ]
        for (text, cells) in expected {
            let scalar = text.unicodeScalars.first!
            #expect(DisplayWidth.of(scalar) == cells, "U+\(String(scalar.value, radix: 16, uppercase: true)) \(text)")
        }
        #expect(DisplayWidth.of("학교 ✅ 1위 🎉") == 14)
    }

    /// The ranges where Korean text, CJK, symbols and emoji live, code point by code point, against
    /// the C library's `wcwidth`. Code points it has no width for (controls, and those assigned
    /// after its Unicode version) are left out.
    static let comparedRanges: [(name: String, range: ClosedRange<UInt32>)] = [
        ("ASCII", 0x20...0x7E),
        ("Latin-1, Latin Extended, IPA, spacing modifiers", 0xA0...0x2FF),
        ("combining diacritical marks", 0x300...0x36F),
        ("Hangul Jamo", 0x1100...0x11FF),
        ("combining marks extended and supplement", 0x1AB0...0x1AFF),
        ("combining marks supplement", 0x1DC0...0x1DFF),
        ("punctuation, symbols, arrows, technical, shapes", 0x2000...0x25FF),
        ("miscellaneous symbols and dingbats", 0x2600...0x27BF),
        ("arrows and symbols", 0x27C0...0x2BFF),
        ("CJK radicals, punctuation, kana, compatibility jamo, enclosed, ideographs, Yi", 0x2E80...0xA4CF),
        ("Hangul Jamo Extended-A", 0xA960...0xA97F),
        ("Hangul syllables, Hangul Jamo Extended-B", 0xAC00...0xD7FF),
        ("CJK compatibility ideographs", 0xF900...0xFAFF),
        ("variation selectors, vertical, combining half marks, CJK compatibility and small forms", 0xFE00...0xFE6F),
        ("halfwidth and fullwidth forms", 0xFF00...0xFFEF),
        ("tiles, cards, enclosed alphanumerics and ideographs, emoji blocks", 0x1F000...0x1FAFF),
        ("CJK ideographs, planes 2 and 3", 0x20000...0x3FFFD),
    ]

    /// Where glibc's table (2.36: Unicode 14) is older than the Unicode this program follows.
    static let glibcIsOutOfDate: [(range: ClosedRange<UInt32>, reason: String)] = [
        (0x2630...0x2637, "trigrams ☰…☷: W since Unicode 16 (drawn with CJK text); glibc still N, 1 cell"),
        (0x268A...0x268F, "monograms and digrams ⚊…⚏: W since Unicode 16, as the trigrams; glibc still 1 cell"),
    ]

    @Test(.enabled(if: TerminalWidth.isAvailable, "no UTF-8 locale for wcwidth"))
    func agreesWithWcwidth() {
        func exception(_ value: UInt32) -> String? { Self.glibcIsOutOfDate.first { $0.range.contains(value) }?.reason }
        var mismatches: [String] = []
        var compared = 0
        for (name, range) in Self.comparedRanges {
            for value in range {
                guard let scalar = Unicode.Scalar(value), exception(value) == nil else { continue }
                let terminal = TerminalWidth.of(scalar)
                guard terminal >= 0 else { continue }
                compared += 1
                let ours = DisplayWidth.of(scalar)
                if ours != terminal {
                    mismatches.append("U+\(String(value, radix: 16, uppercase: true)) \(scalar.escaped(asASCII: false)) (\(name)): \(ours), wcwidth \(terminal)")
                }
            }
        }
        #expect(mismatches.count == 0, "display width vs wcwidth:\n\(mismatches.joined(separator: "\n"))")
        // The ranges are mostly assigned: a C library without Unicode data would skip them all.
        #expect(compared > 100_000)
        // An exception that glibc has caught up with is no longer needed.
        for (range, reason) in Self.glibcIsOutOfDate {
            for value in range {
                let scalar = Unicode.Scalar(value)!
                #expect(TerminalWidth.of(scalar) != DisplayWidth.of(scalar), "U+\(String(value, radix: 16, uppercase: true)) now agrees: \(reason)")
            }
        }
    }
}
