import TouchSchoolCore

/// Names and keys as players send them, made safe to keep and to show.
package enum PlayerNames {
    /// Longest display name kept, in characters (grapheme clusters), as a player counts them.
    static let maximumLength = 32
    /// …and in Unicode scalars and UTF-8 bytes, since one character may carry thousands of
    /// combining marks: what is kept per device grows with what players do, never with what one
    /// message carries. 32 Hangul syllables are 32 scalars and 96 bytes; a name of 32 characters
    /// with an accent or two each still fits.
    static let maximumScalars = 64
    static let maximumBytes = 128

    /// Escape sequences (CSI `ESC [ … final`, OSC `ESC ] … BEL/ST`, two-character escapes) and
    /// every other control removed (`VisibleText`), white space collapsed, at most
    /// `maximumLength` characters; "player" when nothing is left.
    package static func clean(_ name: String) -> String {
        let input = Array(name.unicodeScalars)
        var scalars = String.UnicodeScalarView()
        var lastWasSpace = true
        var index = 0
        while index < input.count {
            let scalar = input[index]
            index += 1
            if scalar == "\u{1B}" || scalar == "\u{9B}" || scalar == "\u{9D}" {
                let kind: Unicode.Scalar? = scalar == "\u{9B}" ? "[" : scalar == "\u{9D}" ? "]" : (index < input.count ? input[index] : nil)
                if scalar == "\u{1B}", kind != nil { index += 1 }
                switch kind {
                case "["?:
                    // Parameters and intermediates up to the final byte.
                    while index < input.count, !(0x40...0x7E).contains(input[index].value) { index += 1 }
                    index += 1
                case "]"?:
                    while index < input.count, input[index] != "\u{7}", input[index] != "\u{9C}",
                          !(input[index] == "\u{1B}" && index + 1 < input.count && input[index + 1] == "\\") { index += 1 }
                    index += input.indices.contains(index) && input[index] == "\u{1B}" ? 2 : 1
                default:
                    break
                }
                continue
            }
            if VisibleText.isControl(scalar) || scalar.properties.isWhitespace {
                if !lastWasSpace { scalars.append(" ") }
                lastWasSpace = true
                continue
            }
            scalars.append(scalar)
            lastWasSpace = false
        }
        var text = ""
        var (characters, scalarCount, bytes) = (0, 0, 0)
        // Whole characters only, while all three limits hold: a character too heavy to fit
        // ends the name there.
        for character in String(scalars) {
            let (characterScalars, characterBytes) = (character.unicodeScalars.count, character.utf8.count)
            guard characters < maximumLength, scalarCount + characterScalars <= maximumScalars,
                  bytes + characterBytes <= maximumBytes else { break }
            text.append(character)
            (characters, scalarCount, bytes) = (characters + 1, scalarCount + characterScalars, bytes + characterBytes)
        }
        while text.last == " " { text.removeLast() }
        return text.isEmpty ? "player" : text
    }

}
