/// The operator's round as a game shows it (docs/protocol.md, "Rounds"): its times moved onto the
/// game's own clock when it was told, from the server's clock and the game's measured offset to
/// it, so that every screen counts the same 3-2-1 and the same seconds left; and the player's place.
public struct RoundOnScreen: Equatable, Sendable {
    public var id: Int64
    public var title: String?
    public var startsAt: Instant
    public var endsAt: Instant
    /// When its grace ends: batches made inside the window still count until then.
    public var settlesAt: Instant
    public var standing: RoundStanding
    /// Until when the result is shown, once it is final.
    public var resultUntil: Instant?

    /// A round told (`news`), taken at `now` by the game's clock.
    public init(_ news: RoundNews, now: Instant) {
        id = news.id
        title = news.title
        // The server's clock read `serverNowMs` when the news came, which may be a moment before
        // the game takes it (`now`): the times are moved from when it came, when known.
        let told = news.toldAt ?? now
        startsAt = told.adding(milliseconds: news.startsAtMs &- news.serverNowMs)
        endsAt = told.adding(milliseconds: news.endsAtMs &- news.serverNowMs)
        settlesAt = endsAt.adding(milliseconds: news.graceMs)
        standing = news.standing
    }

    /// How long a final result stays on the screen.
    public static let resultMilliseconds: Int64 = 20_000
    /// A result that becomes final later than this after the grace is not rung for: the player
    /// joined after the round.
    public static let ringsWithinMilliseconds: Int64 = 5_000

    public enum Phase: Equatable, Sendable {
        /// Seconds until the window opens, 3, 2, 1.
        case countdown(Int)
        /// Seconds left in the window, rounded up.
        case race(secondsLeft: Int)
        /// The window closed; the standings are not final yet.
        case counting
        case result
        /// Nothing more to show.
        case over
    }

    public func phase(at now: Instant) -> Phase {
        if now < startsAt { return .countdown(Self.secondsUp(startsAt.nanoseconds(since: now))) }
        if now < endsAt { return .race(secondsLeft: Self.secondsUp(endsAt.nanoseconds(since: now))) }
        guard standing.final else { return now < settlesAt.adding(milliseconds: Self.resultMilliseconds) ? .counting : .over }
        if let resultUntil, now < resultUntil { return .result }
        return .over
    }

    /// When what `phase(at:)` shows next changes by the clock alone (the countdown's digit, GO,
    /// the seconds left, the end of the counting or of the result), so that a game that sleeps
    /// while idle wakes for it: nil when only a message from the server changes it.
    public func nextChange(after now: Instant) -> Instant? {
        let second: Int64 = 1_000_000_000
        func nextWhole(until deadline: Instant) -> Instant {
            Instant(nanoseconds: now.nanoseconds &+ (deadline.nanoseconds(since: now) - 1) % second + 1)
        }
        if now < startsAt { return nextWhole(until: startsAt) }
        if now < endsAt { return nextWhole(until: endsAt) }
        guard standing.final else {
            let over = settlesAt.adding(milliseconds: Self.resultMilliseconds)
            return now < over ? over : nil
        }
        if let resultUntil, now < resultUntil { return resultUntil }
        return nil
    }

    private static func secondsUp(_ nanoseconds: Int64) -> Int { Int((nanoseconds + 999_999_999) / 1_000_000_000) }
}

/// A round as the server tells it: its times by the server's clock (milliseconds since 1970),
/// and what the server's clock reads as the game takes it (the game's own clock plus its measured
/// offset to the server's), from which the game moves the times onto its own clock.
public struct RoundNews: Equatable, Sendable {
    public var id: Int64
    public var title: String?
    public var startsAtMs: Int64
    public var endsAtMs: Int64
    public var graceMs: Int64
    public var serverNowMs: Int64
    public var standing: RoundStanding
    /// When it came, by the game's clock (`MonotonicClock`), when known: the moment at which the
    /// server's clock read `serverNowMs`.
    public var toldAt: Instant?

    public init(id: Int64, title: String?, startsAtMs: Int64, endsAtMs: Int64, graceMs: Int64, serverNowMs: Int64, standing: RoundStanding,
                toldAt: Instant? = nil) {
        self.toldAt = toldAt
        self.id = id
        self.title = title
        self.startsAtMs = startsAtMs
        self.endsAtMs = endsAtMs
        self.graceMs = graceMs
        self.serverNowMs = serverNowMs
        self.standing = standing
    }
}

/// The player's place in a round as the server counted it (the `roundPlace` message on the
/// wire): `place` nil while none of the player's taps counted; `tied`: another player has the
/// same count, so the same place (on the wire only when true); `players`: how many have a place;
/// `final`: it can change no more.
public struct RoundStanding: Codable, Equatable, Sendable {
    public var id: Int64
    public var place: Int?
    public var tied: Bool
    public var count: UInt64
    public var players: Int
    public var final: Bool

    public init(id: Int64, place: Int?, tied: Bool = false, count: UInt64, players: Int, final: Bool) {
        self.id = id
        self.place = place
        self.tied = tied
        self.count = count
        self.players = players
        self.final = final
    }

    private enum CodingKeys: String, CodingKey { case id, place, tied, count, players, final }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(id: try container.decode(Int64.self, forKey: .id), place: try container.decodeIfPresent(Int.self, forKey: .place),
                  tied: try container.decodeIfPresent(Bool.self, forKey: .tied) ?? false,
                  count: try container.decode(UInt64.self, forKey: .count), players: try container.decode(Int.self, forKey: .players),
                  final: try container.decode(Bool.self, forKey: .final))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encodeIfPresent(place, forKey: .place)
        if tied { try container.encode(true, forKey: .tied) }
        try container.encode(count, forKey: .count)
        try container.encode(players, forKey: .players)
        try container.encode(final, forKey: .final)
    }
}

extension GameState {
    /// A round told: it replaces the one shown. A result final when told is shown (not rung for,
    /// unless the round has just settled).
    mutating func tell(_ news: RoundNews, now: Instant) -> [GameCommand] {
        var round = RoundOnScreen(news, now: now)
        if self.round?.id == round.id { round.resultUntil = self.round?.resultUntil }
        self.round = round
        return settle(now: now)
    }

    /// My place in the round shown, when it is that round.
    mutating func tell(_ standing: RoundStanding, now: Instant) -> [GameCommand] {
        guard round?.id == standing.id else { return [] }
        round?.standing = standing
        return settle(now: now)
    }

    /// A result that became final: shown for a while, rung for when the player was there at the end.
    private mutating func settle(now: Instant) -> [GameCommand] {
        guard let round, round.standing.final, round.resultUntil == nil else { return [] }
        self.round?.resultUntil = now.adding(milliseconds: RoundOnScreen.resultMilliseconds)
        let late = now.nanoseconds(since: round.settlesAt) > RoundOnScreen.ringsWithinMilliseconds * 1_000_000
        return bellEnabled && !late ? [.bell] : []
    }
}
