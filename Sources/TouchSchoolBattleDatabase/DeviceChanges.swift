import TouchSchoolCore

/// A device as `device_changes` leaves it, over its rows in the tables: its record and player
/// when a change set them, its tally (with its public id) when a change set it, and the taps the
/// changes added to it per school, not yet in `device_school_taps`.
public struct ChangedDevice: Equatable, Sendable {
    public var record: DeviceRecord?
    public var player: PlayerRecord?
    public var publicID: String?
    public var activity: DeviceActivity?
    public var added: [String: UInt64] = [:]

    public init(record: DeviceRecord? = nil, player: PlayerRecord? = nil, publicID: String? = nil, activity: DeviceActivity? = nil,
                added: [String: UInt64] = [:]) {
        self.record = record
        self.player = player
        self.publicID = publicID
        self.activity = activity
        self.added = added
    }

    /// This state with a later change over it.
    func merging(_ later: ChangedDevice) -> ChangedDevice {
        var merged = self
        if let record = later.record {
            merged.record = record
            merged.player = later.player
        }
        if let activity = later.activity {
            merged.activity = activity
            merged.publicID = later.publicID
        }
        merged.added.merge(later.added) { $0.addingSaturating($1) }
        return merged
    }
}

/// What `device_changes` and `device_changes_compacting` hold and the tables do not yet, kept in
/// memory by the connection that writes them (a server owns its database): a commit reads a device
/// here before its rows in the tables. The tables have no index by device on purpose: one would
/// put a page per device back into every commit. Read at the first write (`read`), then changed in
/// place by each transaction; `BattleDatabase.write` drops it when a transaction fails, and the
/// next reads it again.
///
/// A compaction is sliced (`Writing.compactIfDue`): once `device_changes` holds `compactionRows`
/// rows, they are set aside as `device_changes_compacting` and moved into the tables a few devices
/// a commit, in their keys' byte order, each device's rows merged into one write; then that table
/// is emptied. `device_changes_compaction` says how far it went, in the same transactions.
final class UncompactedDevices {
    /// A device's rows, merged, and how many they are.
    struct Entry {
        var change: ChangedDevice
        var rows: Int

        func merging(_ later: Entry) -> Entry { Entry(change: change.merging(later.change), rows: rows + later.rows) }
    }

    /// The rows of `device_changes_compacting` of the devices not yet moved.
    var compacting: [String: Entry] = [:]
    /// The rows of `device_changes`, all later than those.
    var recent: [String: Entry] = [:]
    /// Whether a compaction is under way.
    var underWay = false
    /// The devices of `compacting` in their keys' byte order, the next to move first.
    var queue: ArraySlice<String> = []
    /// The rows `device_changes` holds.
    var rows = 0
    /// The taps per school of the rows of `device_changes_compacting` not yet in `scores` (counted
    /// = 0), the rows a slice moved included: the compaction's last slice adds them to `scores`.
    var compactingTotals: [String: UInt64] = [:]
    /// The same of the rows of `device_changes`.
    var recentTotals: [String: UInt64] = [:]
    /// The numbers (`device_numbers`) of the devices known to this connection: those of the rows
    /// read and of those appended since.
    var numbers: [String: Int64] = [:]

    /// What the rows of changes add to the schools' rows in `scores`.
    var pendingTotals: [String: UInt64] { compactingTotals.merging(recentTotals) { $0.addingSaturating($1) } }

    /// What the rows of changes add to one school's row in `scores`: per commit, a look-up per
    /// school it changed, not a merge of every school's (`pendingTotals`).
    func pending(_ school: String) -> UInt64 { (compactingTotals[school] ?? 0).addingSaturating(recentTotals[school] ?? 0) }

    /// The device as its rows leave it over the tables, nil for none.
    func changed(_ key: String) -> ChangedDevice? {
        switch (compacting[key], recent[key]) {
        case let (earlier?, later?): return earlier.change.merging(later.change)
        case let (earlier, later): return (earlier ?? later)?.change
        }
    }

    /// Every device with rows not in the tables, as `changed` gives it.
    var devices: [String: ChangedDevice] {
        var devices = compacting.mapValues(\.change)
        for (key, entry) in recent { devices[key] = devices[key].map { $0.merging(entry.change) } ?? entry.change }
        return devices
    }

