import TouchSchoolCore
import TouchSchoolCurses
import TouchSchoolStore
import TouchSchoolTerminal
import TouchSchoolView

/// A first game on a server that does not answer: instead of an error after a long wait, the
/// terminal says at once which server and why, tries again every second, and starts the game
/// as soon as the server answers. Esc, Ctrl-C or a signal leave.
struct ServerWaiting {
    static let retryNanoseconds: Int64 = 1_000_000_000

    let screen: TerminalScreen
    let language: Language

    /// The game joined once the server answers; nil when the player left first. Errors other
    /// than the server not answering end the wait.
    func wait(for first: ServerNotAnswering, join: () throws -> ServerGame) throws -> ServerGame? {
        var notAnswering = first
        var decoder = InputDecoder()
        var size = screen.size
        var lastTry = MonotonicClock.now()
        while true {
            screen.draw(connectingView(server: notAnswering.server, failure: notAnswering.failure, language: language,
                                       columns: size.columns, rows: size.rows))
            let untilNextTry = Self.retryNanoseconds - MonotonicClock.now().nanoseconds(since: lastTry)
            screen.setReadTimeout(milliseconds: max(1, Int(untilNextTry / 1_000_000)))
            if let input = screen.read() {
                switch decoder.decode(input, now: MonotonicClock.now()) {
                case .key(.escape), .key(.interrupt): return nil
                case let .resize(columns, rows): size = (columns, rows)
                default: break
                }
            }
            if ExitSignals.takeArrived() { return nil }
            guard MonotonicClock.now().nanoseconds(since: lastTry) >= Self.retryNanoseconds else { continue }
            lastTry = MonotonicClock.now()
            do {
                return try join()
            } catch let again as ServerNotAnswering {
                notAnswering = again
            }
        }
    }
}
