#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing
import TouchSchoolCore
@testable import TouchSchoolOutbox
import TouchSchoolProtocol
import TouchSchoolStore
import TouchSchoolTestSupport

@Suite(.onOwnThreads) struct OutboxTests {
    func changes(_ taps: UInt64, school: String = "S1", switched: Bool = false) -> PendingChanges {
        PendingChanges(player: "p", scoreDeltas: [school: taps], playerTaps: taps, bestTapsPerSecond: 7,
                       switchedToSchool: switched ? school : nil)
    }

    @Test func batchesAreNumberedOneTwoThreeAndEmptyChangesMakeNone() {
        var outbox = Outbox()
        #expect(outbox.append(PendingChanges(player: "p"), startMs: 0, endMs: 500) == nil)
        let first = outbox.append(changes(3, switched: true), startMs: 0, endMs: 500)
        let second = outbox.append(changes(4), startMs: 500, endMs: 1000)
        #expect(first?.seq == 1)
        #expect(first?.switchedToSchool == "S1")
        #expect(first?.taps == ["S1": 3])
        #expect(second?.seq == 2)
        #expect(second?.startMs == 500 && second?.endMs == 1000)
        #expect(outbox.waitingTaps == 7)
        #expect(outbox.nextSeq == 3)
    }

    @Test func anAckRemovesItsBatchAndThoseBeforeItAndNumbersAreNeverReused() {
        var outbox = Outbox()
        for taps in 1...4 { outbox.append(changes(UInt64(taps)), startMs: 0, endMs: 1) }
        #expect(outbox.acknowledge(2)?.seq == 2)
        #expect(outbox.batches.map(\.seq) == [3, 4])
        #expect(outbox.acknowledge(2) == nil)
        outbox.acknowledge(4)
        #expect(outbox.batches.isEmpty)
        #expect(outbox.append(changes(1), startMs: 1, endMs: 2)?.seq == 5)
    }

    @Test func aWelcomeDropsWhatTheServerHasAndRenumbersWhenTheNumbersDoNotFollowOn() {
        var outbox = Outbox()
        for taps in 1...4 { outbox.append(changes(UInt64(taps)), startMs: 0, endMs: 1) }
        outbox.serverApplied(upTo: 2)
        #expect(outbox.batches.map(\.seq) == [3, 4])
        #expect(outbox.nextSeq == 5)
        // The server lost its data: it knows nothing of this device.
        outbox.serverApplied(upTo: 0)
        #expect(outbox.batches.map(\.seq) == [1, 2])
        #expect(outbox.batches.map(\.playerTaps) == [3, 4])
        #expect(outbox.nextSeq == 3)
        // This outbox was made again while the server knows the device up to 10.
        outbox.serverApplied(upTo: 10)
        #expect(outbox.batches.isEmpty)
        #expect(outbox.nextSeq == 11)
        #expect(outbox.append(changes(1), startMs: 1, endMs: 2)?.seq == 11)
    }

    @Test func theOutboxSurvivesAKillAsWritten() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let file = OutboxFile(path: "\(directory.path)/outbox.json")
        #expect(try file.load() == Outbox())
        var outbox = Outbox()
        outbox.append(changes(5, switched: true), startMs: 100, endMs: 600)
        outbox.append(changes(6), startMs: 600, endMs: 1100)
        try file.save(outbox)
        // A new process reads what the killed one wrote.
        let reopened = try OutboxFile(path: file.path).load()
        #expect(reopened == outbox)
        var acknowledged = reopened
        acknowledged.acknowledge(1)
        try file.save(acknowledged)
        let again = try OutboxFile(path: file.path).load()
        #expect(again.batches.map(\.seq) == [2])
        #expect(again.nextSeq == 3)
        // No temporary file is left beside it.
        #expect(FileIO.list(directory.path) == ["outbox.json"])
    }

    @Test func aDamagedOutboxIsAnErrorNotAnEmptyOne() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let path = "\(directory.path)/outbox.json"
        try FileSystem.live.replaceAtomically(path, with: Array("{\"outbox\": ".utf8))
        #expect(throws: OutboxError.self) { try OutboxFile(path: path).load() }
    }
}