    /// `keys` in their bytes' order, as SQLite's BINARY collation sorts them: the order a
    /// compaction moves devices in and `moved_through` records.
    static func inByteOrder(_ keys: some Sequence<String>) -> ArraySlice<String> {
        ArraySlice(keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
    }

    /// What the tables of changes and `device_changes_compaction` hold, in the caller's
    /// transaction; the rows a compaction already moved are left out.
    static func read(_ connection: SQLiteConnection) throws(SQLiteError) -> UncompactedDevices {
        let read = UncompactedDevices()
        let marker = try connection.statement("SELECT moved_through FROM device_changes_compaction WHERE id = 1").row { $0.text(0) }
        read.underWay = marker != nil
        if let movedThrough = marker {
            let (entries, totals) = try entries(connection, "device_changes_compacting", numbering: &read.numbers)
            read.compactingTotals = totals
            for (key, entry) in entries where movedThrough.map({ !$0.utf8.lexicographicallyPrecedes(key.utf8) }) != true {
                read.compacting[key] = entry
            }
        }
        read.queue = inByteOrder(read.compacting.keys)
        (read.recent, read.recentTotals) = try entries(connection, "device_changes", numbering: &read.numbers)
        read.rows = read.recent.values.reduce(0) { $0 + $1.rows }
        return read
    }

    /// Each device's rows in `table` (one of the two tables of changes), merged in order, and
    /// the taps per school of its rows not yet in `scores`; their devices' numbers into `numbers`.
    private static func entries(_ connection: SQLiteConnection, _ table: StaticString, numbering numbers: inout [String: Int64])
        throws(SQLiteError) -> (entries: [String: Entry], totals: [String: UInt64]) {
        var entries: [String: Entry] = [:]
        var totals: [String: UInt64] = [:]
        let statement = try connection.statement("""
            SELECT n.device, c.last_seq, c.last_end_ms, c.player, c.school, c.taps, c.best, c.public_id, c.accepted, c.refused, c.hour,
                c.hour_accepted, c.hour_refused, c.addresses, c.client, c.added, c.id, c.counted, c.device
            FROM \(table) c JOIN device_numbers n ON n.number = c.device ORDER BY c.id
            """)
        while try statement.step() {
            let key = statement.text(0) ?? ""
            numbers[key] = statement.int64(18)
            // A column left NULL is as the device's earlier row in this table has it (`appendChange`).
            let earlier = entries[key]?.change
            func leftOut(_ what: String) -> SQLiteError {
                SQLiteError(code: 0, message: "\(table) row \(statement.int64(16)) leaves out the \(what) of a device with no earlier row")
            }
            var change = ChangedDevice()
            if !statement.isNull(1) {
                guard let player = statement.text(3) ?? earlier?.record?.player else { throw leftOut("player") }
                let school: String?
                if let written = statement.text(4) {
                    school = written.isEmpty ? nil : written
                } else {
                    guard earlier?.record != nil else { throw leftOut("school") }
                    school = earlier?.player?.schoolID
                }
                change.record = DeviceRecord(lastSeq: UInt64(max(0, statement.int64(1))), player: player, lastEndMs: statement.int64(2))
                change.player = PlayerRecord(schoolID: school, taps: UInt64(max(0, statement.int64(5))),
                                             bestTapsPerSecond: Int(clamping: statement.int64(6)))
            }
            if !statement.isNull(8) {
                let earlierActivity = earlier?.activity
                guard let publicID = statement.text(7) ?? earlierActivity.flatMap({ _ in earlier?.publicID }) else { throw leftOut("public id") }
                guard let addresses = statement.text(13).map({ $0.split(separator: "\n").map(String.init) }) ?? earlierActivity?.addresses
                else { throw leftOut("addresses") }
                guard let client = statement.text(14) ?? earlierActivity?.client else { throw leftOut("client") }
                change.publicID = publicID
                change.activity = DeviceActivity(accepted: UInt64(max(0, statement.int64(8))), refused: UInt64(max(0, statement.int64(9))),
                                                  hour: statement.int64(10), hourAccepted: UInt64(max(0, statement.int64(11))),
                                                  hourRefused: UInt64(max(0, statement.int64(12))), addresses: addresses, client: client)
            }
            for line in (statement.text(15) ?? "").split(separator: "\n") {
                guard let equals = line.lastIndex(of: "="), let taps = UInt64(line[line.index(after: equals)...]) else {
                    throw SQLiteError(code: 0, message: "\(table) row \(statement.int64(16)) has taps it cannot read: \(line)")
                }
                change.added[String(line[..<equals]), default: 0] = change.added[String(line[..<equals]), default: 0].addingSaturating(taps)
            }
            if statement.int64(17) == 0 { totals.merge(change.added) { $0.addingSaturating($1) } }
            let entry = Entry(change: change, rows: 1)
            entries[key] = entries[key].map { $0.merging(entry) } ?? entry
        }
        return (entries, totals)
    }
}

extension BattleDatabase.Writing {
    /// Appends a device's change: its record and player when the window changed them, its tally
    /// when it changed, and the taps it added per school, which count in the totals from now on
    /// (`newBoard`) and reach `scores` with the compaction that moves them. The texts a window
    /// rarely changes (the player's name and school, the public id, the addresses, the client) are
    /// left NULL when the device's earlier row in `device_changes` has them the same: they were
    /// most of a row's bytes, written again by every commit for every device (BENCHMARKS.md,
    /// "Rows that leave out what did not change"). So a device's first row in the table is whole.
    public func appendChange(device key: String, _ change: ChangedDevice) throws(SQLiteError) {
        let activity = change.activity
        let number = try number(ofDevice: key)
        let earlier = uncompacted.recent[key]?.change
        let record = change.record, earlierRecord = earlier?.record
        let earlierActivity = earlier?.activity
        func unlessSame(_ text: String?, as earlierText: String??) -> SQLiteValue {
            guard let text else { return .null }
            return earlierText == .some(text) ? .null : .text(text)
        }
        try connection.statement("""
            INSERT INTO device_changes (device, last_seq, last_end_ms, player, school, taps, best, public_id, accepted, refused, hour,
                hour_accepted, hour_refused, addresses, client, added, counted)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, 0)
            """).bind(.integer(number),
                      record.map { .integer(Int64(clamping: $0.lastSeq)) } ?? .null,
                      record.map { .integer($0.lastEndMs) } ?? .null,
                      unlessSame(record?.player, as: earlierRecord.map(\.player)),
                      // No school is '', NULL being "as before".
                      unlessSame(record.map { _ in change.player?.schoolID ?? "" },
                                 as: earlierRecord.map { _ in earlier?.player?.schoolID ?? "" }),
                      record == nil ? .null : .integer(Int64(clamping: change.player?.taps ?? 0)),
                      record == nil ? .null : .integer(Int64(max(0, change.player?.bestTapsPerSecond ?? 0))),
                      unlessSame(activity.map { _ in change.publicID ?? "" }, as: earlierActivity.map { _ in earlier?.publicID ?? "" }),
                      activity.map { .integer(Int64(clamping: $0.accepted)) } ?? .null,
                      activity.map { .integer(Int64(clamping: $0.refused)) } ?? .null,
                      activity.map { .integer($0.hour) } ?? .null,
                      activity.map { .integer(Int64(clamping: $0.hourAccepted)) } ?? .null,
                      activity.map { .integer(Int64(clamping: $0.hourRefused)) } ?? .null,
                      unlessSame(activity.map { $0.addresses.joined(separator: "\n") },
                                 as: earlierActivity.map { $0.addresses.joined(separator: "\n") }),
                      unlessSame(activity?.client, as: earlierActivity.map(\.client)),
                      .text(change.added.filter { $0.value > 0 }.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
                          .joined(separator: "\n"))).run()
        let entry = UncompactedDevices.Entry(change: change, rows: 1)
        uncompacted.recent[key] = uncompacted.recent[key].map { $0.merging(entry) } ?? entry
        uncompacted.rows += 1
        uncompacted.recentTotals.merge(change.added.filter { $0.value > 0 }) { $0.addingSaturating($1) }
    }

