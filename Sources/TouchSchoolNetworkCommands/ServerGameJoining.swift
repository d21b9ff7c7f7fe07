import TouchSchoolClient
import TouchSchoolCommandLine
import TouchSchoolCore
import TouchSchoolOutbox
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
            throw CommandError(NetworkCommandText.cannotReachServer(why, waitingIn: waiting ? locator.addressFolder(address) : nil))
        }
        // For the game started here without --server (`LastServerFile`).
        LastServerFile.write(addresses.map(\.httpBase), dataDirectory: directory)
        let folder = BattleFolder(dataDirectory: directory, battle: battleID, servers: addresses)
        do { try folder.create() } catch { throw CommandError(NetworkCommandText.cannotCreate(folder.path, "\(error)")) }
        // One game per data directory and battle, whatever address it was reached by: two would
        // number their batches over each other under the one device key.
        let lock: HeldLock
        do {
            guard let held = try FileSystem.live.tryLock(folder.lockPath) else {
                throw CommandError(NetworkCommandText.alreadyPlayingThisBattle(from: directory, at: "\(address)"))
            }
            lock = held
        } catch let error as CommandError {
            throw error
        } catch {
            throw CommandError(NetworkCommandText.cannotLock(folder.lockPath, "\(error)"))
        }

        let catalog: Catalog, etag: String?, outbox: Outbox
        do {
            // What an earlier version kept per address moves in, for every address known to
            // reach this battle.
            for server in addresses where locator.rememberedBattle(at: server) == battleID {
                do { try locator.adoptLegacy(of: server, into: folder) } catch {
                    throw CommandError(NetworkCommandText.cannotMoveKeptTaps(from: locator.addressFolder(server), into: folder.path, "\(error)"))
                }
            }
            do {
                (catalog, etag) = try folder.catalogForStart()
            } catch {
                throw CommandError(NetworkCommandText.cannotGetCatalog("\(error)"))
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
                NetworkCommandText.tapsWaiting(waiting, for: "\(address)", keptIn: folder.path)
            },
            notices: notices, leave: { lock.release() })
    }
}
