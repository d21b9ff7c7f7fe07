#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import TouchSchoolCore

/// `battle.id` in a server's data directory: the battle's identity, made at the first `serve` and
/// kept. Clients keep what they have for a battle (outbox, board, catalog) under this identity,
/// not under the address they typed, so two addresses of one server are one battle to them.
///
/// Kept beside `state.json`, not in it: restoring `state.json` from a backup restores the scores
/// of the same battle (the clients renumber what waits and lose nothing), while a data directory
/// made anew is a new battle.
public enum BattleIdentityFile {
    public static let fileName = "battle.id"

    public static func path(inDataDirectory directory: String) -> String { "\(directory)/\(fileName)" }

    /// The directory's battle identity, made now if there is none. Of two servers making one at
    /// once, one identity wins (written aside, then linked in place).
    public static func loadOrCreate(dataDirectory directory: String,
                                    makeID: () -> String = randomID) throws(StoreError) -> String {
        let path = path(inDataDirectory: directory)
        if let id = try load(path: path) { return id }
        let temporary = "\(path).tmp-\(getpid())"
        do { try FileIO.writeDurably(temporary, Array((makeID() + "\n").utf8)) } catch {
            FileSystem.live.remove(temporary)
            throw StoreError(message: "Cannot make the battle's identity \(path): \(error)")
        }
        defer { FileSystem.live.remove(temporary) }
        if link(temporary, path) != 0, errno != EEXIST {
            throw StoreError(message: "Cannot make the battle's identity \(path): \(String(cString: strerror(errno)))")
        }
        guard let id = try load(path: path) else { throw StoreError(message: "\(path) vanished as it was made") }
        return id
    }

    /// The identity in `path`, nil when there is none.
    public static func load(path: String) throws(StoreError) -> String? {
        guard FileIO.exists(path) else { return nil }
        let bytes: [UInt8]
        do { bytes = try FileIO.read(path, limit: 1024) } catch { throw StoreError(message: "Cannot read \(path): \(error)") }
        var text = Substring(String(decoding: bytes, as: UTF8.self))
        while let last = text.last, last == "\n" || last == "\r" || last == " " { text.removeLast() }
        guard BattleRules.isValidBattleID(text) else {
            throw StoreError(message: "\(path) does not hold a battle identity (16 to 64 characters of A–Z a–z 0–9 - _); "
                             + "restore it from a backup, or move it away to make this a new battle (players' waiting taps stay with the old one)")
        }
        return String(text)
    }

    /// 16 bytes from the system's secure random source as 32 hex digits.
    public static func randomID() -> String {
        var generator = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for _ in 0..<16 {
            let byte = UInt8.random(in: .min ... .max, using: &generator)
            text += [digits[Int(byte >> 4)], digits[Int(byte & 15)]]
        }
        return String(decoding: text, as: UTF8.self)
    }
}
