/// Text from data (school names, player names, ids, paths) as a terminal may show it.
///
/// A control character in such text would act instead of showing: ESC starts a sequence that can
/// clear the screen or retitle the window, a C1 control does the same in one character, and the
/// bidi overrides and isolates reorder whatever follows. The one rule, for the game's cells and
/// for every line the commands print: each such character is shown as its Swift escape, `\u{1B}`,
/// so that what the data really holds can be read and reported. JSON output escapes the same
/// characters as `\u001b`, which keeps the value while keeping the terminal safe.
public enum VisibleText {
    /// C0 controls (tab and line breaks included), DEL, C1 controls, and the bidi embeddings,
    /// overrides (U+202A–202E) and isolates (U+2066–2069).
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// `text` with every control written as `\u{1B}`; `text` itself when it has none.
    public static func escaping(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var result = ""
        for scalar in text.unicodeScalars {
            if isControl(scalar) {
                result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
