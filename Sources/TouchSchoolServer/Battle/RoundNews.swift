import TouchSchoolCore
import TouchSchoolProtocol

/// The latest round as the hall last read it and what of it is still to be told: to each player
/// the round when it is new to them (with their place), then their place when it changed: at the
/// next tick when their own count changed, else at most every `RoundMessage.placeIntervalMs` (at
/// once when final); to each page stream the round's
/// event when it changed. Also the server's clock as of the last read: a round's times are the
/// server's clock, the hall's instants are not.
struct RoundNews: Sendable {
    typealias Instant = ContinuousClock.Instant

    /// The latest round as last read, its standings placed; a version per change.
    private(set) var placed: PlacedRound?
    private(set) var version: UInt64 = 0
    /// A read is under way (one at a time).
    private(set) var reading = false
    /// Some player or stream has news not yet sent, held back until `heldUntil` (nil: at the
    /// next tick).
    private(set) var due = false
    private(set) var heldUntil: Instant?
    /// The server's clock at an instant of the hall's.
    private var wallClock: (instant: Instant, ms: Int64)?

    /// The server's clock at `now`, from the last read (nil before the first); nil `now`: at the read.
    func wallMs(_ now: Instant?) -> Int64? {
        guard let wallClock else { return nil }
        guard let now else { return wallClock.ms }
        let elapsed = (now - wallClock.instant).components
        return wallClock.ms + elapsed.seconds * 1_000 + elapsed.attoseconds / 1_000_000_000_000_000
    }

    /// A read begins, unless one is under way; what it need not read again: the round whose
    /// standings are settled (final, held, and past `PlacedRound.readsStandings`).
    mutating func beginRead() -> (settled: Round?, begun: Bool) {
        guard !reading else { return (nil, false) }
        reading = true
        let settled = placed.flatMap { placed in
            placed.final && wallMs(nil).map { !PlacedRound.readsStandings(placed.round, atMs: $0) } == true ? placed.round : nil
        }
        return (settled, true)
    }

    /// A read's answer: the round placed kept when the standings are the same, the news due when not.
    /// (A store that cannot be read now is the commits' news: they fail too; the round waits.)
    mutating func read(_ result: Result<RoundReading?, BattleStoreError>, now: Instant) {
        reading = false
        guard case let .success(reading) = result else { return }
        guard let reading else {
            placed = nil
            return
        }
        wallClock = (now, reading.atMs)
        let read: PlacedRound
        if let counts = reading.counts {
            read = PlacedRound(round: reading.round, counts: counts, readAtMs: reading.atMs)
        } else if let held = placed, held.round == reading.round {
            read = held
        } else {
            return
        }
        if placed.map({ !$0.sameStandings(read) }) ?? true {
            placed = read
            version += 1
            announce()
        }
    }

    /// The round changed, or a stream came that has not been told it: the news goes at the next tick.
    mutating func announce() {
        due = true
        heldUntil = nil
    }

    /// When the news is ready to go, given the last tick (nil: none due).
    func readyAt(lastTick: Instant) -> Instant? { due ? heldUntil ?? lastTick : nil }
    func ready(now: Instant) -> Bool { due && (heldUntil ?? now) <= now }

    /// The round's message for a device welcomed at `now`, when one is shown; told it.
    func welcome(_ device: String, now: Instant) -> (message: String, round: Round, place: RoundStanding)? {
        guard let placed, let nowMs = wallMs(now), placed.isShown(atMs: nowMs) else { return nil }
        return (MessageCoding.encode(.round(placed.message(for: device, nowMs: nowMs))), placed.round, placed.place(of: device))
    }

    /// The news to each connection that has not had it (in the order of their ids); a place held
    /// back is sent when its interval is over.
    mutating func send(now: Instant, to connections: inout HallConnections, _ effects: inout [BattleHall.Effect]) {
        due = false
        heldUntil = nil
        guard let placed, let nowMs = wallMs(now), placed.isShown(atMs: nowMs) else { return }
        var event: String?
        var heldBack: Instant?
        for id in connections.ids.sorted() {
            let connection = connections[id]!
            if connection.streamsPage {
                guard connection.roundEventTold != version else { continue }
                if event == nil { event = placed.liveEvent(nowMs: nowMs) }
                effects.append(.send(.text(event!), to: id))
                connections.toldRoundEvent(id, version: version)
                continue
            }
            guard let device = connection.device else { continue }
            if connection.roundTold != placed.round {
                effects.append(.send(.text(MessageCoding.encode(.round(placed.message(for: device, nowMs: nowMs)))), to: id))
                connections.toldRound(id, placed.round, place: placed.place(of: device), at: now)
                continue
            }
            let place = placed.place(of: device)
            guard place != connection.placeTold else { continue }
            // The player's own taps counted show at the next tick (the player compares their
            // count with the projector's); a place others moved, at most once a second.
            let ownCount = place.count != connection.placeTold?.count
            let due = (connection.placeToldAt ?? now) + .milliseconds(RoundMessage.placeIntervalMs)
            guard place.final || ownCount || due <= now else {
                heldBack = min(heldBack ?? due, due)
                continue
            }
            effects.append(.send(.text(MessageCoding.encodeRoundPlace(place)), to: id))
            connections.toldPlace(id, place, at: now)
        }
        if let heldBack {
            due = true
            heldUntil = max(heldBack, now + BattleHall.broadcastInterval)
        }
    }
}