    /// The number the device's rows of changes name it by, given at its first.
    private func number(ofDevice key: String) throws(SQLiteError) -> Int64 {
        if let number = uncompacted.numbers[key] { return number }
        var number = try connection.statement("SELECT number FROM device_numbers WHERE device = ?1").bind(.text(key)).row { $0.int64(0) }
        if number == nil {
            number = try connection.statement("INSERT INTO device_numbers (device) VALUES (?1) RETURNING number").bind(.text(key))
                .row { $0.int64(0) }
        }
        guard let number else { throw SQLiteError(code: 0, message: "no number was given to device \(key)") }
        uncompacted.numbers[key] = number
        return number
    }

    /// The device as the changes not yet compacted leave it, over what the tables hold.
    func changed(_ key: String) -> ChangedDevice? { uncompacted.changed(key) }

    /// Moves every change into the device tables and empties the tables of changes, in this
    /// transaction, a compaction under way included: for the operator's requests, which read or
    /// change the tables themselves. All or nothing, so a kill -9 at any point leaves either the
    /// changes or the tables holding them, never both and never neither.
    public func compact() throws(SQLiteError) {
        guard uncompacted.rows > 0 || uncompacted.underWay else { return }
        for (key, change) in uncompacted.devices.sorted(by: { $0.key < $1.key }) { try move(device: key, change) }
        try addToScores(uncompacted.pendingTotals)
        for statement in ["DELETE FROM device_changes", "DELETE FROM device_changes_compacting", "DELETE FROM device_changes_compaction"] {
            try connection.statement(statement).run()
        }
        uncompacted.compacting = [:]
        uncompacted.recent = [:]
        uncompacted.queue = []
        uncompacted.underWay = false
        uncompacted.rows = 0
        uncompacted.compactingTotals = [:]
        uncompacted.recentTotals = [:]
    }

