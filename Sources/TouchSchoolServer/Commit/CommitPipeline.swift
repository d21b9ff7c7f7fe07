import Foundation
import Logging
import TouchSchoolCore
import TouchSchoolProtocol

/// The battle's commit pipeline: batches gathered for up to `commitWindow` (from the oldest one's
/// arrival) are saved in one durable write of the store, then each is acknowledged; on shutdown
/// what arrived is saved and acknowledged before every connection is closed.
extension Battle {
    /// Queues a batch for the next save. Ignored once the final save of a shutdown has begun:
    /// it was never acknowledged, and the client sends it again.
    /// A connection being closed (a batch out of order, replaced by a newer connection of its
    /// device) has no device any more: what it still sends is not applied.
    func submit(_ batch: ReceivedBatch) {
        guard !stopped, peers[batch.connection]?.device == batch.device else { return }
        if pending.isEmpty { pendingSince = .now }
        pending.append(batch)
        wakeCommitLoop()
    }

    func wakeCommitLoop() {
        workWaiter?.resume()
        workWaiter = nil
    }

    func commitLoop() async {
        while true {
            if pending.isEmpty && !closing {
                await withCheckedContinuation { workWaiter = $0 }
            }
            // The window runs from the oldest waiting batch's arrival, not from the end of the
            // last save: batches that arrived during a save (an fsync can take tens of
            // milliseconds on a busy disk) have waited their window already and are saved at once.
            // Nor does a save start sooner than a window after the previous one started: fast
            // saves (a PostgreSQL transaction takes a few milliseconds) would otherwise follow
            // each other with a batch or two each, and commits would grow with the players
            // instead of staying at most 1 / window a second.
            if !closing && pending.count < Self.commitBatchLimit {
                let now = ContinuousClock.now
                let due = max(pendingSince.map { $0 + Self.commitWindow } ?? now, lastCommitStarted.map { $0 + Self.commitWindow } ?? now)
                if due > now { try? await Task.sleep(until: due, clock: .continuous) }
            }
            if closing {
                // Save and acknowledge what arrived; later batches wait for the next server.
                stopped = true
                var tries = 0
                while !pending.isEmpty && tries < 3 {
                    if await !commit() { tries += 1; try? await Task.sleep(for: .milliseconds(200)) }
                }
                broadcast()
                for (id, peer) in peers {
                    if !peer.watchesBoard { send(.text(MessageCoding.encode(.error(Self.goingAway))), to: id) }
                    send(.close(code: CloseCode.goingAway, reason: "going away"), to: id)
                }
                for waiter in commitWaiters { waiter.resume() }
                commitWaiters = []
                return
            }
            if await !commit() { try? await Task.sleep(for: Self.retryDelay) }
        }
    }

    /// Saves every waiting batch in one write of the store; true when saved (or nothing to do).
    func commit() async -> Bool {
        guard !pending.isEmpty else { return true }
        let batches = pending
        let since = pendingSince
        lastCommitStarted = .now
        pending = []
        pendingSince = nil
        inFlight = Set(batches.map(\.device))
        defer { inFlight = [] }
        let started = ContinuousClock.now
        let outcome: Result<CommittedWindow, BattleStoreError>
        do throws(BattleStoreError) {
            outcome = .success(try await store.commit(batches, histories: histories, catalog: catalog.catalog,
                                                      nowMs: Int64(Date().timeIntervalSince1970 * 1000)))
        } catch {
            outcome = .failure(error)
        }
        switch outcome {
        case let .failure(error):
            // Nothing is acknowledged: the batches wait (their players stay connected) and are
            // saved when the store works again.
            pending = batches + pending
            pendingSince = since ?? .now
            noteSaveFailure(error)
            return false
        case let .success(window):
            let result = window.rules
            metrics.commitLatency.record(ContinuousClock.now - started)
            metrics.commits.increment()
            noteSaveWorks()
            for note in window.notes { logger.warning("The saved scores were repaired", metadata: ["problem": "\(note)"]) }
            take(window.board)
            self.histories = window.histories
            devicesStored += result.newDevices
            var acknowledged = 0
            for (received, outcome) in zip(batches, result.outcomes) {
                switch outcome {
                case let .acknowledged(ack):
                    acknowledged += 1
                    if ack.accepted == 0 && ack.refused == 0 && received.batch.totalTaps > 0 { metrics.duplicateBatches.increment() }
                    send(.text(MessageCoding.encode(.ack(ack))), to: received.connection)
                case let .outOfOrder(expected):
                    guard peers[received.connection] != nil else { continue }
                    metrics.protocolErrors.increment()
                    let message = "batch \(received.batch.seq) out of order: expected \(expected)"
                    send(.text(MessageCoding.encode(.error(ProtocolError(code: CloseCode.policyViolation, message: message)))), to: received.connection)
                    send(.close(code: CloseCode.policyViolation, reason: "batch out of order"), to: received.connection)
                    peers[received.connection]?.device = nil
                    // What the connection sent after the gap and is waiting for the next save is
                    // not applied either: the connection was told it is closed.
                    pending.removeAll { $0.connection == received.connection }
                }
            }
            metrics.batches.increment(by: Int64(acknowledged))
            metrics.tapsAccepted.increment(by: Int64(clamping: result.accepted))
            metrics.activity.counted(result.accepted)
            metrics.tapsRefused.increment(by: Int64(clamping: result.refused))
            // Sent now unless a board went out less than `broadcastInterval` ago (the loop sends
            // it then): players see a save at once, at most four boards a second.
            if ContinuousClock.now - lastBroadcast >= Self.broadcastInterval { broadcast() }
            for waiter in commitWaiters { waiter.resume() }
            commitWaiters = []
            return true
        }
    }
}
