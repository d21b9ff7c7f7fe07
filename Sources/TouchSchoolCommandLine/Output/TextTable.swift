import TouchSchoolView

/// The commands' tables: columns lined up by display width (a Hangul syllable is two columns),
/// two spaces between them, no trailing spaces. Cells come escaped (`VisibleText`).
///
/// A table wider than `width` (a terminal's 80 columns) is folded rather than left for the
/// terminal to break its lines anywhere: the columns that fit stay on each row's first line, the
/// rest go on lines under it, indented, lined up among themselves, the heading folded alike.
public enum TextTable {
    /// How far a row's folded lines are indented under its first.
    static let foldIndent = 4

    /// `lines[0]` is the heading; the columns in `rightAligned` (numbers) are aligned right.
    public static func render(_ lines: [[String]], rightAligned: Set<Int>, width: Int = 80) -> String {
        let count = lines.map(\.count).max() ?? 0
        var widths = Array(repeating: 0, count: count)
        for line in lines { for (column, cell) in line.enumerated() { widths[column] = max(widths[column], DisplayWidth.of(cell)) } }
        let bands = bands(widths, width: width)
        var output = ""
        for line in lines {
            for (index, band) in bands.enumerated() where band.lowerBound < line.count {
                var cells: [String] = []
                for column in band.clamped(to: 0..<line.count) {
                    let cell = line[column]
                    let padding = String(repeating: " ", count: widths[column] - DisplayWidth.of(cell))
                    if rightAligned.contains(column) { cells.append(padding + cell) }
                    else { cells.append(column == min(band.upperBound, line.count) - 1 ? cell : cell + padding) }
                }
                output += String(repeating: " ", count: index == 0 ? 0 : foldIndent) + cells.joined(separator: "  ") + "\n"
            }
        }
        return output
    }

    /// The columns of each line of a row: as many as fit in `width` on the first, then on each
    /// folded line as many as fit beside its indent; a column wider than a line has one to itself.
    private static func bands(_ widths: [Int], width: Int) -> [Range<Int>] {
        var bands: [Range<Int>] = []
        var start = 0
        while start < widths.count {
            let room = width - (bands.isEmpty ? 0 : foldIndent)
            var end = start + 1, used = widths[start]
            while end < widths.count, used + 2 + widths[end] <= room {
                used += 2 + widths[end]
                end += 1
            }
            bands.append(start..<end)
            start = end
        }
        return bands
    }
}
