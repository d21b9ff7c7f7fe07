import ServiceLifecycle
import Synchronization

/// How a class is doing, for the teacher watching `serve`'s terminal: the players connected
/// now and the taps counted in the last period.
public struct ServerActivity: Equatable, Sendable {
    public var players: Int
    public var taps: UInt64

    public init(players: Int, taps: UInt64) {
        self.players = players
        self.taps = taps
    }
}

/// The two figures behind `ServerActivity`, kept beside the metrics (whose Prometheus values
/// cannot be read back): open play connections and every tap counted since the start.
final class ActivityCounts: Sendable {
    private let counts = Mutex<(players: Int, taps: UInt64)>((0, 0))

    func connected() { counts.withLock { $0.players += 1 } }
    func disconnected() { counts.withLock { $0.players -= 1 } }
    func counted(_ taps: UInt64) { counts.withLock { $0.taps &+= taps } }
    var now: (players: Int, taps: UInt64) { counts.withLock { $0 } }
}

/// Which periods are worth a line: one with taps, or with another number of players than the
/// last line said. An idle server stays quiet however long it runs.
struct ActivityLog: Sendable {
    private var lastPlayers = 0
    private var lastTotal: UInt64 = 0

    /// The period that ends with `players` connected and `total` taps counted since the start.
    mutating func periodEnded(players: Int, total: UInt64) -> ServerActivity? {
        let taps = total &- lastTotal
        lastTotal = total
        guard taps > 0 || players != lastPlayers else { return nil }
        lastPlayers = players
        return ServerActivity(players: players, taps: taps)
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
                let now = counts.now
                if let activity = log.periodEnded(players: now.players, total: now.taps) { report(activity) }
            }
        }
    }
}
