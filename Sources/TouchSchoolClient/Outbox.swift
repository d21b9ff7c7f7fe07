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
        let batch = TapBatch(seq: nextSeq, taps: taps, playerTaps: changes.playerTaps, switchedTo: changes.switchedToSchool,
                             best: changes.bestTapsPerSecond, startMs: min(startMs, endMs), endMs: endMs)
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

    /// The server says it applied this device's batches up to `lastSeq` (its welcome): those are
    /// dropped, the rest are to be sent. When the numbers do not follow on from the server's (the
    /// server lost its data, or this folder was removed and made again) the waiting batches are
    /// numbered after `lastSeq`, so that the server neither refuses nor skips them.
    public mutating func serverApplied(upTo lastSeq: UInt64) {
        batches.removeAll { $0.seq <= lastSeq }
        let followsOn = nextSeq > lastSeq && (batches.first.map { $0.seq == lastSeq + 1 } ?? true)
        guard !followsOn else { return }
        for index in batches.indices { batches[index].seq = lastSeq + 1 + UInt64(index) }
        nextSeq = lastSeq + 1 + UInt64(batches.count)
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
