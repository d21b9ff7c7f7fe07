/// The servers the last game on a server was started with from this data directory
/// (`last-server`, one URL a line): a student who forgets `--server` is shown the command that
/// joins the class's battle again, instead of playing alone without knowing it.
public enum LastServerFile {
    static let name = "last-server"

    /// The URLs, as the game on a server was given them (none when no game joined a server from here).
    public static func read(dataDirectory: String, fileSystem: FileSystem = .live) -> [String] {
        guard let bytes = try? fileSystem.read("\(dataDirectory)/\(name)", 4096) else { return [] }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init).filter { !$0.isEmpty }
    }

    /// Remembers `servers`. Best effort: a directory that cannot be written only loses the reminder.
    public static func write(_ servers: [String], dataDirectory: String, fileSystem: FileSystem = .live) {
        guard servers != read(dataDirectory: dataDirectory, fileSystem: fileSystem) else { return }
        try? fileSystem.replaceAtomically("\(dataDirectory)/\(name)", with: Array(servers.map { $0 + "\n" }.joined().utf8))
    }
}
