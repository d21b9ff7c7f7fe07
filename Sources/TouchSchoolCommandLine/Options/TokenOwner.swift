#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Who keeps a server's admin token from this user: a service's data directory is its own user's
/// alone (mode 0700, `admin.token` 0600), so another user sees no token there at all.
enum TokenOwner {
    /// The owner of `path`, or of the nearest folder above it that exists, when that is another
    /// user who does not let this one read it; nil when nothing of the kind bars the way.
    static func barring(_ path: String) -> String? {
        var current = path
        while !current.isEmpty {
            var info = stat()
            if stat(current, &info) == 0 {
                guard info.st_uid != geteuid(), access(current, (info.st_mode & S_IFMT) == S_IFDIR ? X_OK : R_OK) != 0,
                      errno == EACCES else { return nil }
                guard let entry = getpwuid(info.st_uid), let name = entry.pointee.pw_name else { return "uid \(info.st_uid)" }
                return String(cString: name)
            }
            guard let slash = current.lastIndex(of: "/") else { return nil }
            current = String(current[..<slash])
        }
        return nil
    }
}
