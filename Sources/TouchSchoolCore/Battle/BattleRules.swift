/// The rules of the battle that more than one side applies, written once: the local state store,
/// the server's commit, the terminal client's outbox and board all call these. The browser page
/// has its own copy in JavaScript (`Web/rules.js`); both are run against the same cases,
/// `Tests/Vectors/battle-rules.json`, by the Swift tests, by the page under Chromium and by
/// `node --test Tests/Page`.
public enum BattleRules {
    // MARK: A batch changes a player

    /// The player's record after taps of their own (a batch at the server, a save of a local
    /// game): choosing a school restarts their count at the taps made for it since; without a
    /// school their taps count for no one of theirs (the schools' totals are counted apart);
    /// the best speed only grows.
    public static func player(_ record: PlayerRecord, adding playerTaps: UInt64, switchedTo school: String?,
                              best: Int) -> PlayerRecord {
        var record = record
        if let school {
            record.schoolID = school
            record.taps = playerTaps
        } else if record.schoolID != nil {
            record.taps = record.taps.addingSaturating(playerTaps)
        }
        record.bestTapsPerSecond = max(record.bestTapsPerSecond, best)
        return record
    }

    // MARK: The outbox's numbering

    /// What a client does with its waiting batches when the server says it has applied this
    /// device's batches up to `lastSeq` (a welcome): the batches up to it are dropped as applied,
    /// and the rest are numbered `lastSeq + 1, lastSeq + 2, …` with `nextSeq` after them.
    ///
    /// When the numbers already follow on, nothing changes. When they do not, the server's numbers
    /// went back (it was restored from a backup, or lost its data) or the client's did (its data
    /// directory was restored): either way the server has counted none of the waiting batches,
    /// so they are numbered where the server expects the next one, and an empty outbox gives
    /// `lastSeq + 1` next. A renumbered outbox must be durable before any of it is sent: a
    /// renumbering sent and then forgotten in a crash would be renumbered again and counted twice.
    public static func welcome(_ numbering: OutboxNumbering, lastSeq: UInt64) -> OutboxNumbering {
        let waiting = numbering.waiting.filter { $0 > lastSeq }
        return OutboxNumbering(nextSeq: lastSeq &+ 1 &+ UInt64(waiting.count),
                               waiting: waiting.indices.map { lastSeq &+ 1 &+ UInt64($0) })
    }

    // MARK: Keys and identities

    /// A device key as the server accepts it: 22 to 64 base64url characters. Clients make 43
    /// (32 random bytes, `madeDeviceKeyLength`); other clients may make shorter or longer ones.
    /// When a batch of `taps` handed over at `nowMs` claims to start (milliseconds, the client's
    /// clock): no earlier than the previous batch's end, and before its first tap (`firstTapMs`)
    /// only as long as the server's judge needs to take that many taps over the claim
    /// (`DeviceTapHistory.judge`: a chord of simultaneous presses, then the burst rule's rate).
    /// A round counts a batch's taps by when they were made, spread over its claim: idle time
    /// claimed before the first tap would count the first taps of a race partly before its start.
    public static func batchStartMs(after lastEndMs: Int64, firstTapMs: Int64?, taps: UInt64, nowMs: Int64,
                                    policy: TapGuardPolicy = .standard) -> Int64 {
        guard let firstTapMs else { return lastEndMs }
        let beyondChord = Int64(clamping: taps) - Int64(policy.simultaneousPressLimit)
        let burstWindowMs = policy.burstWindowNanoseconds / 1_000_000
        let neededMs = beyondChord > 0 ? (beyondChord * burstWindowMs + Int64(policy.burstLimit) - 1) / Int64(policy.burstLimit) : 0
        return max(lastEndMs, min(firstTapMs, nowMs - neededMs))
    }

    public static func isValidDeviceKey(_ key: some StringProtocol) -> Bool {
        deviceKeyLengths.contains(key.utf8.count) && key.utf8.allSatisfy(isBase64URL)
    }

    public static let deviceKeyLengths = 22...64
    public static let madeDeviceKeyLength = 43

    /// A battle's identity as a server names it in its welcome: 16 to 64 characters of
    /// `A–Z a–z 0–9 - _`. Clients keep each battle's outbox in a folder of that name, so nothing
    /// else is accepted (a hostile server must not name `..`).
    public static func isValidBattleID(_ id: some StringProtocol) -> Bool {
        (16...64).contains(id.utf8.count) && id.utf8.allSatisfy(isBase64URL)
    }

    static func isBase64URL(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
    }
}

/// An outbox's numbers: the number the next batch gets, and the waiting batches' numbers in order.
public struct OutboxNumbering: Equatable, Sendable {
    public var nextSeq: UInt64
    public var waiting: [UInt64]

    public init(nextSeq: UInt64, waiting: [UInt64]) {
        self.nextSeq = nextSeq
        self.waiting = waiting
    }
}
