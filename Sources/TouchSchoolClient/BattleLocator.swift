import Foundation
import TouchSchoolCore
import TouchSchoolOutbox
import TouchSchoolProtocol
import TouchSchoolStore

/// Which battle the addresses a player gave reach, so that the game keeps its taps in that
/// battle's folder (`BattleFolder`) whatever the address.
///
/// Each address has a folder of its own, `<data dir>/servers/<host>_<port>/`, holding `battle`:
/// the battle's identity last learned there, so that a game started while the server is down
/// finds its battle. Versions before battle identities kept their outbox, board and catalog in
/// that folder; `adoptLegacy` moves them into the battle's folder once the battle is known.
public struct BattleLocator: Sendable {
    public let dataDirectory: String
    public let fileSystem: FileSystem

    public init(dataDirectory: String, fileSystem: FileSystem = .live) {
        self.dataDirectory = dataDirectory
        self.fileSystem = fileSystem
    }

    /// How long asking a server which battle it serves may take: a refused connection answers at
    /// once, an unreachable host is given up on after this and the remembered battle is used.
    public static let askTimeoutSeconds: Int64 = 3

    public func addressFolder(_ server: ServerAddress) -> String { "\(dataDirectory)/servers/\(server.directoryName)" }
    func linkPath(_ server: ServerAddress) -> String { "\(addressFolder(server))/battle" }

    /// The battle last learned at `server`, nil when none was (or the file is not one).
    public func rememberedBattle(at server: ServerAddress) -> String? {
        guard let bytes = try? fileSystem.read(linkPath(server), 1024) else { return nil }
        let text = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return BattleRules.isValidBattleID(text) ? text : nil
    }

    public func remember(_ battle: String, at server: ServerAddress) throws(FileError) {
        try fileSystem.createDirectory(addressFolder(server))
        try fileSystem.replaceAtomically(linkPath(server), with: Array("\(battle)\n".utf8))
    }

    /// What `locate` found.
    public enum Location: Equatable, Sendable {
        /// A server answered: its battle, remembered for its address.
        case answered(battle: String, by: ServerAddress)
        /// No server answered; this battle was learned at one of the addresses before.
        case remembered(battle: String, why: String)
        /// No server answered and none of the addresses was played before; `failure`: why the
        /// first could not be reached, when it could not.
        case unknown(why: String, failure: ServerFailure?)
    }

    /// Asks the servers in turn which battle they serve (`GET /v1/battle`), else takes the
    /// battle remembered for the first address that has one.
    public func locate(_ servers: [ServerAddress],
                       ask: (ServerAddress) throws(ServerRequestError) -> String = Self.ask) -> Location {
        var reasons: [String] = []
        var failure: ServerFailure?
        for server in servers {
            do throws(ServerRequestError) {
                let battle = try ask(server)
                try? remember(battle, at: server)
                return .answered(battle: battle, by: server)
            } catch {
                reasons.append(error.description)
                if reasons.count == 1 { failure = error.failure }
            }
        }
        let why = reasons.joined(separator: "; ")
        for server in servers {
            if let battle = rememberedBattle(at: server) { return .remembered(battle: battle, why: why) }
        }
        return .unknown(why: why, failure: failure)
    }

    /// `GET /v1/battle` of `server`: the battle's identity, checked.
    public static func ask(_ server: ServerAddress) throws(ServerRequestError) -> String {
        let identity = try ServerHTTP.fetchJSON(BattleIdentity.self, from: server, PlayProtocol.battlePath, absentWhen: 404,
                                                timeoutSeconds: askTimeoutSeconds)
        guard let identity else {
            throw ServerRequestError(description: "the server at \(server) does not say which battle it serves (\(PlayProtocol.battlePath)): "
                                     + "it is an older version; update it")
        }
        guard BattleRules.isValidBattleID(identity.battle) else {
            let shown = VisibleText.escaping(String(identity.battle.prefix(80)))
            throw ServerRequestError(description: "the server at \(server) names its battle \"\(shown)\", which is not a battle identity")
        }
        return identity.battle
    }

    // MARK: What versions before battle identities kept

    /// Moves the outbox, board and catalog that an earlier version kept in `server`'s address
    /// folder into `folder` (the battle now known to be at that address); the taps that waited
    /// there are sent with the battle's. Returns the taps moved.
    ///
    /// Into a battle folder without an outbox the old one moves as it is (one rename), numbers and
    /// all: the server tells by them which of its batches it applied. Into one that has an outbox,
    /// its batches are added after the battle's, numbered anew: they come from a second address
    /// of the same battle, whose numbers the earlier version gave again under the same device
    /// key. The merged outbox is saved before the old one is removed; a crash between the two is
    /// noticed at the next start (the old batches are found in the battle's outbox) and not merged
    /// twice.
    ///
    /// The caller holds `folder`'s play lock; an earlier version's game on the address holds the
    /// address folder's, and then nothing is moved (it is tried again at the next start).
    @discardableResult
    public func adoptLegacy(of server: ServerAddress, into folder: BattleFolder) throws -> UInt64 {
        let old = addressFolder(server)
        let oldOutbox = OutboxFile(path: "\(old)/outbox.json", fileSystem: fileSystem)
        let caches = ["board.json", "catalog.json", "catalog.etag"].filter { fileSystem.exists("\(old)/\($0)") }
        guard fileSystem.exists(oldOutbox.path) || !caches.isEmpty else { return 0 }
        guard let held = try fileSystem.tryLock("\(old)/play.lock") else { return 0 }
        defer { held.release() }
        try folder.create()
        var moved: UInt64 = 0
        if fileSystem.exists(oldOutbox.path) {
            let waiting = try oldOutbox.load()
            moved = waiting.waitingTaps
            if !fileSystem.exists(folder.outboxPath) {
                try fileSystem.rename(oldOutbox.path, folder.outboxPath)
            } else {
                var outbox = try folder.outbox.load()
                if !outbox.containsAll(waiting.batches) {
                    outbox.appendRenumbered(waiting.batches)
                    try folder.outbox.save(outbox)
                }
                fileSystem.remove(oldOutbox.path)
            }
        }
        // The caches: kept where the battle has none yet, else the battle's are newer.
        for name in caches {
            if fileSystem.exists("\(folder.path)/\(name)") { fileSystem.remove("\(old)/\(name)") } else {
                try fileSystem.rename("\(old)/\(name)", "\(folder.path)/\(name)")
            }
        }
        return moved
    }
}
