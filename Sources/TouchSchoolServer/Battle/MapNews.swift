import TouchSchoolCore
import TouchSchoolProtocol

/// The map of the schools as the hall tells it (issue 50): the catalog's fixed grid
/// (`MapGrid`, served whole by `GET /v1/map`), each cell's taps of the last few seconds, and
/// what of their glow is still to be told to the screens showing the map (`Connection.showsMap`).
///
/// Bounded like the views: a tap costs its cell one addition (`tapped`, from the totals that
/// changed); a tick, every `interval`, costs the cells that tapped within the window; a message
/// is at most `messageBytes` of JSON, one a second: ≤ 360 B/s to a player, who is sent no page
/// while the map shows (the map takes the page's place and its budget, 400 B/s), ≤ 379 B/s of
/// events to a board stream, whose pages keep the rest of its 1.5 KiB/s. A tick's glow changes are
/// the same for every screen (the first `changesPerMessage`; the others wait for the next
/// ticks); a screen that came since is also sent, in the room left, the cells glowing now from
/// where its sweep reached (`Connection.mapSweep`), so that whenever it came its map is whole
/// within a few ticks (its last message says `"whole":true`).
struct MapNews: Sendable {
    /// A second: at 4,000 players each showing the map, a message every 500 ms (180 bytes) was
    /// 8,000 messages a second made and written, and the server's CPU 1.40× the bare stack's; the
    /// same bytes in half the messages cost less (BENCHMARKS.md, "The map").
    static let interval: Duration = .seconds(1)
    /// The window's buckets, one per tick (`RecentTaps.windowNanoseconds`, 5 s).
    static let buckets = Int(Duration.nanoseconds(RecentTaps.windowNanoseconds) / interval)
    /// The most bytes of one `map` message's JSON.
    static let messageBytes = 360
    /// The most glow changes of one tick sent to everyone: the rest of a message's room is the
    /// sweep's of a screen that came lately.
    static let changesPerMessage = 48
    /// What the map takes of a board stream's budget: its messages as events, one a second.
    static let streamBytesPerSecond = (messageBytes + BoardStream.event("map", json: "").utf8.count) * Int(Duration.seconds(1) / interval)

    /// The grid of the catalog served, made when a screen first shows the map or asks for it.
    private(set) var grid: MapGrid?
    /// The catalog's entity tag without its quotes, as `GET /v1/map` and the `map` message name it.
    private(set) var catalog = ""
    /// Whether the catalog is the starter list (`MapGridAnswer.starter`).
    private var starter = false
    /// Per cell and bucket, the taps; per cell their sum over the window; the bucket filled now.
    private var taps: [UInt32] = []
    private var sums: [UInt64] = []
    private var bucket = 0
    /// The cells with taps in the window.
    private var active: Set<Int> = []
    /// Whether a screen shows the map: taps are counted only then (`wake`, `sleep`), so that a
    /// server no screen shows it to spends nothing on it.
    private(set) var awake = false
    /// Per cell, its glow now (0 none, else `MapGlow`'s raw value); the screens are told it as
    /// `untold` empties.
    private(set) var glow: [UInt8] = []
    /// Cells whose glow changed and is not told yet, oldest first.
    private var untold: [Int] = []
    private var isUntold: [Bool] = []
    /// `GET /v1/map`'s answer for the grid, made once.
    private var gridJSON: String?

    /// The grid for `catalog`, made now unless it is made already (a new catalog starts it again).
    mutating func prepare(_ resource: Catalog, etag: String) {
        let tag = etag.filter { $0 != "\"" }
        guard grid == nil || catalog != tag else { return }
        let grid = MapGrid(map: SchoolMap(catalog: resource))
        self = MapNews()
        self.grid = grid
        catalog = tag
        starter = resource.source == .starter
        taps = Array(repeating: 0, count: grid.schools.count * Self.buckets)
        sums = Array(repeating: 0, count: grid.schools.count)
        glow = Array(repeating: 0, count: grid.schools.count)
        isUntold = Array(repeating: false, count: grid.schools.count)
    }

    /// The catalog changed: the grid is made again when a screen shows the map.
    mutating func forget() { self = MapNews() }

    /// Ticks since the last screen showing the map went.
    private var unwatchedTicks = 0

    /// A screen shows the map: taps count from now.
    mutating func wake() {
        awake = true
        unwatchedTicks = 0
    }

