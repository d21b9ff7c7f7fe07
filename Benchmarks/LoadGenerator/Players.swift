import Foundation
import Synchronization

/// The run's shared switches and counters.
final class Run: Sendable {
    let players: Int
    /// The play protocol the players speak: 1 (the whole board to everyone) or 2 (views).
    let protocolVersion: Int
    let tapsPerBatch: UInt64
    /// Taps in each of the probe's batches: more than anyone else's, so that its school leads the
    /// nation and shows in every player's view (the national top); below the judge's minute
    /// limit (25 a second).
    let probeTaps: UInt64 = 24
    /// Batches sent in [windowStart, windowEnd) are measured.
    let windowStart = Atomic<UInt64>(.max)
    let windowEnd = Atomic<UInt64>(.max)
    let stopSending = Atomic<Bool>(false)
    let welcomed = Atomic<Int>(0)
    let failed = Atomic<Int>(0)
    let batchesSent = Atomic<Int>(0)
    let batchesAcked = Atomic<Int>(0)
    /// When each of the probe's batches was sent, in order: batch k brings its school's total to
    /// (k + 1) × probeTaps (every tap is accepted, the totals start at 0).
    let probeSent = Mutex<[UInt64]>([])

    /// Every player shows the map once welcomed (`--map`).
    let showsMap: Bool

    init(players: Int, protocolVersion: Int, schoolIDs: [String], tapsPerBatch: UInt64, showsMap: Bool = false) {
        self.showsMap = showsMap
        self.players = players
        self.protocolVersion = protocolVersion
        self.schoolIDs = schoolIDs
        self.tapsPerBatch = tapsPerBatch
        probeNeedle = Array("\"\(schoolIDs[0])\"".utf8)
    }

    func inWindow(_ nanos: UInt64) -> Bool {
        nanos >= windowStart.load(ordering: .relaxed) && nanos < windowEnd.load(ordering: .relaxed)
    }

    /// The schools tapped for: player i taps for school i (one school each, as in a national event).
    let schoolIDs: [String]
    /// The probe school's id, quoted, as it appears in a board or a view.
    let probeNeedle: [UInt8]

    func schoolID(_ index: Int) -> String { schoolIDs[index] }
}

/// One simulated player: its own device key and WebSocket (`PlayerConnection`); hello, then one
/// batch a second. Player 0 is the probe: its school leads, and every other player times when
/// the probe's taps reach its screen (protocol 1: the board; protocol 2: the view's national top).
final class Player: Sendable {
    struct State {
        var sentAt: [UInt64] = []
        var acks: [UInt8] = []
        var accepted: UInt64 = 0
        var acceptedInWindow: UInt64 = 0
        var latencies: [UInt32] = []
        /// The second of the window each latency's batch was sent in.
        var latencySeconds: [UInt16] = []
        /// Probe batches seen on this player's screen so far, and the time each of those sent in
        /// the window took to show.
        var probeSeen = 0
        var seenLatencies: [UInt32] = []
        /// Bytes received in the window: each message's text plus its WebSocket frame header.
        var bytesInWindow: UInt64 = 0
        /// Of those, the views (protocol 2) or board messages (protocol 1, and the bare server's
        /// broadcasts): how many, and their bytes (text and frame header).
        var viewsInWindow: UInt64 = 0
        var viewBytesInWindow: UInt64 = 0
        /// Of those, the round's messages (`round`, `roundPlace`).
        var roundsInWindow: UInt64 = 0
        var roundBytesInWindow: UInt64 = 0
        /// Of those, the map's messages (`--map`).
        var mapsInWindow: UInt64 = 0
        var mapBytesInWindow: UInt64 = 0
        var welcomeBytes = 0
        /// The first view's text, in bytes (protocol 2: what a screen is sent right after the welcome).
        var firstViewBytes = 0
        var unexpected: [String] = []
        var welcomed = false
        var ended = false
        var failure: String?
    }
    let index: Int
    let device: String
    let state = Mutex(State())

