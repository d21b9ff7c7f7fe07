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

/// What `device_changes` holds, kept in memory by the connection that writes it (a server owns its
/// database): a commit reads a device here before its rows in the tables. The table has no index
/// by device on purpose: one would put a page per device back into every commit. Read from the
/// table at the first write, then kept by each transaction once it is committed.
final class UncompactedDevices {
    var devices: [String: ChangedDevice] = [:]
    var rows = 0

    /// What one transaction appended, and whether it compacted first; taken up once it commits.
    final class Pending {
        var devices: [String: ChangedDevice] = [:]
        var rows = 0
        var compacted = false
    }

    func takeUp(_ pending: Pending) {
        if pending.compacted {
            devices = [:]
            rows = 0
        }
        for (device, change) in pending.devices { devices[device] = devices[device].map { $0.merging(change) } ?? change }
        rows += pending.rows
    }
}

extension BattleDatabase {
    /// Every device in `device_changes`, its changes merged in order.
    static func changedDevices(_ connection: SQLiteConnection) throws(SQLiteError) -> (devices: [String: ChangedDevice], rows: Int) {
        var devices: [String: ChangedDevice] = [:]
        var rows = 0
        let statement = try connection.statement("""
            SELECT device, last_seq, last_end_ms, player, school, taps, best, public_id, accepted, refused, hour, hour_accepted,
                hour_refused, addresses, client, added FROM device_changes ORDER BY id
            """)
        while try statement.step() {
            rows += 1
            let key = statement.text(0) ?? ""
            var change = ChangedDevice()
            if !statement.isNull(1) {
                let (record, player) = device(statement, from: 1)
                change.record = record
                change.player = player
            }
            if let publicID = statement.text(7) {
                change.publicID = publicID
                change.activity = DeviceActivity(accepted: UInt64(max(0, statement.int64(8))), refused: UInt64(max(0, statement.int64(9))),
                                                  hour: statement.int64(10), hourAccepted: UInt64(max(0, statement.int64(11))),
                                                  hourRefused: UInt64(max(0, statement.int64(12))),
                                                  addresses: (statement.text(13) ?? "").split(separator: "\n").map(String.init),
                                                  client: statement.text(14) ?? "")
            }
            for line in (statement.text(15) ?? "").split(separator: "\n") {
                guard let equals = line.lastIndex(of: "="), let taps = UInt64(line[line.index(after: equals)...]) else {
                    throw SQLiteError(code: 0, message: "device_changes row \(rows) has taps it cannot read: \(line)")
                }
                change.added[String(line[..<equals]), default: 0] = change.added[String(line[..<equals]), default: 0].addingSaturating(taps)
            }
            devices[key] = devices[key].map { $0.merging(change) } ?? change
        }
        return (devices, rows)
    }
}

extension BattleDatabase.Writing {
    /// Appends a device's change: its record and player when the window changed them, its tally
    /// when it changed, and the taps it added per school.
    public func appendChange(device key: String, _ change: ChangedDevice) throws(SQLiteError) {
        let activity = change.activity
        try connection.statement("""
            INSERT INTO device_changes (device, last_seq, last_end_ms, player, school, taps, best, public_id, accepted, refused, hour,
                hour_accepted, hour_refused, addresses, client, added)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)
            """).bind(.text(key),
                      change.record.map { .integer(Int64(clamping: $0.lastSeq)) } ?? .null,
                      change.record.map { .integer($0.lastEndMs) } ?? .null,
                      change.record.map { .text($0.player) } ?? .null,
                      change.record == nil ? .null : change.player?.schoolID.map { .text($0) } ?? .null,
                      change.record == nil ? .null : .integer(Int64(clamping: change.player?.taps ?? 0)),
                      change.record == nil ? .null : .integer(Int64(max(0, change.player?.bestTapsPerSecond ?? 0))),
                      activity == nil ? .null : .text(change.publicID ?? ""),
                      activity.map { .integer(Int64(clamping: $0.accepted)) } ?? .null,
                      activity.map { .integer(Int64(clamping: $0.refused)) } ?? .null,
                      activity.map { .integer($0.hour) } ?? .null,
                      activity.map { .integer(Int64(clamping: $0.hourAccepted)) } ?? .null,
                      activity.map { .integer(Int64(clamping: $0.hourRefused)) } ?? .null,
                      activity.map { .text($0.addresses.joined(separator: "\n")) } ?? .null,
                      activity.map { .text($0.client) } ?? .null,
                      .text(change.added.filter { $0.value > 0 }.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
                          .joined(separator: "\n"))).run()
        pending.devices[key] = pending.devices[key].map { $0.merging(change) } ?? change
        pending.rows += 1
    }

    /// The device as the changes not yet compacted leave it, over what the tables hold.
    func changed(_ key: String) -> ChangedDevice? {
        // Compacted in this transaction: the tables hold the earlier changes, and may have moved on.
        let committed = pending.compacted ? nil : uncompacted.devices[key]
        switch (committed, pending.devices[key]) {
        case let (committed?, appended?): return committed.merging(appended)
        case let (committed, appended): return committed ?? appended
        }
    }

    /// The rows `device_changes` holds in this transaction.
    var changeRows: Int { (pending.compacted ? 0 : uncompacted.rows) + pending.rows }

    /// Moves every change into the device tables and empties `device_changes`, in this
    /// transaction: all or nothing, so a kill -9 at any point leaves either the changes or the
    /// tables holding them, never both and never neither.
    public func compact() throws(SQLiteError) {
        guard changeRows > 0 else { return }
        for (key, change) in try BattleDatabase.changedDevices(connection).devices.sorted(by: { $0.key < $1.key }) {
            if let record = change.record { try save(device: key, record: record, player: change.player ?? PlayerRecord()) }
            if let activity = change.activity { try saveActivity(device: key, publicID: change.publicID ?? "", activity: activity) }
            try addSchoolTaps(device: key, change.added)
        }
        try connection.statement("DELETE FROM device_changes").run()
        pending.devices = [:]
        pending.rows = 0
        pending.compacted = true
    }

    /// Compacts once `device_changes` holds `BattleDatabase.compactionRows` rows or more: the
    /// work of one compaction is bounded by that, and its writes are spread over that many rows'
    /// commits.
    public func compactIfDue() throws(SQLiteError) {
        if changeRows >= compactionRows { try compact() }
    }
}
