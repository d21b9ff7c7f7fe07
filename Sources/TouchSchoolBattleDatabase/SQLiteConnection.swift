import CSQLite

/// What SQLite said went wrong, in its words.
public struct SQLiteError: Error, CustomStringConvertible, Sendable {
    /// SQLite's primary result code (`SQLITE_BUSY`, `SQLITE_NOTADB`, …).
    public var code: Int32
    public var message: String
    public var description: String { message }
}

/// A value bound to a statement's parameter.
enum SQLiteValue {
    case integer(Int64)
    case text(String)
    case null
}

/// One connection to an SQLite file: the least of SQLite's C API the battle database needs.
/// Not thread-safe: its owner uses it from one thread at a time.
final class SQLiteConnection {
    private let handle: OpaquePointer
    /// Prepared once, reused by every commit (`statement(_:)`).
    private var prepared: [String: SQLiteStatement] = [:]

    /// Opens `path`; `create`: made when missing (else missing is an error).
    init(path: String, readOnly: Bool, create: Bool) throws(SQLiteError) {
        var flags = readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE
        if create && !readOnly { flags |= SQLITE_OPEN_CREATE }
        // One connection per thread of use: SQLite's own mutexes are not needed.
        flags |= SQLITE_OPEN_NOMUTEX
        var opened: OpaquePointer?
        let code = sqlite3_open_v2(path, &opened, flags, nil)
        guard code == SQLITE_OK, let opened else {
            let message = opened.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
            sqlite3_close_v2(opened)
            throw SQLiteError(code: code & 0xFF, message: message)
        }
        handle = opened
        sqlite3_extended_result_codes(handle, 0)
    }

    deinit {
        for statement in prepared.values { statement.finalize() }
        sqlite3_close_v2(handle)
    }

    /// Runs one or more statements that return no rows (`PRAGMA …`, `CREATE …`).
    func execute(_ sql: String) throws(SQLiteError) {
        let code = sqlite3_exec(handle, sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw error(code) }
    }

    /// The statement for `sql`, prepared at its first use and kept: commits run the same few
    /// statements again and again.
    func statement(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        if let statement = prepared[sql] {
            statement.reset()
            return statement
        }
        var raw: OpaquePointer?
        let code = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &raw, nil)
        guard code == SQLITE_OK, let raw else { throw error(code) }
        let statement = SQLiteStatement(handle: raw, connection: self)
        prepared[sql] = statement
        return statement
    }

    /// `body` in one transaction: committed when it returns, rolled back when it throws.
    /// `immediate` takes the write lock at once, so that two writers wait in line instead of
    /// failing with SQLITE_BUSY halfway.
    func transaction<T>(immediate: Bool, _ body: () throws(SQLiteError) -> T) throws(SQLiteError) -> T {
        try execute(immediate ? "BEGIN IMMEDIATE" : "BEGIN")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            // A failed COMMIT may have rolled back already; the ROLLBACK's own error says nothing new.
            if sqlite3_get_autocommit(handle) == 0 { _ = sqlite3_exec(handle, "ROLLBACK", nil, nil, nil) }
            throw error
        }
    }

    func error(_ code: Int32) -> SQLiteError {
        SQLiteError(code: code & 0xFF, message: String(cString: sqlite3_errmsg(handle)))
    }
}

/// A prepared statement: bind, step through the rows, read columns.
final class SQLiteStatement {
    private let handle: OpaquePointer
    private unowned let connection: SQLiteConnection

    init(handle: OpaquePointer, connection: SQLiteConnection) {
        self.handle = handle
        self.connection = connection
    }

    func finalize() { sqlite3_finalize(handle) }

    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// Binds `values` to the parameters `?1, ?2, …` in order.
    @discardableResult
    func bind(_ values: SQLiteValue...) throws(SQLiteError) -> SQLiteStatement {
        for (index, value) in values.enumerated() {
            let position = Int32(index + 1)
            let code = switch value {
            case let .integer(number): sqlite3_bind_int64(handle, position, number)
            case let .text(text): sqlite3_bind_text(handle, position, text, -1, csqlite_transient())
            case .null: sqlite3_bind_null(handle, position)
            }
            guard code == SQLITE_OK else { throw connection.error(code) }
        }
        return self
    }

    /// The next row: true when there is one to read, false when done.
    func step() throws(SQLiteError) -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let code:
            let error = connection.error(code)
            sqlite3_reset(handle)
            throw error
        }
    }

    /// Runs a statement that returns no rows.
    func run() throws(SQLiteError) {
        while try step() {}
    }

    /// The first row read by `read`, nil when there is none; the statement is reset after it, so
    /// that it holds no read snapshot and does not keep a transaction from committing.
    func row<Row>(_ read: (SQLiteStatement) -> Row) throws(SQLiteError) -> Row? {
        defer { sqlite3_reset(handle) }
        return try step() ? read(self) : nil
    }

    /// Every row, each read by `read`.
    func rows<Row>(_ read: (SQLiteStatement) -> Row) throws(SQLiteError) -> [Row] {
        var rows: [Row] = []
        while try step() { rows.append(read(self)) }
        return rows
    }

    func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

    /// The column as text; nil for NULL.
    func text(_ column: Int32) -> String? {
        guard let bytes = sqlite3_column_text(handle, column) else { return nil }
        return String(decoding: UnsafeBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(handle, column))), as: UTF8.self)
    }
}