    init(index: Int) {
        self.index = index
        // 43 base64url characters, like a real client's key.
        let digits = String(index)
        device = "loadgen-" + String(repeating: "0", count: 35 - digits.count) + digits
    }

    var isProbe: Bool { index == 0 }

    /// What a server→client frame of `payload` bytes weighs on the wire (header: 2 bytes, 4 past
    /// 125 bytes, 10 past 65,535; server frames are not masked). TCP/IP headers are not counted.
    static func frameBytes(_ payload: Int) -> UInt64 {
        UInt64(payload + (payload < 126 ? 2 : payload < 65_536 ? 4 : 10))
    }

    /// One message from the server, read at `now`: counted, and timed when it is an ack or shows
    /// the probe's school. True for the first welcome: the player starts tapping.
    func received(_ bytes: UnsafeBufferPointer<UInt8>, at now: UInt64, run: Run) -> Bool {
        let size = bytes.count
        let kind = Scan.kind(bytes)
        let inWindow = run.inWindow(now)
        if inWindow || kind == .view || kind == .board {
            state.withLock { state in
                if inWindow {
                    state.bytesInWindow += Self.frameBytes(size)
                    if kind == .view || kind == .board {
                        state.viewsInWindow += 1
                        state.viewBytesInWindow += Self.frameBytes(size)
                    }
                    if kind == .round {
                        state.roundsInWindow += 1
                        state.roundBytesInWindow += Self.frameBytes(size)
                    }
                    if kind == .map {
                        state.mapsInWindow += 1
                        state.mapBytesInWindow += Self.frameBytes(size)
                    }
                }
                if kind == .view, state.firstViewBytes == 0 { state.firstViewBytes = size }
            }
        }
        switch kind {
        case .ack:
            guard let (seq, accepted) = Scan.ack(bytes) else {
                state.withLock { $0.unexpected.append(String(decoding: bytes, as: UTF8.self)) }
                return false
            }
            if accepted != (isProbe ? run.probeTaps : run.tapsPerBatch) {
                state.withLock { if $0.unexpected.count < 4 { $0.unexpected.append("partly refused: " + String(decoding: bytes, as: UTF8.self)) } }
            }
            acknowledged(seq: seq, accepted: accepted, at: now, run: run)
        case .board, .view:
            guard !isProbe, let total = Scan.probeTotal(bytes, needle: run.probeNeedle, topOnly: kind == .view) else { return false }
            seen(probeTotal: total, at: now, run: run)
        case .welcome:
            let first = state.withLock { state -> Bool in
                defer { state.welcomed = true }
                if !state.welcomed { state.welcomeBytes = size }
                return !state.welcomed
            }
            guard first else { return false }
            run.welcomed.add(1, ordering: .relaxed)
            return true
        case .round, .map:
            break
        case .other:
            state.withLock { $0.unexpected.append(String(decoding: UnsafeBufferPointer(rebasing: bytes.prefix(200)), as: UTF8.self)) }
        }
        return false
    }

    /// The connection could not be made or failed.
    func failed(_ error: any Error) {
        state.withLock { $0.failure = "\(error)" }
    }

    /// The connection closed: a player never welcomed counts as failed.
    func ended(run: Run) {
        let welcomed = state.withLock { state in
            state.ended = true
            return state.welcomed
        }
        if !welcomed { run.failed.add(1, ordering: .relaxed) }
    }

