import Foundation
import HummingbirdWSClient
import Logging
import Synchronization

/// The run's shared switches and counters.
final class Run: Sendable {
    let players: Int
    let schools: Int
    let observers: Int
    let tapsPerBatch: UInt64
    /// Batches sent in [windowStart, windowEnd) are measured.
    let windowStart = Atomic<UInt64>(.max)
    let windowEnd = Atomic<UInt64>(.max)
    let stopSending = Atomic<Bool>(false)
    let welcomed = Atomic<Int>(0)
    let failed = Atomic<Int>(0)
    let batchesSent = Atomic<Int>(0)
    let batchesAcked = Atomic<Int>(0)
    let trackers: [SchoolTracker]

    init(players: Int, schoolIDs: [String], observers: Int, tapsPerBatch: UInt64) {
        self.players = players
        self.schoolIDs = schoolIDs
        let schools = schoolIDs.count
        let numbers = schoolIDs.map { Int($0.dropFirst()) ?? -1 }
        var schoolOfNumber = [Int](repeating: -1, count: (numbers.max() ?? 0) + 1)
        for (index, number) in numbers.enumerated() where number >= 0 { schoolOfNumber[number] = index }
        self.schoolOfNumber = schoolOfNumber
        self.schools = schools
        self.observers = observers
        self.tapsPerBatch = tapsPerBatch
        trackers = (0..<schools).map { _ in SchoolTracker() }
    }

    func inWindow(_ nanos: UInt64) -> Bool {
        nanos >= windowStart.load(ordering: .relaxed) && nanos < windowEnd.load(ordering: .relaxed)
    }

    /// The schools tapped for: the first `schools` ids of the catalog (the starter catalog's are
    /// `S` and four digits, with gaps).
    let schoolIDs: [String]
    /// School index by the number in its id (`S0042` → 42), -1 for none.
    let schoolOfNumber: [Int]

    func schoolID(_ index: Int) -> String { schoolIDs[index] }

    func school(number: UInt64) -> Int? {
        guard number < UInt64(schoolOfNumber.count) else { return nil }
        let index = schoolOfNumber[Int(number)]
        return index >= 0 ? index : nil
    }

    /// Player `index` taps for school `index % schools`; the observer of group `k` is player
    /// `k + 1` (its own school is in group `k + 1`), watching the schools `s % observers == k`.
    func observedGroup(ofPlayer index: Int) -> Int? {
        guard observers >= 2, index >= 1, index <= observers else { return nil }
        return index - 1
    }
}

/// The taps sent for one school, in order, until a board shows a total at or beyond them: the
/// time from a batch's send to the first board message (to another player) whose total for the
/// school covers every tap sent for it up to and including that batch. Every tap is accepted
/// (10 a second is far below the judge's limit) and the totals start at 0, so the total reaching
/// the cumulative count means the batch is in it, give or take batches overtaking each other
/// on their way to the save.
final class SchoolTracker: Sendable {
    private struct State {
        var cumulative: UInt64 = 0
        var pending: [(sent: UInt64, cumulative: UInt64)] = []
        var head = 0
        var latencies: [UInt32] = []
    }
    private let state = Mutex(State())

    /// Called just before a batch for this school is written.
    func sent(taps: UInt64) -> UInt64 {
        state.withLock { state in
            let now = nowNanos()
            state.cumulative += taps
            state.pending.append((now, state.cumulative))
            return now
        }
    }

    func seen(total: UInt64, at now: UInt64, run: Run) {
        state.withLock { state in
            while state.head < state.pending.count, state.pending[state.head].cumulative <= total {
                let sent = state.pending[state.head].sent
                if run.inWindow(sent) { state.latencies.append(UInt32(clamping: (now - sent) / 1000)) }
                state.head += 1
            }
            if state.head > 4_096 {
                state.pending.removeFirst(state.head)
                state.head = 0
            }
        }
    }

    /// Latencies (µs) and the measured batches never seen in a board.
    func results(run: Run) -> (latencies: [UInt32], unseen: Int) {
        state.withLock { state in
            (state.latencies, state.pending[state.head...].filter { run.inWindow($0.sent) }.count)
        }
    }
}

