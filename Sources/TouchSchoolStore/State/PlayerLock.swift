/// One game per player name in a data directory: two games under one name would add their taps
/// to one record and each show the other's as its own. A lock file per name, held while the game
/// runs and released by the system when it ends, however it ends.
public enum PlayerLock {
    public enum Outcome: Sendable {
        case held(HeldLock)
        /// Another game plays under this name now.
        case taken
        /// Nothing can be written here (a read-only directory): nothing will be saved either,
        /// so two games cannot mix their records; the game plays on.
        case unavailable(FileError)
    }

    public static func claim(player: String, dataDirectory: String, fileSystem: FileSystem = .live) -> Outcome {
        let directory = "\(dataDirectory)/players"
        do {
            try fileSystem.createDirectory(directory)
            guard let held = try fileSystem.tryLock("\(directory)/\(fileName(player: player))") else { return .taken }
            return .held(held)
        } catch {
            return .unavailable(error)
        }
    }

    /// The hex of the name's bytes, so that any name is a safe file name. A file name has at most
    /// 255 bytes: a name longer than 125 bytes (42 Hangul syllables) is its first 100 bytes in hex
    /// and a 64-bit hash of all of it, else it could not be locked and two games could share it.
    static func fileName(player: String) -> String {
        let bytes = Array(player.utf8)
        guard bytes.count > 125 else { return "\(hex(bytes)).lock" }
        // FNV-1a: stable across runs and builds, unlike `Hasher`.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        let hashBytes = (0..<8).map { UInt8(truncatingIfNeeded: hash >> (56 - 8 * $0)) }
        return "\(hex(bytes.prefix(100)))-\(hex(hashBytes)).lock"
    }

    private static func hex(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for byte in bytes { text += [digits[Int(byte >> 4)], digits[Int(byte & 15)]] }
        return String(decoding: text, as: UTF8.self)
    }
}