    /// A slice of compaction, for a commit about to append `appending` rows: none while
    /// `device_changes` holds fewer than `BattleDatabase.compactionRows` rows and no compaction
    /// is under way. Then its rows are set aside (the two tables of changes swap names, an empty
    /// one taking the appends) and moved over the next commits, each moving whole devices (all
    /// their rows, merged into one write) until it has moved at least 4 times as many rows as it
    /// appends; the commit that moves the last empties the table set aside, in one statement. So a
    /// commit moves at most 4 times as many devices as it appends rows, and a compaction ends
    /// before a quarter as many rows as it compacts have arrived: `device_changes` stays under
    /// `compactionRows` plus a window, the two tables under 1.25 times that plus a window. Fewer,
    /// larger slices write less than many small ones: each rewrites the pages at its ends and
    /// above its rows in each table. The last slice adds the whole compaction's taps to `scores`:
    /// each school's page once a compaction, not once a commit. All in this transaction, `device_changes_compaction` with
    /// it: a kill -9 leaves the devices a slice moved either in the tables and marked moved, or
    /// neither. Answers whether a compaction is still under way after this transaction.
    @discardableResult
    public func compactIfDue(appending: Int) throws(SQLiteError) -> Bool {
        let changes = uncompacted
        if !changes.underWay {
            guard changes.rows >= compactionRows else { return false }
            for statement in ["ALTER TABLE device_changes RENAME TO device_changes_set_aside",
                              "ALTER TABLE device_changes_compacting RENAME TO device_changes",
                              "ALTER TABLE device_changes_set_aside RENAME TO device_changes_compacting",
                              "INSERT INTO device_changes_compaction (id, moved_through) VALUES (1, NULL)"] {
                try connection.execute(statement)
            }
            changes.underWay = true
            changes.compacting = changes.recent
            changes.recent = [:]
            changes.rows = 0
            changes.compactingTotals = changes.recentTotals
            changes.recentTotals = [:]
            changes.queue = UncompactedDevices.inByteOrder(changes.compacting.keys)
        }
        var movedRows = 0
        var lastMoved: String?
        while movedRows < 4 * max(appending, 1), let key = changes.queue.popFirst() {
            guard let entry = changes.compacting.removeValue(forKey: key) else { continue }
            try move(device: key, entry.change)
            movedRows += entry.rows
            lastMoved = key
        }
        if changes.queue.isEmpty {
            try addToScores(changes.compactingTotals)
            changes.compactingTotals = [:]
            try connection.statement("DELETE FROM device_changes_compacting").run()
            try connection.statement("DELETE FROM device_changes_compaction").run()
            changes.underWay = false
        } else if let lastMoved {
            try connection.statement("UPDATE device_changes_compaction SET moved_through = ?1 WHERE id = 1").bind(.text(lastMoved)).run()
        }
        return changes.underWay
    }

    /// Writes a device's changes into the tables: its latest record and tally, its taps added
    /// per school. The one place a compaction, whole or sliced, writes a device.
    private func move(device key: String, _ change: ChangedDevice) throws(SQLiteError) {
        if let record = change.record { try save(device: key, record: record, player: change.player ?? PlayerRecord()) }
        if let activity = change.activity { try saveActivity(device: key, publicID: change.publicID ?? "", activity: activity) }
        try addSchoolTaps(device: key, change.added)
    }
}
