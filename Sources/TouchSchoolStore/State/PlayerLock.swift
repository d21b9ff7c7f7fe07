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
            // Hex of the name's bytes: any name becomes a safe file name.
            let name = player.utf8.map { byte in
                let digits = Array("0123456789abcdef".utf8)
                return String(decoding: [digits[Int(byte >> 4)], digits[Int(byte & 15)]], as: UTF8.self)
            }.joined()
            guard let held = try fileSystem.tryLock("\(directory)/\(name).lock") else { return .taken }
            return .held(held)
        } catch {
            return .unavailable(error)
        }
    }
}
