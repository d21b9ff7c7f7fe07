import TouchSchoolView

/// The commands' tables: columns lined up by display width (a Hangul syllable is two columns),
/// two spaces between them, no trailing spaces. Cells come escaped (`VisibleText`).
public enum TextTable {
    /// `lines[0]` is the heading; the columns in `rightAligned` (numbers) are aligned right.
    public static func render(_ lines: [[String]], rightAligned: Set<Int>) -> String {
        let count = lines.map(\.count).max() ?? 0
        var widths = Array(repeating: 0, count: count)
        for line in lines { for (column, cell) in line.enumerated() { widths[column] = max(widths[column], DisplayWidth.of(cell)) } }
        var output = ""
        for line in lines {
            var cells: [String] = []
            for (column, cell) in line.enumerated() {
                let padding = String(repeating: " ", count: widths[column] - DisplayWidth.of(cell))
                if rightAligned.contains(column) { cells.append(padding + cell) }
                else { cells.append(column == line.count - 1 ? cell : cell + padding) }
            }
            output += cells.joined(separator: "  ") + "\n"
        }
        return output
    }
}
