import Foundation
import Logging
import TouchSchoolCore
import TouchSchoolProtocol

/// A play connection's hello, answered with the welcome: the device's last applied number, its
/// player, the whole board and the battle's identity.
extension Battle {
    /// The welcome for a device that said hello: its last applied batch number, its player and
    /// the whole board. Waits for the save of the device's batches still waiting, so that the
    /// number is the truth. Another connection of the same device is closed: the newest wins.
    func hello(_ id: ConnectionID, device: String, player: String) async -> HelloOutcome {
        guard !closing else { return .refused(Self.goingAway) }
        while pending.contains(where: { $0.device == device }) || inFlight.contains(device), !closing {
            await withCheckedContinuation { commitWaiters.append($0) }
        }
        // The device as the store has it (another server may have applied its batches): while
        // the store cannot be read, the hello waits and the connection stays.
        var known: (DeviceRecord, PlayerRecord)?
        while true {
            do throws(BattleStoreError) {
                known = try await store.device(device)
                break
            } catch {
                guard !closing, peers[id] != nil else { return .refused(Self.goingAway) }
                noteSaveFailure(error)
                try? await Task.sleep(for: Self.retryDelay)
            }
        }
        guard !closing, peers[id] != nil else { return .refused(Self.goingAway) }
        // A full store keeps saving for the devices it holds; a new one waits for room. (Hellos
        // of new devices at the same moment may each pass before their first save counts.)
        if known == nil, devicesStored >= maximumDevices {
            metrics.connectionsRefused.increment()
            return .refused(ProtocolError(code: CloseCode.battleFull,
                                          message: "this battle takes no new players now: it holds its limit of \(maximumDevices) devices"))
        }
        if let other = connectionOfDevice[device], other != id {
            send(.close(code: CloseCode.normal, reason: "this device connected again"), to: other)
            if peers[other] != nil { peers[other]?.device = nil }
        }
        connectionOfDevice[device] = id
        peers[id]?.device = device
        return .welcome(welcomeText(lastSeq: known?.0.lastSeq ?? 0, player: CommitRules.playerState(known?.1)))
    }

    func welcomeText(lastSeq: UInt64, player: PlayerState) -> String {
        MessageCoding.encodeWelcome(battle: battleID, lastSeq: lastSeq, player: player, catalog: catalog.etag, encodedBoard: boardJSON())
    }
}
