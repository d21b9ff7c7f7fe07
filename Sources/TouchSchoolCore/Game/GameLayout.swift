/// A rectangle of terminal cells.
public struct Rect: Equatable, Sendable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
    }

    public func contains(column: Int, row: Int) -> Bool {
        column >= x && column < x + width && row >= y && row < y + height
    }
}

/// Where each part of each screen sits for a terminal size. Shared by `update` (mouse clicks,
/// page sizes) and the view (drawing), so both always agree.
public struct GameLayout: Equatable, Sendable {
    /// Below this the game shows only "make the terminal bigger": the stats header, a usable play
    /// area and the status line do not fit in less.
    public static let minimumColumns = 40
    public static let minimumRows = 12

    public let columns: Int
    public let rows: Int

    public init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
    }

    public var isTooSmall: Bool { columns < Self.minimumColumns || rows < Self.minimumRows }

    /// Title line and three lines of numbers.
    public var header: Rect { Rect(x: 0, y: 0, width: columns, height: 4) }
    /// Key hints, or the warning when a burst is refused.
    public var statusLine: Rect { Rect(x: 0, y: rows - 1, width: columns, height: 1) }

    private var body: Rect { Rect(x: 0, y: 4, width: columns, height: rows - 5) }
    /// Wide terminals put the small leaderboard beside the play area, narrow ones below it.
    private var panelBeside: Bool { columns >= 72 }

    public var playArea: Rect {
        let body = body
        if panelBeside { return Rect(x: 0, y: body.y, width: columns - leaderboardPanel.width, height: body.height) }
        return Rect(x: 0, y: body.y, width: columns, height: body.height - leaderboardPanel.height)
    }

    public var leaderboardPanel: Rect {
        let body = body
        if panelBeside {
            let width = min(44, max(30, columns / 3))
            return Rect(x: columns - width, y: body.y, width: width, height: body.height)
        }
        let height = min(7, body.height / 2)
        return Rect(x: 0, y: body.y + body.height - height, width: columns, height: height)
    }

    /// Ranking screen: title, league line and column headings above the list.
    public var rankingList: Rect { Rect(x: 0, y: 3, width: columns, height: rows - 4) }

    /// Ranking screen's map: under the title and the key line, above the status line; the map
    /// and its legend share it (`MapCanvas`).
    public var rankingMap: Rect { Rect(x: 0, y: 2, width: columns, height: rows - 3) }

    /// School choice: title, prompt and the search line above the results.
    public var pickerResults: Rect { Rect(x: 0, y: 4, width: columns, height: rows - 5) }
}
