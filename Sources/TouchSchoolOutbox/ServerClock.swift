import TouchSchoolCore
import TouchSchoolProtocol

/// The offset of the server's clock to this machine's, measured as NTP does: a ping sent at `s`
/// and answered at `r` with the server's clock `n` says the server read `n` about half-way,
/// so its offset is `n − (s + r) / 2`, within half the round trip. Of the samples, the one with
/// the shortest round trip is kept: the least uncertain. A round's countdown is shown by it.
package struct ServerClock: Sendable {
    /// Pings sent and not yet answered, oldest first (the server answers them in order).
    private var sentMs: [Int64] = []

    package init() {}
    /// The pongs taken, with the server's clock or without.
    private(set) var answers = 0
    private(set) var best: (roundTripMs: Int64, offsetMs: Int64)?

    /// How many samples a connection takes at its start, a second apart; more while none has a
    /// round trip of at most `preciseRoundTripMs`, up to `samplesAtMost`. A game started on a busy
    /// machine may read its first pongs late: three pongs read ~280 ms late would put the
    /// server's clock (on the same machine) 135 ms behind, and a round's start would be drawn
    /// that late.
    static let samplesWanted = 3
    static let samplesAtMost = 10
    /// Within 20 ms of the server's clock: a round starts on every screen within 100 ms.
    static let preciseRoundTripMs: Int64 = 40
    package static let sampleIntervalSeconds = 1.0

    /// Whether another ping should measure the clock (a second after the last).
    package var wantsSample: Bool {
        answers < Self.samplesWanted
            || (answers < Self.samplesAtMost && (best?.roundTripMs ?? .max) > Self.preciseRoundTripMs)
    }

    package mutating func pinged(atMs: Int64) { sentMs.append(atMs) }

    package mutating func ponged(serverMs: Int64?, atMs received: Int64) {
        guard !sentMs.isEmpty else { return }
        let sent = sentMs.removeFirst()
        answers += 1
        guard let serverMs else { return }
        let roundTrip = max(0, received - sent)
        if best.map({ roundTrip < $0.roundTripMs }) ?? true {
            best = (roundTrip, serverMs - (sent + received) / 2)
        }
    }

    /// How far the server's clock is ahead of this machine's, by the best sample (nil: none yet).
    package var offsetMs: Int64? { best?.offsetMs }

    /// The server's clock now, when this machine's reads `localMs`; without a sample, the server's
    /// clock as a message sent at `messageNowMs` told it.
    package func serverNow(localMs: Int64, messageNowMs: Int64) -> Int64 {
        best.map { localMs + $0.offsetMs } ?? messageNowMs
    }
}

extension RoundNews {
    /// The round as a `round` message tells it, taken when the server's clock reads `serverNowMs`.
    init(_ message: RoundMessage, serverNowMs: Int64, toldAt: Instant? = nil) {
        self.init(id: message.id, title: message.title, startsAtMs: message.startsAtMs, endsAtMs: message.endsAtMs,
                  graceMs: message.graceMs, serverNowMs: serverNowMs,
                  standing: RoundStanding(id: message.id, place: message.place, tied: message.tied, count: message.count, players: message.players,
                                          final: message.final),
                  toldAt: toldAt)
    }
}

extension GameEvent {
    /// The game's event for a round message, taken when this machine's clock reads `localMs`
    /// and the game's clock `toldAt` (nil for any other message).
    package static func round(_ message: ServerMessage, clock: ServerClock, localMs: Int64, toldAt: Instant? = nil) -> GameEvent? {
        switch message {
        case let .round(round):
            .roundTold(RoundNews(round, serverNowMs: clock.serverNow(localMs: localMs, messageNowMs: round.nowMs), toldAt: toldAt))
        case let .roundPlace(standing): .roundPlaceTold(standing)
        default: nil
        }
    }
}
