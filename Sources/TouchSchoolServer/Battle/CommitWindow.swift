/// The batches waiting to be saved and the one commit under way: when the next commit may start,
/// what it saves, and what a failed one puts back. At most one commit at a time; a window
/// (`BattleHall.commitWindow`) after the oldest waiting batch arrived and after the last commit
/// started, at once when `BattleHall.commitBatchLimit` wait; a failed one tried again no sooner
/// than its retry delay; the final save of a shutdown at most `BattleHall.finalTries` times.
struct CommitWindow: Sendable {
    typealias Instant = ContinuousClock.Instant

    /// The batches arrived since the last commit started, in order.
    private(set) var pending: [ReceivedBatch] = []
    /// When the oldest waiting batch arrived: the commit window runs from then.
    private(set) var pendingSince: Instant?
    /// The batches of the commit under way (nil: none), their `pendingSince`, and whether it is
    /// the final save of a shutdown.
    private(set) var committing: (batches: [ReceivedBatch], since: Instant?, final: Bool)?
    /// Devices with batches in the commit under way.
    private(set) var inFlight: Set<String> = []
    /// When the last commit started: the next starts a window later at the soonest.
    private(set) var lastCommitStarted: Instant?
    /// After a failed commit, the next is tried no sooner than this.
    private(set) var retryAt: Instant?
    private(set) var finalFailures = 0

    var isCommitting: Bool { committing != nil }
    /// A commit is under way or batches wait for one.
    var commitComing: Bool { committing != nil || !pending.isEmpty }

    /// Whether a batch of `device` waits or is being saved (its hello waits for that).
    func holds(device: String) -> Bool { inFlight.contains(device) || pending.contains { $0.device == device } }

    mutating func add(_ batch: ReceivedBatch, now: Instant) {
        if pending.isEmpty { pendingSince = now }
        pending.append(batch)
    }

    /// When the next commit may start (nil: nothing to save, a commit is under way, or the
    /// final save gave up). `final`: the shutdown's, which waits only for its retry.
    ///
    /// The window runs from the oldest waiting batch's arrival, not from the end of the last
    /// save: batches that arrived during a save (an fsync can take tens of milliseconds on a
    /// busy disk) have waited their window already and are saved at once. Nor does a save
    /// start sooner than a window after the previous one started: fast saves (a PostgreSQL
    /// transaction takes a few milliseconds) would otherwise follow each other with a batch
    /// or two each, and commits would grow with the players instead of staying at most
    /// 1 / window a second.
    func due(now: Instant, final: Bool) -> Instant? {
        guard committing == nil, !pending.isEmpty else { return nil }
        if final { return finalFailures < BattleHall.finalTries ? retryAt ?? now : nil }
        var due = retryAt ?? now
        if pending.count < BattleHall.commitBatchLimit {
            if let pendingSince { due = max(due, pendingSince + BattleHall.commitWindow) }
            if let lastCommitStarted { due = max(due, lastCommitStarted + BattleHall.commitWindow) }
        }
        return due
    }

    /// Starts a commit of every batch waiting; returns them.
    mutating func start(now: Instant, final: Bool) -> [ReceivedBatch] {
        let batches = pending
        committing = (batches, pendingSince, final)
        inFlight = Set(batches.map(\.device))
        lastCommitStarted = now
        retryAt = nil
        pending = []
        pendingSince = nil
        return batches
    }

    /// The commit under way was saved: its batches, in the order they were sent (nil: none was under way).
    mutating func saved() -> [ReceivedBatch]? {
        guard let (batches, _, _) = committing else { return nil }
        committing = nil
        inFlight = []
        return batches
    }

    /// The commit under way failed: nothing is acknowledged, its batches wait again (their
    /// players stay connected), ahead of those arrived since, to be tried after the retry delay.
    /// False when none was under way.
    mutating func failed(now: Instant) -> Bool {
        guard let (batches, since, final) = committing else { return false }
        committing = nil
        inFlight = []
        pending = batches + pending
        pendingSince = since ?? now
        if final { finalFailures += 1 }
        retryAt = now + (final ? BattleHall.finalRetryDelay : BattleHall.retryDelay)
        return true
    }

    /// What the connection sent and waits for the next save is not applied (it was told it is closed).
    mutating func drop(connection: ConnectionID) {
        pending.removeAll { $0.connection == connection }
        if pending.isEmpty { pendingSince = nil }
    }
}
