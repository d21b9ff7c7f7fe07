import TouchSchoolCore

/// The screen of a first game on a server that does not answer: which server, why not, that the
/// game tries again by itself, and how to leave. Pure, like `view`: the terminal draws it.
public func connectingView(server: String, failure: ServerFailure, language: Language, columns: Int, rows: Int) -> CellGrid {
    let strings = Strings(language)
    var grid = CellGrid(width: max(0, columns), height: max(0, rows))
    guard columns > 0, rows > 0 else { return grid }
    grid.fill(column: 0, row: 0, width: columns, height: 1, style: .title)
    grid.put(DisplayWidth.truncate(strings.title, toWidth: columns - 2), column: 1, row: 0, style: .title)
    let width = max(1, columns - 4)
    var lines: [(String, CellStyle)] = []
    // The address is the player's own text: the grid shows any control character in it escaped.
    for line in DisplayWidth.wrap(strings.connecting(to: server), toWidth: width) { lines.append((line, .accent)) }
    for line in DisplayWidth.wrap(strings.serverFailure(failure), toWidth: width) { lines.append((line, .warning)) }
    for line in DisplayWidth.wrap(strings.retrying, toWidth: width) { lines.append((line, .dim)) }
    let room = max(0, rows - 2)
    let top = 1 + max(0, (room - lines.count) / 2)
    for (offset, line) in lines.prefix(room).enumerated() {
        grid.put(line.0, column: 2, row: top + offset, style: line.1)
    }
    if rows > 1 { grid.put(DisplayWidth.truncate(strings.connectingKeys, toWidth: columns - 2), column: 1, row: rows - 1, style: .dim) }
    return grid
}