/// One simulated player: its own device key and WebSocket; hello, then one batch a second.
final class Player: Sendable {
    struct State {
        var sentAt: [UInt64] = []
        var acks: [UInt8] = []
        var accepted: UInt64 = 0
        var acceptedInWindow: UInt64 = 0
        var latencies: [UInt32] = []
        /// The second of the window each latency's batch was sent in.
        var latencySeconds: [UInt16] = []
        var unexpected: [String] = []
        var welcomed = false
        var ended = false
        var failure: String?
    }
    let index: Int
    let school: Int
    let device: String
    let state = Mutex(State())

    init(index: Int, schools: Int) {
        self.index = index
        school = index % schools
        // 43 base64url characters, like a real client's key.
        let digits = String(index)
        device = "loadgen-" + String(repeating: "0", count: 35 - digits.count) + digits
    }

    func play(port: Int, run: Run, logger: Logger) async {
        let url = "ws://127.0.0.1:\(port)/v1/play"
        let group = run.observedGroup(ofPlayer: index)
        do {
            _ = try await WebSocketClient.connect(url: url, configuration: .init(maxFrameSize: 1 << 22), logger: logger) { inbound, outbound, _ in
                try await outbound.write(.text(#"{"type":"hello","protocol":1,"device":"\#(self.device)","player":"load \#(self.index)"}"#))
                try await withThrowingTaskGroup(of: Void.self) { tasks in
                    for try await message in inbound.messages(maxSize: 1 << 22) {
                        guard case let .text(received) = message else { continue }
                        let now = nowNanos()
                        var text = received
                        let kind = text.withUTF8 { Scan.kind($0) }
                        switch kind {
                        case .ack:
                            guard let (seq, accepted) = text.withUTF8({ Scan.ack($0) }) else {
                                self.state.withLock { $0.unexpected.append(text) }
                                continue
                            }
                            if accepted != run.tapsPerBatch {
                                self.state.withLock { if $0.unexpected.count < 4 { $0.unexpected.append("partly refused: " + text) } }
                            }
                            self.acknowledged(seq: seq, accepted: accepted, at: now, run: run)
                        case .board:
                            guard let group else { continue }
                            text.withUTF8 { Scan.board($0) { number, total in
                                if let school = run.school(number: number), school % run.observers == group {
                                    run.trackers[school].seen(total: total, at: now, run: run)
                                }
                            } }
                        case .welcome:
                            let first = self.state.withLock { state -> Bool in
                                defer { state.welcomed = true }
                                return !state.welcomed
                            }
                            guard first else { continue }
                            run.welcomed.add(1, ordering: .relaxed)
                            tasks.addTask { try await self.tap(outbound, run: run) }
                        case .other:
                            self.state.withLock { $0.unexpected.append(String(text.prefix(200))) }
                        }
                    }
                    tasks.cancelAll()
                }
            }
        } catch {
            state.withLock { $0.failure = "\(error)" }
        }
        let welcomed = state.withLock { state in
            state.ended = true
            return state.welcomed
        }
        if !welcomed { run.failed.add(1, ordering: .relaxed) }
    }

    private func acknowledged(seq: UInt64, accepted: UInt64, at now: UInt64, run: Run) {
        let first = state.withLock { state -> Bool in
            let position = Int(seq) - 1
            guard position >= 0, position < state.acks.count else {
                state.unexpected.append("ack of batch \(seq), never sent")
                return false
            }
            state.acks[position] &+= 1
            guard state.acks[position] == 1 else { return false }
            state.accepted += accepted
            let sent = state.sentAt[position]
            if run.inWindow(sent) {
                state.acceptedInWindow += accepted
                state.latencies.append(UInt32(clamping: (now - sent) / 1000))
                state.latencySeconds.append(UInt16(clamping: (sent - run.windowStart.load(ordering: .relaxed)) / 1_000_000_000))
            }
            return true
        }
        if first { run.batchesAcked.add(1, ordering: .relaxed) }
    }

    /// One batch a second, each with `tapsPerBatch` taps spread over the second before it.
    private func tap(_ outbound: WebSocketOutboundWriter, run: Run) async throws {
        let clock = ContinuousClock()
        // A random phase, so that the players' seconds do not line up.
        var next = clock.now + .milliseconds(Int.random(in: 0..<1000))
        let school = run.schoolID(self.school)
        var seq: UInt64 = 0
        var lastEnd = wallMillis() - 1000
        while !run.stopSending.load(ordering: .relaxed) {
            try await Task.sleep(until: next, clock: clock)
            next += .seconds(1)
            guard !run.stopSending.load(ordering: .relaxed) else { break }
            seq += 1
            let end = max(wallMillis(), lastEnd + 1)
            let start = max(lastEnd + 1, end - 950)
            lastEnd = end
            let switched = seq == 1 ? #""switchedTo":"\#(school)","# : ""
            let text = #"{"best":\#(run.tapsPerBatch),"endMs":\#(end),"playerTaps":\#(run.tapsPerBatch),"seq":\#(seq),"startMs":\#(start),\#(switched)"taps":{"\#(school)":\#(run.tapsPerBatch)},"type":"taps"}"#
            let sent = run.trackers[self.school].sent(taps: run.tapsPerBatch)
            state.withLock { state in
                state.sentAt.append(sent)
                state.acks.append(0)
            }
            run.batchesSent.add(1, ordering: .relaxed)
            try await outbound.write(.text(text))
        }
    }
}

/// Reads the server's messages without a JSON decoder: the keys are sorted, so the first key
/// names the kind (`accepted`: ack, `scores`: board, `board`: welcome).
enum Scan {
    enum Kind { case ack, board, welcome, other }

    static func kind(_ bytes: UnsafeBufferPointer<UInt8>) -> Kind {
        if starts(bytes, #"{"accepted":"#) { return .ack }
        if starts(bytes, #"{"scores":"#) { return .board }
        // Keys sorted: a welcome starts with its battle's identity.
        if starts(bytes, #"{"battle":"#) { return .welcome }
        return .other
    }

    static func starts(_ bytes: UnsafeBufferPointer<UInt8>, _ prefix: StaticString) -> Bool {
        guard bytes.count >= prefix.utf8CodeUnitCount else { return false }
        let p = prefix.utf8Start
        for i in 0..<prefix.utf8CodeUnitCount where bytes[i] != p[i] { return false }
        return true
    }

    static func number(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> (UInt64, Int)? {
        var i = start
        var value: UInt64 = 0
        while i < bytes.count, bytes[i] >= 48, bytes[i] <= 57 {
            value = value * 10 + UInt64(bytes[i] - 48)
            i += 1
        }
        return i > start ? (value, i) : nil
    }

    /// `{"accepted":A,"player":{…},"refused":R,"seq":S,"type":"ack"}` → (S, A).
    static func ack(_ bytes: UnsafeBufferPointer<UInt8>) -> (seq: UInt64, accepted: UInt64)? {
        guard let (accepted, _) = number(bytes, from: 12) else { return nil }
        // `"seq":` is the second last key.
        let key: [UInt8] = Array(#""seq":"#.utf8)
        var i = bytes.count - key.count
        while i > 0 {
            if bytes[i] == key[0], (0..<key.count).allSatisfy({ bytes[i + $0] == key[$0] }) {
                guard let (seq, _) = number(bytes, from: i + key.count) else { return nil }
                return (seq, accepted)
            }
            i -= 1
        }
        return nil
    }

    /// `{"scores":{"S0001":12,…},…}`: calls `each(number, total)` for the ids `S<number>`.
    static func board(_ bytes: UnsafeBufferPointer<UInt8>, _ each: (UInt64, UInt64) -> Void) {
        var i = 11
        guard bytes.count > i, bytes[i - 1] == UInt8(ascii: "{") else { return }
        while i < bytes.count, bytes[i] == UInt8(ascii: "\"") {
            i += 1
            var school: UInt64?
            if i < bytes.count, bytes[i] == UInt8(ascii: "S"), let (n, end) = number(bytes, from: i + 1), end < bytes.count,
               bytes[end] == UInt8(ascii: "\"") {
                school = n
                i = end
            }
            while i < bytes.count, bytes[i] != UInt8(ascii: "\"") { i += 1 }
            i += 2  // `":`
            guard let (total, end) = number(bytes, from: i) else { return }
            if let school { each(school, total) }
            i = end
            guard i < bytes.count, bytes[i] == UInt8(ascii: ",") else { return }
            i += 1
        }
    }
}
