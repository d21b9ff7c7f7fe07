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
/// cannot be read back): the players connected (over the play socket or SSH), every tap counted
/// since the start, and the longest save since the period began.
package final class ActivityCounts: Sendable {
    private let counts = Mutex<(players: Int, taps: UInt64, slowestSave: Duration)>((0, 0, .zero))

    package func connected() { counts.withLock { $0.players += 1 } }
    package func disconnected() { counts.withLock { $0.players -= 1 } }
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

/// Devices that sent a TLS handshake (a student typed `https://`) to this plain-HTTP port: each
/// address told to the teacher once per `quietFor`, not once a second as its browser retries, so
/// that the teacher's terminal says what happened and stays readable.
final class HTTPSAttempts: Sendable {
    /// How long an address stays untold after it was told.
    static let quietFor: Duration = .seconds(600)
    /// The addresses remembered at most: beyond it, those told longest ago are forgotten first.
    static let remembered = 1_024

    private let told = Mutex<[String: ContinuousClock.Instant]>([:])
    private let report: @Sendable (String) -> Void
    private let now: @Sendable () -> ContinuousClock.Instant

    init(report: @escaping @Sendable (String) -> Void, now: @escaping @Sendable () -> ContinuousClock.Instant) {
        self.report = report
        self.now = now
    }

    /// A handshake from `address`: told unless it was within `quietFor`.
    func tried(from address: String) {
        let at = now()
        let tell = told.withLock { told -> Bool in
            if let last = told[address], at < last + Self.quietFor { return false }
            if told.count >= Self.remembered {
                told = told.filter { at < $0.value + Self.quietFor }
                if told.count >= Self.remembered, let oldest = told.min(by: { $0.value < $1.value }) { told[oldest.key] = nil }
            }
            told[address] = at
            return true
        }
        if tell { report(address) }
    }
}
