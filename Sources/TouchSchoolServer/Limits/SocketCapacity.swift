#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How many sockets this process can hold, and how many of them one address may take. Every
/// socket is an open file: past the process's limit the server can accept nobody, and with the
/// common soft limit of 1,024 one address's 1,100 sockets used to take every descriptor (another
/// address got no `/healthz` and no player could connect).
///
/// So at start the soft limit is raised to the hard one (`raiseOpenFileLimit`), a reserve is
/// kept for the process's own files (the database and its log, the catalog, PostgreSQL's pool,
/// event loops, the SSH host key), and one address may hold at most half of the rest: the other
/// half is never given to a single address.
package struct SocketCapacity: Equatable, Sendable {
    /// Descriptors kept for the process's own files and connections, never for clients.
    static let reservedForProcess = 128

    /// Sockets all clients together may hold.
    let total: Int
    /// Sockets one address (an IPv6 /64) may hold: the configured number, at most half of `total`.
    let perAddress: Int
    /// Play connections (and board streams) one address may hold: within its sockets.
    let connectionsPerAddress: Int

    /// What `openFiles` descriptors leave for clients under `policy`.
    init(openFiles: Int, policy: AddressLimitPolicy) {
        total = max(openFiles - Self.reservedForProcess, 2)
        perAddress = min(policy.socketsPerAddress, total / 2)
        connectionsPerAddress = min(policy.connectionsPerAddress, perAddress)
    }

    /// The policy's numbers as they are, with no bound on all sockets together.
    init(unbounded policy: AddressLimitPolicy) {
        total = .max
        perAddress = policy.socketsPerAddress
        connectionsPerAddress = policy.connectionsPerAddress
    }

    /// Raises the soft limit on open files to the hard one (a service manager's or the shell's
    /// soft limit is often 1,024 while the hard one allows far more); returns the soft limit now
    /// in force.
    static func raiseOpenFileLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1_024 }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            // An unlimited hard limit (RLIM_INFINITY, all ones) is not a number the kernel takes for open files.
            raised.rlim_cur = limit.rlim_max == rlim_t.max ? 1 << 20 : limit.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limit = raised }
        }
        return limit.rlim_cur == rlim_t.max ? Int(Int32.max) : Int(limit.rlim_cur)
    }
}
