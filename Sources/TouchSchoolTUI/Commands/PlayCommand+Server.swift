import Foundation
import TouchSchoolClient
import TouchSchoolCore
import TouchSchoolStore

/// `touchschool play --server URL`: the same game, on a server's battle. The data directory's
/// own scores are not touched: what is kept for the server (its catalog, the last board seen,
/// the outbox of taps not yet acknowledged) lives in `servers/<host>_<port>/`.
extension PlayCommand {
    /// How long a first game on a server waits for the server's board before it starts, and a
    /// later one (which has the board last seen).
    static let firstWelcomeNanoseconds: Int64 = 3_000_000_000
    static let welcomeNanoseconds: Int64 = 1_000_000_000

    func playOnServer(_ address: ServerAddress, alternates: [ServerAddress], directory: String, playerName: String, language: Language,
                      environment: [String: String]) throws {
        var notices: [Notice] = []
        do {
            try DataDirectory.prepare(directory)
        } catch {
            notices.append(.message(error.message))
        }
        let device: String
        do { device = try DeviceKey.loadOrCreate(dataDirectory: directory) } catch { throw CommandError("\(error)") }
        let folder = ServerFolder(dataDirectory: directory, server: address, alternates: alternates)
        do { try folder.create() } catch { throw CommandError("cannot create \(folder.path): \(error)") }
        // One game per data directory and server: two would number their batches over each other.
        let lock: HeldLock
        do {
            guard let held = try FileSystem.live.tryLock(folder.lockPath) else {
                throw CommandError("a game from \(directory) is already playing on \(address); one at a time per data directory "
                                   + "(another player plays with their own --data-dir)")
            }
            lock = held
        } catch let error as CommandError {
            throw error
        } catch {
            throw CommandError("cannot lock \(folder.lockPath): \(error)")
        }
        defer { lock.release() }

        let catalog: Catalog, etag: String?
        do {
            (catalog, etag) = try folder.catalogForStart()
        } catch {
            throw CommandError("cannot get the school catalog from the server: \(error). Is `touchschool serve` running there? "
                               + "(Once a game has joined a server, it also starts while the server is down.)")
        }
        let startingSchool = try startingPosition(in: catalog)
        let outbox: Outbox
        do { outbox = try folder.outbox.load() } catch { throw CommandError("\(error)") }
        let cachedBoard = folder.cachedBoard()
        let battle = NetworkBattle(folder: folder, device: device, player: playerName, catalog: catalog, catalogETag: etag,
                                   board: cachedBoard ?? BoardMirror(), outbox: outbox)
        battle.start()
        // The server's word on the board and the player, when it answers at once; a server that
        // refuses the connection starts the game offline without waiting.
        _ = battle.waitUntilOnline(timeoutNanoseconds: cachedBoard == nil ? Self.firstWelcomeNanoseconds : Self.welcomeNanoseconds)

        ExitSignals.install()
        let screen = try TerminalScreen(
            colors: (environment["NO_COLOR"] ?? "").isEmpty, mouse: !noMouse, environment: environment
        )
        defer { screen.restore() }
        let size = screen.size
        var state = GameState(
            catalog: catalog, saved: battle.startingState, player: playerName,
            language: language, now: MonotonicClock.now(), columns: size.columns, rows: size.rows,
            seed: UInt64(truncatingIfNeeded: MonotonicClock.now().nanoseconds), bellEnabled: !quiet,
            notices: notices, startingSchool: startingSchool
        )
        state.connection = .connecting(waitingTaps: battle.waitingTaps)
        var runner = GameRunner(screen: screen, battle: battle, state: state)
        runner.run()
        screen.restore()
        let unsaved = runner.state.unsavedChanges
        if !unsaved.isEmpty {
            let reason = runner.lastSaveFinished ? runner.state.saveFailure ?? "unknown" : "the last save did not finish in time"
            throw CommandError("\(unsaved.playerTaps) taps could not be saved: \(reason)")
        }
        let waiting = battle.waitingTaps
        if waiting > 0 {
            StandardStreams.writeError("touchschool: \(waiting) taps are waiting for the server at \(address); they are kept "
                                       + "in \(folder.path) and sent the next time you play on it.\n")
        }
    }
}
