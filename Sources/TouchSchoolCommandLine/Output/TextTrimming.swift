extension String {
    /// The text without spaces (Unicode's space separators) and tabs at either end: Foundation's
    /// `trimmingCharacters(in: .whitespaces)`, without bringing Foundation into the game.
    var trimmingSpaces: Substring {
        let isSpace: (Character) -> Bool = { $0.unicodeScalars.allSatisfy { $0 == "\t" || $0.properties.generalCategory == .spaceSeparator } }
        let start = firstIndex(where: { !isSpace($0) }) ?? endIndex
        let end = lastIndex(where: { !isSpace($0) }).map(index(after:)) ?? start
        return self[start..<end]
    }
}
