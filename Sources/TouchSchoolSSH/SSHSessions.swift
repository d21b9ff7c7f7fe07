import TouchSchoolServer
import Synchronization

/// The SSH games running, each on a thread of its own: capped (a thread and a game's state
/// each), and ended together when the server shuts down.
final class SSHSessions: Sendable {
    let maximum: Int
    private let running = Mutex<[ObjectIdentifier: SSHInbox]>([:])

    init(maximum: Int) { self.maximum = maximum }

    var count: Int { running.withLock { $0.count } }

    /// Takes a place for a game; false when the server holds `maximum` already.
    func open(_ inbox: SSHInbox) -> Bool {
        running.withLock { running in
            guard running.count < maximum else { return false }
            running[ObjectIdentifier(inbox)] = inbox
            return true
        }
    }

    func close(_ inbox: SSHInbox) {
        _ = running.withLock { $0.removeValue(forKey: ObjectIdentifier(inbox)) }
    }

    /// Asks every game to end, as if its player had pressed Ctrl-C: each hands its last taps to
    /// the battle, waits for them to be acknowledged and closes its channel.
    func endAll() {
        for inbox in running.withLock({ Array($0.values) }) { inbox.end(reason: .serverShuttingDown) }
    }
}
