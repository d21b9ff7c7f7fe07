#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Who is playing when `--player` is not given: the login name.
enum PlayerName {
    /// `$USER`, else the user database's name for this user, else `uid<N>`.
    static func login(environment: [String: String]) -> String {
        if let user = environment["USER"], !user.isEmpty { return user }
        if let entry = getpwuid(getuid()), let name = entry.pointee.pw_name, name.pointee != 0 { return String(cString: name) }
        return "uid\(getuid())"
    }
}
