import Foundation
import Logging
import TouchSchoolCore
import TouchSchoolProtocol

/// The board feed: the schools whose totals changed, sent to every player and board stream at
/// most `broadcastInterval` apart, encoded once; and what other servers on the same store saved,
/// polled every `pollInterval` (or at once on a hint) and sent like this server's own.
extension Battle {
    /// The whole board as JSON, keys sorted: encoded once per version for every welcome and
    /// every board stream's first event.
    func boardJSON() -> String {
        if let boardText, boardText.version == boardVersion { return boardText.json }
        let json = MessageCoding.encodeJSON(board())
        boardText = (boardVersion, json)
        return json
    }

    /// Sends what changed as soon as `broadcastInterval` has passed since the last broadcast (a
    /// commit sends it itself when it ends later than that): a tap waits at most one interval for
    /// its board after its save, not an interval and a polling step.
    func broadcastLoop() async {
        var lastCatalogCheck = ContinuousClock.now
        while !closing, !Task.isCancelled {
            let now = ContinuousClock.now
            let due = lastBroadcast + Self.broadcastInterval
            try? await Task.sleep(until: due > now ? due : now + Self.broadcastInterval, clock: .continuous)
            if ContinuousClock.now - lastBroadcast >= Self.broadcastInterval { broadcast() }
            if ContinuousClock.now - lastCatalogCheck >= Self.catalogCheckInterval {
                lastCatalogCheck = ContinuousClock.now
                await reloadCatalogIfChanged()
            }
        }
    }

    /// New totals saved here or by another server, read at `changes.version`: the board and the
    /// next broadcast take them. A total read at an older version than the one held is skipped.
    func take(_ changes: StoredBoard) {
        for (id, total) in changes.scores where (scoreVersions[id] ?? 0) <= changes.version {
            scoreVersions[id] = changes.version
            guard scores[id] != total else { continue }
            scores[id] = total
            changedSinceBroadcast.insert(id)
        }
        if changes.version > boardVersion { boardVersion = changes.version }
        boardText = nil
    }

    /// A hint that the board reached `version` (a PostgreSQL notification): poll now, unless
    /// this server's own commit brought it there already.
    func boardChanged(to version: UInt64?) {
        if let version, version <= boardVersion { return }
        wakePoll()
    }

    func wakePoll() {
        pollWaiter?.resume()
        pollWaiter = nil
    }

    /// Asks the store for other servers' saves every `pollInterval`, or at once on a hint (a lost
    /// hint costs at most one interval), and pushes them to the players like this server's own.
    func pollLoop() async {
        // One timer for the loop's whole life: a hint wakes the poll early without adding timers.
        let timer = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: Self.pollInterval)
                await self?.wakePoll()
            }
        }
        defer { timer.cancel() }
        while !closing {
            await withCheckedContinuation { pollWaiter = $0 }
            guard !closing else { return }
            do throws(BattleStoreError) {
                if ContinuousClock.now - devicesCountedAt >= Self.deviceCountInterval {
                    devicesStored = try await store.deviceCount()
                    devicesCountedAt = .now
                }
                let changes = try await store.changes(since: polledVersion)
                // The store answers again: with nothing waiting to be saved, saving works too.
                if pending.isEmpty && inFlight.isEmpty { noteSaveWorks() }
                guard let changes else { continue }
                metrics.boardPolls.increment()
                polledVersion = max(polledVersion, changes.version)
                take(changes)
                if ContinuousClock.now - lastBroadcast >= Self.broadcastInterval { broadcast() }
            } catch {
                noteSaveFailure(error)
            }
        }
    }

    /// The changed schools' totals, one message encoded once, to every player who said hello, and
    /// as one event encoded once to every board stream.
    func broadcast() {
        guard !changedSinceBroadcast.isEmpty else { return }
        var scores: [String: UInt64] = [:]
        for id in changedSinceBroadcast { scores[id] = self.scores[id] ?? 0 }
        changedSinceBroadcast = []
        lastBroadcast = ContinuousClock.now
        let changes = BoardChanges(version: boardVersion, scores: scores)
        let text = MessageCoding.encode(.board(changes))
        let event = peers.values.contains(where: \.watchesBoard) ? BoardStream.event("changes", json: MessageCoding.encodeJSON(changes)) : ""
        metrics.broadcasts.increment()
        for (id, peer) in peers {
            if peer.watchesBoard { send(.text(event), to: id) } else if peer.device != nil { send(.text(text), to: id) }
        }
    }
}
