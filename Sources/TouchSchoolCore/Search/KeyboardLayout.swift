/// Where a key sits on a QWERTY keyboard, as fractions of the keyboard (left hand left, top row
/// high), so a tap's puff appears where the finger landed.
public enum KeyboardLayout {
    private static let rows: [[Character]] = [
        Array("`1234567890-="),
        Array("qwertyuiop[]\\"),
        Array("asdfghjkl;'"),
        Array("zxcvbnm,./"),
    ]
    private static let shifted: [Character: Character] = {
        var map: [Character: Character] = [:]
        for (plain, shift) in zip("`1234567890-=[]\\;',./", "~!@#$%^&*()_+{}|:\"<>?") { map[shift] = plain }
        return map
    }()
    /// Each row starts a little further right, as on a real keyboard.
    private static let rowOffsets: [Float] = [0, 0.5, 0.75, 1.25]
    private static let keysPerRow: Float = 13.5

    /// (x, y) in 0...1 for a key; nil for keys not on the main block (they land at random).
    public static func position(of character: Character) -> (x: Float, y: Float)? {
        guard let key = physicalKey(for: character) else {
            return character == " " ? (0.5, 1.0) : nil
        }
        for (rowIndex, row) in rows.enumerated() {
            if let column = row.firstIndex(of: key) {
                let x = (rowOffsets[rowIndex] + Float(column) + 0.5) / keysPerRow
                let y = (Float(rowIndex) + 0.5) / Float(rows.count + 1)
                return (min(1, x), y)
            }
        }
        return nil
    }

    private static func physicalKey(for character: Character) -> Character? {
        guard let scalar = character.unicodeScalars.first else { return nil }
        // Hangul by the 2-beolsik keys the search reads too; a syllable by its 초성, the key
        // struck first. Shift-O (ㅒ) lands on o like any capital.
        let typed = Hangul.jamoKey[Hangul.initialConsonant(of: scalar.value)] ?? character
        let lowered = typed.lowercased()
        guard lowered.count == 1, let lower = lowered.first else { return nil }
        return shifted[lower] ?? lower
    }
}
