import Foundation
import TouchSchoolTestSupport

/// Runs the `sqlite3` shell (Debian's sqlite3) on `database` with one command, as an operator does.
func sqlite3(_ database: String, _ command: String) throws {
    _ = try sqlite3Output(database, command)
}

/// What the `sqlite3` shell prints for `command` on `database` (`|` between columns).
func sqlite3Output(_ database: String, _ command: String) throws -> String {
    let result = Subprocess.run("/usr/bin/sqlite3", [database, command])
    guard result.status == 0 else { throw HarnessError("sqlite3 \(database) \(command): \(result.error)") }
    return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
}
