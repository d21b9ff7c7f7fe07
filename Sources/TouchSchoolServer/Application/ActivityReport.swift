import ServiceLifecycle
import Synchronization

/// How a class is doing, for the teacher watching `serve`'s terminal: the players connected
/// now and the taps counted in the last period, and a save that made taps wait.
public struct ServerActivity: Equatable, Sendable {
    public var players: Int
    public var taps: UInt64
    /// The period's longest save when it took `ActivityLog.slowSave` or more: every tap of its
    /// window waited that long to be acknowledged (a disk slow to sync, a PostgreSQL overloaded).
    public var slowestSave: Duration?

    public init(players: Int, taps: UInt64, slowestSave: Duration? = nil) {
        self.players = players
        self.taps = taps
        self.slowestSave = slowestSave
    }
}

/// The figures behind `ServerActivity`, kept beside the metrics (whose Prometheus values
/// cannot be read back): open play connections, every tap counted since the start, and the
/// longest save since the period began.
final class ActivityCounts: Sendable {
    private let counts = Mutex<(players: Int, taps: UInt64, slowestSave: Duration)>((0, 0, .zero))

    func connected() { counts.withLock { $0.players += 1 } }
    func disconnected() { counts.withLock { $0.players -= 1 } }
    func counted(_ taps: UInt64) { counts.withLock { $0.taps &+= taps } }
    func saved(took duration: Duration) { counts.withLock { $0.slowestSave = max($0.slowestSave, duration) } }

    /// The players connected now, the taps counted since the start, and the longest save since
    /// the last call (a new period begins).
    func endPeriod() -> (players: Int, taps: UInt64, slowestSave: Duration) {
        counts.withLock { counts in
            defer { counts.slowestSave = .zero }
            return counts
        }
    }
}

/// Which periods are worth a line: one with taps, with another number of players than the last
/// line said, or with a slow save. An idle server stays quiet however long it runs.
struct ActivityLog: Sendable {
    /// A save this long is worth telling the teacher: taps waited a second to be acknowledged.
    /// Shorter ones show in `/metrics` (`touchschool_commit_seconds`) for an operator.
    static let slowSave: Duration = .seconds(1)

    private var lastPlayers = 0
    private var lastTotal: UInt64 = 0

    /// The period that ends with `players` connected, `total` taps counted since the start, and
    /// its longest save.
    mutating func periodEnded(players: Int, total: UInt64, slowestSave: Duration = .zero) -> ServerActivity? {
        let taps = total &- lastTotal
        lastTotal = total
        let slow = slowestSave >= Self.slowSave ? slowestSave : nil
        guard taps > 0 || players != lastPlayers || slow != nil else { return nil }
        lastPlayers = players
        return ServerActivity(players: players, taps: taps, slowestSave: slow)
    }
}

/// Every `interval`, the period's activity to `report` when it is worth a line; ends with the
/// server's graceful shutdown.
struct ActivityReporter: Service {
    let counts: ActivityCounts
    let interval: Duration
    let report: @Sendable (ServerActivity) -> Void

    func run() async throws {
        await cancelWhenGracefulShutdown {
            var log = ActivityLog()
            while (try? await Task.sleep(for: interval)) != nil {
                let period = counts.endPeriod()
                if let activity = log.periodEnded(players: period.players, total: period.taps, slowestSave: period.slowestSave) {
                    report(activity)
                }
            }
        }
    }
}
