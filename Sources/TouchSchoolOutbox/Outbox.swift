import Foundation
import TouchSchoolCore
import TouchSchoolProtocol
import TouchSchoolStore

/// The taps a game has made for a server and the server has not acknowledged yet, as numbered
/// batches, with the next number to give. Kept in `outbox.json` of the server's folder, written
/// durably before the game is told its taps are saved: a kill loses nothing handed over, and a
/// batch sent twice is counted once (the server applies each number once).
public struct Outbox: Codable, Equatable, Sendable {
    /// The number of the next batch; numbers are never given twice.
    public private(set) var nextSeq: UInt64
    /// Unacknowledged batches, in order of their numbers.
    public private(set) var batches: [TapBatch]

    public init(nextSeq: UInt64 = 1, batches: [TapBatch] = []) {
        self.nextSeq = nextSeq
        self.batches = batches
    }

    /// Taps waiting to reach the server.
    public var waitingTaps: UInt64 { batches.reduce(0) { $0.addingSaturating($1.totalTaps) } }

    /// Numbers `changes` as the next batch and keeps it; nil (and nothing kept) when empty.
    @discardableResult
    public mutating func append(_ changes: PendingChanges, startMs: Int64, endMs: Int64) -> TapBatch? {
        guard !changes.isEmpty else { return nil }
        let taps = changes.scoreDeltas.filter { $0.value > 0 }
        let batch = TapBatch(seq: nextSeq, taps: taps, playerTaps: changes.playerTaps, switchedToSchool: changes.switchedToSchool,
                             bestTapsPerSecond: changes.bestTapsPerSecond, startMs: min(startMs, endMs), endMs: endMs)
        nextSeq += 1
        batches.append(batch)
        return batch
    }

    /// The server acknowledged `seq`: it and every batch before it are saved there (the server
    /// applies batches in order). Returns the batch acknowledged, if still here.
    @discardableResult
    public mutating func acknowledge(_ seq: UInt64) -> TapBatch? {
        let batch = batches.first { $0.seq == seq }
        batches.removeAll { $0.seq <= seq }
        return batch
    }

    /// The outbox's numbers, as `BattleRules` speaks of them.
    public var numbering: OutboxNumbering { OutboxNumbering(nextSeq: nextSeq, waiting: batches.map(\.seq)) }

    /// The server's welcome says it applied this device's batches up to `lastSeq`: the outbox
    /// after `BattleRules.welcome` (applied batches dropped, the rest numbered after `lastSeq`).
    /// Returns whether a batch got a new number: then the outbox must be saved before any of it
    /// is sent.
    @discardableResult
    public mutating func serverApplied(upTo lastSeq: UInt64) -> Bool {
        let after = BattleRules.welcome(numbering, lastSeq: lastSeq)
        batches.removeAll { $0.seq <= lastSeq }
        let renumbered = zip(batches, after.waiting).contains { $0.seq != $1 }
        for index in batches.indices { batches[index].seq = after.waiting[index] }
        nextSeq = after.nextSeq
        return renumbered
    }

    /// Adds batches kept elsewhere for the same battle (an earlier version's outbox of another
    /// address) after these, with the next numbers.
    public mutating func appendRenumbered(_ others: [TapBatch]) {
        for var batch in others {
            batch.seq = nextSeq
            nextSeq += 1
            batches.append(batch)
        }
    }

    /// Whether every one of `others` is here already, whatever its number (an earlier merge).
    public func containsAll(_ others: [TapBatch]) -> Bool {
        others.allSatisfy { other in
            batches.contains { mine in
                var renumbered = other
                renumbered.seq = mine.seq
                return renumbered == mine
            }
        }
    }
}

/// `outbox.json`: the outbox, replaced atomically and flushed on every change.
public struct OutboxFile: Sendable {
    public let path: String
    public let fileSystem: FileSystem

    public init(path: String, fileSystem: FileSystem = .live) {
        self.path = path
        self.fileSystem = fileSystem
    }

    /// The outbox as last saved; empty when there is none yet.
    public func load() throws -> Outbox {
        guard fileSystem.exists(path) else { return Outbox() }
        let bytes = try fileSystem.read(path, 64 << 20)
        do {
            return try JSONDecoder().decode(Stored.self, from: Data(bytes)).outbox
        } catch {
            throw OutboxError(description: "\(path) cannot be read (\(error)); move it away to start a new outbox (its taps are lost)")
        }
    }

    public func save(_ outbox: Outbox) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try fileSystem.replaceAtomically(path, with: Array(try encoder.encode(Stored(outbox: outbox))))
    }

    private struct Stored: Codable {
        var format = "touchschool-outbox"
        var version = 1
        var outbox: Outbox
    }
}

public struct OutboxError: Error, CustomStringConvertible, Sendable {
    public var description: String
}
