import TouchSchoolBattleDatabase
import TouchSchoolCore
import TouchSchoolProtocol

/// The latest round as the hall last read it from the store, with its standings placed once per
/// read (`RoundRoutes.results`): each player's place by device, the projector's event, encoded
/// once for every page stream, and the whole standings `GET /v1/rounds/ID` answers with
/// (`RoundAnswers`). The store is the
/// truth, so that every server of one database shows one round.
struct PlacedRound: Sendable {
    let round: Round
    /// When the store was read, by the server's clock.
    let readAtMs: Int64
    /// Each device's place and count; a device without taps counted has none.
    let places: [String: Standing]
    /// How many players have a place.
    let playerCount: Int
    /// The standings can no longer change: read `settledMs` after the grace closed.
    let final: Bool
    /// The projector's `round` event, its `nowMs` set when sent.
    let live: RoundLive
    /// Every player's and school's place, `nowMs` the time of the read.
    let results: RoundAnswer.Results

    struct Standing: Sendable, Equatable {
        var place: Int
        var tied: Bool
        var count: UInt64
    }

    /// How long after the grace the standings are taken as final: a commit that took a batch
    /// received within the grace (it reads the round in its transaction) is saved well within it.
    /// Reads go on until `readsUntilMs` after the grace, so that a slower save still shows.
    static let settledMs: Int64 = 1_000
    static let readsUntilMs: Int64 = 5_000

    init(round: Round, counts: [RoundPlayerCount], readAtMs: Int64) {
        self.round = round
        self.readAtMs = readAtMs
        let results = RoundRoutes.results(round, counts, nowMs: readAtMs)
        self.results = results
        let placeOfPublicID = Dictionary(results.players.map { ($0.id, Standing(place: $0.place, tied: $0.tied, count: $0.count)) },
                                         uniquingKeysWith: { first, _ in first })
        var places: [String: Standing] = [:]
        for count in counts {
            if let standing = placeOfPublicID[count.publicID] { places[count.device] = standing }
        }
        self.places = places
        playerCount = results.players.count
        final = readAtMs >= round.endsAtMs + Round.graceMs + Self.settledMs
        live = RoundLive(id: round.id, title: round.title, startsAtMs: round.startsAtMs, endsAtMs: round.endsAtMs,
                         graceMs: Round.graceMs, nowMs: 0, final: final, playerCount: playerCount,
                         players: Array(results.players.prefix(RoundLive.shownPlaces)),
                         schools: Array(results.schools.prefix(RoundLive.shownPlaces)))
    }

    /// Whether two reads show the same: the time of the read aside (a player's name or school
    /// changed is a change too: `GET /v1/rounds/ID` shows them).
    func sameStandings(_ other: PlacedRound) -> Bool {
        round == other.round && places == other.places && final == other.final && live == other.live
            && results.players == other.results.players && results.schools == other.results.schools
    }

    /// Whether the round is still sent to screens at `nowMs`: until `RoundMessage.shownForMs`
    /// after its grace.
    func isShown(atMs nowMs: Int64) -> Bool { Self.isShown(round, atMs: nowMs) }

    static func isShown(_ round: Round, atMs nowMs: Int64) -> Bool {
        nowMs < round.endsAtMs + Round.graceMs + RoundMessage.shownForMs
    }

    /// Whether its standings are still read: until a while after they are final.
    static func readsStandings(_ round: Round, atMs nowMs: Int64) -> Bool {
        nowMs < round.endsAtMs + Round.graceMs + readsUntilMs
    }

    /// A device's place as `roundPlace` says it.
    func place(of device: String) -> RoundStanding {
        let standing = places[device]
        return RoundStanding(id: round.id, place: standing?.place, tied: standing?.tied ?? false, count: standing?.count ?? 0,
                             players: playerCount, final: final)
    }

    /// The round as a player's `round` message, with its place and the server's clock now.
    func message(for device: String, nowMs: Int64) -> RoundMessage {
        let place = place(of: device)
        return RoundMessage(id: round.id, title: round.title, startsAtMs: round.startsAtMs, endsAtMs: round.endsAtMs,
                            graceMs: Round.graceMs, nowMs: nowMs, place: place.place, tied: place.tied, count: place.count, players: playerCount,
                            final: final)
    }

    /// The projector's event with the server's clock now.
    func liveEvent(nowMs: Int64) -> String {
        var live = live
        live.nowMs = nowMs
        return BoardStream.event("round", json: MessageCoding.encodeJSON(live))
    }
}

/// The latest round as the store holds it, read at `atMs` by the server's clock; `counts` nil when
/// the hall did not ask for its standings (settled, held already).
struct RoundReading: Sendable {
    var round: Round
    var counts: [RoundPlayerCount]?
    var atMs: Int64
}
