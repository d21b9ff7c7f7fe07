import TouchSchoolClient
import TouchSchoolCommandLine
import TouchSchoolCore
import TouchSchoolStore

/// `touchschool play --server URL`: what is kept for the battle the server serves (its catalog,
/// the last board seen, the outbox of taps not yet acknowledged) lives in `battles/<battle id>/`
/// of the data directory, whatever address reaches it (`BattleFolder`, `BattleLocator`); the data
/// directory's own scores are not touched.
enum ServerGameJoining {
    /// How long a first game on a server waits for the server's board before it starts, and a
    /// later one (which has the board last seen).
    static let firstWelcomeNanoseconds: Int64 = 3_000_000_000
    static let welcomeNanoseconds: Int64 = 1_000_000_000

    static func join(_ servers: ServerURLs, dataDirectory directory: String, player: String) throws -> ServerGame {
        let (address, alternates) = try ServerURLReading.addresses(servers)
        var notices: [Notice] = []
        do {
            try DataDirectory.prepare(directory)
        } catch {
            notices.append(.message(error.message))
        }
        let device: String
        do { device = try DeviceKey.loadOrCreate(dataDirectory: directory) } catch { throw CommandError("\(error)") }
        let addresses = [address] + alternates
        let locator = BattleLocator(dataDirectory: directory)
        let battleID: String
        switch locator.locate(addresses) {
        case let .answered(battle, _), let .remembered(battle, _):
            battleID = battle
        case let .unknown(_, failure?):
            throw ServerNotAnswering(server: address.httpBase, failure: failure)
        case let .unknown(why, nil):
            let waiting = addresses.contains { FileIO.exists("\(locator.addressFolder($0))/outbox.json") }
            throw CommandError("cannot reach the server: \(why). Is `touchschool serve` running there? "
                               + (waiting ? "Taps an earlier version kept for it wait in \(locator.addressFolder(address)) and are sent once it answers."
                                          : "(Once a game has joined a server, it also starts while the server is down.)"))
        }
        // For the game started here without --server (`LastServerFile`).
        LastServerFile.write(addresses.map(\.httpBase), dataDirectory: directory)
        let folder = BattleFolder(dataDirectory: directory, battle: battleID, servers: addresses)
        do { try folder.create() } catch { throw CommandError("cannot create \(folder.path): \(error)") }
        // One game per data directory and battle, whatever address it was reached by: two would
        // number their batches over each other under the one device key.
        let lock: HeldLock
        do {
            guard let held = try FileSystem.live.tryLock(folder.lockPath) else {
                throw CommandError("a game from \(directory) is already playing this battle (at \(address) or another address of it); "
                                   + "one at a time per data directory (another player plays with their own --data-dir)")
            }
            lock = held
        } catch let error as CommandError {
            throw error
        } catch {
            throw CommandError("cannot lock \(folder.lockPath): \(error)")
        }

        let catalog: Catalog, etag: String?, outbox: Outbox
        do {
            // What an earlier version kept per address moves in, for every address known to
            // reach this battle.
            for server in addresses where locator.rememberedBattle(at: server) == battleID {
                do { try locator.adoptLegacy(of: server, into: folder) } catch {
                    throw CommandError("cannot move the taps kept in \(locator.addressFolder(server)) into \(folder.path): \(error)")
                }
            }
            do {
                (catalog, etag) = try folder.catalogForStart()
            } catch {
                throw CommandError("cannot get the school catalog from the server: \(error). Is `touchschool serve` running there? "
                                   + "(Once a game has joined a server, it also starts while the server is down.)")
            }
            do { outbox = try folder.outbox.load() } catch { throw CommandError("\(error)") }
        } catch {
            lock.release()
            throw error
        }
        let cachedBoard = folder.cachedBoard()
        let battle = NetworkBattle(folder: folder, device: device, player: player, catalog: catalog, catalogETag: etag,
                                   board: cachedBoard ?? BoardMirror(), outbox: outbox)
        return ServerGame(
            catalog: catalog, server: address.hostAndPort, battle: battle,
            connect: {
                battle.start()
                // The server's word on the board and the player, when it answers at once; a server
                // that refuses the connection starts the game offline without waiting.
                _ = battle.waitUntilOnline(timeoutNanoseconds: cachedBoard == nil ? firstWelcomeNanoseconds : welcomeNanoseconds)
                return battle.startingState
            },
            waitingTaps: { battle.waitingTaps },
            waitingTapsNotice: { waiting in
                "\(waiting) taps are waiting for the server at \(address); they are kept in \(folder.path) and sent the next time you play on it."
            },
            notices: notices, leave: { lock.release() })
    }
}