    /// The probe's school shows `total` on this player's screen: each probe batch it covers, not
    /// seen here before, was seen now.
    private func seen(probeTotal total: UInt64, at now: UInt64, run: Run) {
        let covered = Int(total / run.probeTaps)
        let sent = run.probeSent.withLock { sent in Array(sent.prefix(covered)) }
        state.withLock { state in
            while state.probeSeen < sent.count {
                let at = sent[state.probeSeen]
                if run.inWindow(at) { state.seenLatencies.append(UInt32(clamping: (now &- at) / 1000)) }
                state.probeSeen += 1
            }
        }
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

    /// The hello, the first message on the connection.
    func hello(run: Run) -> String {
        #"{"type":"hello","protocol":\#(run.protocolVersion),"device":"\#(device)","player":"load \#(index)"}"#
    }

    /// The time between this batch and the next: a second. The probe's batches come a second
    /// apart on average but not exactly: a second is four of the servers' 250 ms intervals, and a
    /// probe on the second kept one phase to them for the whole run, so each run timed one point
    /// of the interval (the bare server's tap seen by others, p50, from 59 to 300 ms between runs
    /// of one build).
    var batchInterval: Duration { isProbe ? .milliseconds(Int.random(in: 800...1_200)) : .seconds(1) }

    /// Batch `seq` (from 1), with `tapsPerBatch` taps (the probe: `probeTaps`) spread over the
    /// second before it, its sending recorded now; `lastEnd`, the previous batch's end, is moved.
    func batch(seq: UInt64, lastEnd: inout Int64, run: Run) -> String {
        let school = run.schoolID(index)
        let taps = isProbe ? run.probeTaps : run.tapsPerBatch
        let end = max(wallMillis(), lastEnd + 1)
        let start = max(lastEnd + 1, end - 950)
        lastEnd = end
        let switched = seq == 1 ? #""switchedTo":"\#(school)","# : ""
        let text = #"{"best":\#(taps),"endMs":\#(end),"playerTaps":\#(taps),"seq":\#(seq),"startMs":\#(start),\#(switched)"taps":{"\#(school)":\#(taps)},"type":"taps"}"#
        let sent = nowNanos()
        if isProbe { run.probeSent.withLock { $0.append(sent) } }
        state.withLock { state in
            state.sentAt.append(sent)
            state.acks.append(0)
        }
        run.batchesSent.add(1, ordering: .relaxed)
        return text
    }
}

/// Reads the server's messages without a JSON decoder: the keys are sorted, so the first key
/// names the kind (`accepted`: ack, `scores`: board, `board`: welcome).
enum Scan {
    enum Kind { case ack, board, view, welcome, round, map, other }

    static func kind(_ bytes: UnsafeBufferPointer<UInt8>) -> Kind {
        if starts(bytes, #"{"accepted":"#) { return .ack }
        if starts(bytes, #"{"scores":"#) { return .board }
        if starts(bytes, #"{"above":"#) { return .view }
        // Keys sorted: a welcome starts with its battle's identity.
        if starts(bytes, #"{"battle":"#) { return .welcome }
        // `round` and `roundPlace` both start with the player's count.
        if starts(bytes, #"{"count":"#) { return .round }
        // The map's messages are written by hand, their type first.
        if starts(bytes, #"{"type":"map""#) { return .map }
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

    /// The probe school's total in a board (`{"scores":{…,"ID":N,…}`) or in a view's national top
    /// (`…"top":[…,[1,"ID",N],…]…`; `topOnly`: the view's neighbours are not the top); nil when
    /// the message does not name it.
    static func probeTotal(_ bytes: UnsafeBufferPointer<UInt8>, needle: [UInt8], topOnly: Bool) -> UInt64? {
        var from = 0
        if topOnly {
            guard let top = find(bytes, Array(#""top":["#.utf8), from: 0) else { return nil }
            from = top
        }
        guard let at = find(bytes, needle, from: from) else { return nil }
        // After the id: `:` in a board, `,` in a row.
        let after = at + needle.count
        guard after < bytes.count, bytes[after] == UInt8(ascii: ":") || bytes[after] == UInt8(ascii: ",") else { return nil }
        return number(bytes, from: after + 1)?.0
    }

    static func find(_ bytes: UnsafeBufferPointer<UInt8>, _ needle: [UInt8], from start: Int) -> Int? {
        guard !needle.isEmpty, bytes.count >= needle.count else { return nil }
        var i = start
        while i <= bytes.count - needle.count {
            if bytes[i] == needle[0] {
                var j = 1
                while j < needle.count, bytes[i + j] == needle[j] { j += 1 }
                if j == needle.count { return i }
            }
            i += 1
        }
        return nil
    }
}
