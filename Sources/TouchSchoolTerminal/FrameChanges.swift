import TouchSchoolView

extension CellGrid {
    /// What a terminal that shows `previous` (nil: a cleared screen) must be sent to show this
    /// grid, within `width`×`height` (the terminal's size), in reading order: each changed cell
    /// once, with the cells it covers (a wide character's continuation goes with it), and a wide
    /// character in the last column as a blank, which has no room for its right half. The one
    /// rule of both screens, ncurses' and the escape sequences'.
    public func changes(over previous: CellGrid?, width: Int, height: Int,
                        _ draw: (_ column: Int, _ row: Int, _ cell: Cell, _ cells: Int) -> Void) {
        for row in 0..<height {
            for column in 0..<width {
                let cell = self[column, row]
                if cell.isContinuation { continue }
                if let previous {
                    if previous[column, row] == cell { continue }
                } else if cell == .blank {
                    continue // the cleared screen is blank already
                }
                let wide = DisplayWidth.of(cell.character) == 2
                if wide, column == width - 1 {
                    draw(column, row, Cell(" ", style: cell.style), 1)
                } else {
                    draw(column, row, cell, wide ? 2 : 1)
                }
            }
        }
    }
}
