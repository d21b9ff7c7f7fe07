#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the game keeps its files.
public enum DataDirectory {
    /// `--data-dir`, else `$TOUCHSCHOOL_HOME`, else `$XDG_DATA_HOME/touchschool`, else
    /// `~/.local/share/touchschool`.
    ///
    /// Empty values count as unset. A relative `$XDG_DATA_HOME` is ignored, as the XDG base
    /// directory specification asks. Without `$HOME`, the home directory comes from the user database.
    public static func resolve(explicit: String?, environment: [String: String]) -> String {
        func value(_ text: String?) -> String? { text.flatMap { $0.isEmpty ? nil : $0 } }
        if let explicit = value(explicit) { return explicit }
        if let home = value(environment["TOUCHSCHOOL_HOME"]) { return home }
        if let dataHome = value(environment["XDG_DATA_HOME"]), dataHome.hasPrefix("/") { return "\(dataHome)/touchschool" }
        let home = value(environment["HOME"]) ?? userDatabaseHome() ?? "."
        return "\(home)/.local/share/touchschool"
    }

    /// Creates the directory (and its parents) on first use.
    public static func prepare(_ directory: String) throws(StoreError) {
        do {
            try FileIO.createDirectory(directory)
        } catch {
            throw StoreError(message: "Cannot create the data directory \(directory): \(error)")
        }
        var info = stat()
        guard stat(directory, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            throw StoreError(message: "Cannot use \(directory) as the data directory: it is not a directory")
        }
    }

    /// The login name: `$USER`, else the user database's name for this user. Players sharing a
    /// data directory are told apart by it.
    public static func defaultPlayerName(environment: [String: String]) -> String {
        if let user = environment["USER"], !user.isEmpty { return user }
        if let entry = getpwuid(getuid()), let name = entry.pointee.pw_name, name.pointee != 0 { return String(cString: name) }
        return "uid\(getuid())"
    }

    private static func userDatabaseHome() -> String? {
        guard let entry = getpwuid(getuid()), let directory = entry.pointee.pw_dir else { return nil }
        let home = String(cString: directory)
        return home.isEmpty ? nil : home
    }
}