    /// A tick with no screen showing the map: after a window of them it sleeps (true). Not at
    /// once: the projector's stream, opened again at each of its pages, finds it as it was.
    mutating func unwatchedTick() -> Bool {
        unwatchedTicks += 1
        if unwatchedTicks >= Self.buckets { sleep() }
        return !awake
    }

    /// No screen shows the map any more: its glow is forgotten, and taps are not counted until
    /// one does again (it starts dark, and glows within the window).
    mutating func sleep() {
        guard awake else { return }
        awake = false
        for index in taps.indices { taps[index] = 0 }
        for cell in sums.indices {
            sums[cell] = 0
            glow[cell] = 0
            isUntold[cell] = false
        }
        active = []
        untold = []
    }

    /// `count` more taps for the school at `position` (a catalog position).
    mutating func tapped(position: Int, _ count: UInt64) {
        guard awake, let cell = grid?.cell(of: position), count > 0 else { return }
        let slot = cell * Self.buckets + bucket
        taps[slot] = taps[slot] &+ UInt32(clamping: count)
        sums[cell] += UInt64(UInt32(clamping: count))
        active.insert(cell)
        let level = UInt8(MapGlow(taps: sums[cell]).rawValue)
        if level > glow[cell] { changed(cell, to: level) }
    }

    /// A tick: the oldest bucket leaves the window; a cell's glow follows its taps.
    mutating func advance() {
        guard grid != nil else { return }
        bucket = (bucket + 1) % Self.buckets
        for cell in active {
            let slot = cell * Self.buckets + bucket
            sums[cell] -= UInt64(taps[slot])
            taps[slot] = 0
            let level = sums[cell] == 0 ? 0 : UInt8(MapGlow(taps: sums[cell]).rawValue)
            if sums[cell] == 0 { active.remove(cell) }
            if level != glow[cell] { changed(cell, to: level) }
        }
    }

    private mutating func changed(_ cell: Int, to level: UInt8) {
        glow[cell] = level
        if !isUntold[cell] {
            isUntold[cell] = true
            untold.append(cell)
        }
    }

    /// This tick's changes for everyone, taken from those untold (the rest wait for the next).
    mutating func takeChanges() -> [Int] {
        let taken = Array(untold.prefix(Self.changesPerMessage))
        untold.removeFirst(taken.count)
        for cell in taken { isUntold[cell] = false }
        return taken
    }

    /// One screen's message: the changes for everyone (once it knows the catalog), then the cells glowing from `sweep` on
    /// as far as the room allows; `told` whether it knows this catalog; `marks` the cells of
    /// the leaders and `mine` its school's. Returns the message and where its sweep goes on
    /// (nil: done).
    func message(changes: [Int], sweep: Int?, told: Bool, marks: [Int], mine: Int?) -> (text: String, sweep: Int?) {
        var head = #"{"type":"map""#
        if !told { head += #","catalog":""# + catalog + "\"" }
        head += #","marks":["# + marks.map(String.init).joined(separator: ",") + "]"
        if let mine { head += #","mine":"# + String(mine) }
        head += #","cells":""#
        // The message that ends a sweep says so: the screen's map is whole (it may show it
        // in place of the one it had, drawn until then).
        let whole = #"","whole":true}"#
        let room = (Self.messageBytes - head.utf8.count - (sweep == nil ? 2 : whole.utf8.count)) / MapCellCode.length
        var cells: [UInt8] = []
        // A screen not told the catalog yet is new to it: its sweep from the first cell tells it
        // every cell glowing now, so the changes are of nothing it knows. Once told, the changes
        // always fit (`changesPerMessage` is what the room holds with the most marks).
        if told { for cell in changes { MapCellCode.append(cell: cell, glow: Int(glow[cell]), to: &cells) } }
        var next = sweep
        if var cell = sweep {
            while cell < glow.count, cells.count / MapCellCode.length < room {
                if glow[cell] > 0 { MapCellCode.append(cell: cell, glow: Int(glow[cell]), to: &cells) }
                cell += 1
            }
            next = cell < glow.count ? cell : nil
        }
        return (head + String(decoding: cells, as: UTF8.self) + (sweep != nil && next == nil ? whole : "\"}"), next)
    }

    /// `GET /v1/map`'s answer: the grid and its catalog (`MapGrid.encodedCells`).
    mutating func json() -> String? {
        guard let grid else { return nil }
        if let gridJSON { return gridJSON }
        let text = MessageCoding.encodeJSON(MapGridAnswer(catalog: catalog, columns: grid.columns, rows: grid.rows,
                                                          provinces: grid.provinces, cells: grid.encodedCells, starter: starter))
        gridJSON = text
        return text
    }
}
