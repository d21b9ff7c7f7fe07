import Hummingbird
import NIOCore
import NIOPosix
import Synchronization
import TouchSchoolCore
import TouchSchoolProtocol

/// The standings `GET /v1/rounds/ID` answers with, placed and encoded once and shared by every
/// reader: reading the store and placing the standings per request made a read cost as much as
/// the round has players, and a flood of them from several addresses (1,200 players) moved a
/// playing device's acknowledgement from 52 to 529 ms at p99 (issue 48; BENCHMARKS.md, "Standings
/// that cost nothing to read"). The current round's come from
/// the hall's latest board (read every `BattleHall.roundPollInterval`, as the views are), a
/// settled round's from a small cache (it no longer changes but by a ban that takes taps off,
/// which empties it: `forgetSettled`). Only the time of the answer (`nowMs`) is written per request.
final class RoundAnswers: Sendable {
    /// One round's standings, their JSON encoded at most once, by the first reader's asking,
    /// on `encoder`; `nowMs` spliced in per answer.
    final class Standings: Sendable {
        /// The standings, `nowMs` 0 (each answer says its own).
        let results: RoundAnswer.Results
        private let encoded = Mutex<EventLoopFuture<ByteBuffer>?>(nil)

        init(_ results: RoundAnswer.Results) {
            var results = results
            results.nowMs = 0
            self.results = results
        }

        /// Where standings are encoded: a thread of their own, as the hall and the store have,
        /// so that a large round's (hundreds of kilobytes at 5,000 players) neither holds a
        /// thread of the shared pool the connections run on nor makes its other readers hold one
        /// while they wait.
        static let encoder = MultiThreadedEventLoopGroup(numberOfThreads: 1).next()

        /// The JSON with sorted keys starts with `nowMs`, the first of its keys in order: what
        /// follows its 0 is the same for every answer.
        private static let head = #"{"nowMs":"#

        /// The answer's JSON after `{"nowMs":0`, encoded once.
        private func tail() async throws -> ByteBuffer {
            let future = encoded.withLock { encoded in
                if let encoded { return encoded }
                let results = results
                let future = Self.encoder.submit {
                    let json = MessageCoding.encodeJSON(results)
                    precondition(json.hasPrefix(Self.head + "0,"), "RoundAnswer.Results no longer encodes nowMs first")
                    return ByteBuffer(string: String(json.dropFirst(Self.head.utf8.count + 1)))
                }
                encoded = future
                return future
            }
            return try await future.get()
        }

        /// The JSON `MessageCoding.encodeJSON` makes of the standings answered at `nowMs`, as a
        /// response's body: the shared part written as it is, not copied.
        func json(nowMs: Int64) async throws -> ResponseBody {
            ResponseBody(contentsOf: [ByteBuffer(string: Self.head + String(nowMs)), try await tail()])
        }

        /// The standings answered at `nowMs`.
        func results(nowMs: Int64) -> RoundAnswer.Results {
            var results = results
            results.nowMs = nowMs
            return results
        }

        /// The size of the encoded answer, as the cache counts it.
        func bytes() async throws -> Int { try await tail().readableBytes }
    }

    /// The settled rounds kept, least recently answered first, bounded by their count and their
    /// encoded bytes: an old round's standings are read again and again after it (a class looks at
    /// its results), a few at a time.
    struct SettledCache {
        let maximumCount: Int
        let maximumBytes: Int
        private(set) var kept: [(id: Int64, standings: Standings, size: Int)] = []
        private(set) var bytes = 0

        /// The standings of round `id` if kept, now the most recently answered.
        mutating func standings(_ id: Int64) -> Standings? {
            guard let index = kept.firstIndex(where: { $0.id == id }) else { return nil }
            let entry = kept.remove(at: index)
            kept.append(entry)
            return entry.standings
        }

        /// Keeps `standings` (`size` bytes encoded), forgetting the least recently answered beyond
        /// the bounds; one larger than `maximumBytes` alone is not kept.
        mutating func keep(_ standings: Standings, size: Int, of id: Int64) {
            guard size <= maximumBytes, maximumCount > 0 else { return }
            if let index = kept.firstIndex(where: { $0.id == id }) { bytes -= kept.remove(at: index).size }
            while !kept.isEmpty, kept.count + 1 > maximumCount || bytes + size > maximumBytes {
                bytes -= kept.removeFirst().size
            }
            kept.append((id, standings, size))
            bytes += size
        }

        mutating func removeAll() {
            kept = []
            bytes = 0
        }
    }

    private struct State {
        /// The hall's latest board's round and standings, and the board's version (nil: no board).
        var current: (version: UInt64, round: Round, standings: Standings)?
        var settled: SettledCache
    }

    private let state: Mutex<State>

    /// At most 16 settled rounds and 16 MB of their JSON (about 150,000 players' rows) by default.
    init(maximumSettled: Int = 16, maximumSettledBytes: Int = 16 << 20) {
        state = Mutex(State(settled: SettledCache(maximumCount: maximumSettled, maximumBytes: maximumSettledBytes)))
    }

    /// The hall's standings after a read of the round (nil: none); standings already published
    /// are kept with what they encoded.
    func publish(_ read: PlacedRound?, version: UInt64) {
        state.withLock { state in
            guard let read else {
                state.current = nil
                return
            }
            guard state.current?.version != version else { return }
            state.current = (version, read.round, Standings(read.results))
        }
    }

    /// The standings of round `id` shared at `nowMs` by the server's clock: the hall's placed round's
    /// while the hall reads them (`PlacedRound.readsStandings`), else the kept settled ones; nil:
    /// read them from the store.
    func standings(_ id: Int64, atMs nowMs: Int64) -> Standings? {
        state.withLock { state in
            if let current = state.current, current.round.id == id, PlacedRound.readsStandings(current.round, atMs: nowMs) {
                return current.standings
            }
            return state.settled.standings(id)
        }
    }

    /// Keeps the standings of `round` as read from the store at `nowMs` when it is settled (the
    /// hall reads it no more: `PlacedRound.readsStandings`); they are returned to answer with.
    func read(_ round: Round, _ results: RoundAnswer.Results, atMs nowMs: Int64) async throws -> Standings {
        let standings = Standings(results)
        guard !PlacedRound.readsStandings(round, atMs: nowMs) else { return standings }
        let size = try await standings.bytes()
        state.withLock { $0.settled.keep(standings, size: size, of: round.id) }
        return standings
    }

    /// A ban took taps off: every settled round's standings may have changed.
    func forgetSettled() {
        state.withLock { $0.settled.removeAll() }
    }

    /// How many settled rounds are kept, and their bytes.
    var settledKept: (count: Int, bytes: Int) {
        state.withLock { ($0.settled.kept.count, $0.settled.bytes) }
    }
}
