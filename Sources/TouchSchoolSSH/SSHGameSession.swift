import TouchSchoolServer
import Foundation
import Logging
import NIOCore
import NIOSSH
import TouchSchoolOutbox
import TouchSchoolCore
import TouchSchoolStore
import TouchSchoolTerminal

/// What every SSH session shares: the battle, the server's host key, the limits.
struct SSHGameContext: Sendable {
    let battle: BattleHallRuntime
    let hostKey: SSHHostKey
    /// The play connections' limits: an SSH player is one more device of its address.
    let limits: AddressLimits
    let metrics: ServerMetrics
    let sessions: SSHSessions
    let idleTimeout: Duration
    let logger: Logger
}

/// One SSH player's game, on a thread of its own: the game loop (`GameRunner`) is the local
/// game's, and waits in its reads as it does there. Joins the battle, plays until the player
/// quits, the channel closes, the player goes idle or the server shuts down, then leaves the
/// battle and closes the channel.
enum SSHGameSession {
    struct Request: Sendable {
        let identity: SSHPlayerIdentity
        let address: String
        let columns: Int
        let rows: Int
        /// The client's `env` requests the game reads (`LANG`, `LC_*`, `NO_COLOR`).
        let environment: [String: String]
    }

    /// Starts the game's thread; false when the server holds as many games as it may.
    static func start(_ request: Request, channel: any Channel, inbox: SSHInbox, context: SSHGameContext) -> Bool {
        guard context.sessions.open(inbox) else { return false }
        context.metrics.sshGames.increment()
        let thread = Thread {
            run(request, channel: channel, inbox: inbox, context: context)
            context.sessions.close(inbox)
            context.metrics.sshGames.decrement()
        }
        thread.name = "touchschool-ssh"
        thread.start()
        return true
    }

    private static func run(_ request: Request, channel: any Channel, inbox: SSHInbox, context: SSHGameContext) {
        let device = request.identity.deviceKey(hostKey: context.hostKey)
        let player = PlayerNames.clean(request.identity.user)
        // On this session's own thread (not one of the cooperative pool's), as `blockingWait` needs.
        let joining = blockingWait {
            await SSHBattleLink.join(battle: context.battle, device: device, player: player, address: request.address,
                                     limits: context.limits, metrics: context.metrics)
        }
        let text = SSHText(environment: request.environment)
        let link: SSHBattleLink
        switch joining {
        case let .joined(joined): link = joined
        case let .refused(reason):
            end(channel, message: text.parting(reason), status: 1)
            return
        }
        context.logger.info("An SSH player joined", metadata: ["address": "\(request.address)", "player": "\(player)"])
        // A player on the teacher's minute line (`ServerActivity`) as one over the play socket is.
        context.metrics.activity.connected()
        defer { context.metrics.activity.disconnected() }
        let terminal = SSHTerminal(channel: channel, inbox: inbox, columns: request.columns, rows: request.rows,
                                   colors: (request.environment["NO_COLOR"] ?? "").isEmpty, idleLimit: context.idleTimeout,
                                   isLost: { link.lostReason != nil })
        let now = MonotonicClock.now()
        var state = GameState(
            catalog: link.catalog, saved: link.startingState, player: player,
            language: text.language, now: now,
            columns: request.columns, rows: request.rows, seed: UInt64(truncatingIfNeeded: now.nanoseconds),
            notices: request.identity.isSessionOnly ? [.sessionWithoutKey] : [])
        state.connection = .online
        terminal.write(EscapeSequenceScreen.opening)
        var runner = GameRunner(screen: terminal, battle: link, state: state, frameNanoseconds: GameRunner<SSHTerminal>.remoteFrameNanoseconds)
        runner.run()
        terminal.write(EscapeSequenceScreen.closing)
        let idle = terminal.isIdle
        let lost = link.lostReason
        context.logger.info("An SSH player left", metadata: ["address": "\(request.address)", "player": "\(player)"])
        // Why the game ended, when the player did not end it: the server's shutdown, the idle
        // timeout, the battle letting the player go (nothing when the client closed the channel).
        if let reason = inbox.reason {
            end(channel, message: text.parting(reason))
        } else if inbox.isEnded {
            end(channel, message: nil)
        } else if idle {
            end(channel, message: text.closedIdle(seconds: context.idleTimeout.components.seconds))
        } else {
            end(channel, message: lost.map(text.parting))
        }
    }

    /// Says why on the client's standard error (if anything), its exit status, and closes the
    /// session. The client then closes the connection (a session is all a connection may have), as
    /// after any remote command; closed from here at once, OpenSSH said "Connection to HOST closed
    /// by remote host." after every normal quit, which reads as an error. A client that does not
    /// close it within `connectionCloseGrace` has it closed.
    static func end(_ channel: any Channel, message: String?, status: Int = 0) {
        if let message { say(message, on: channel) }
        channel.triggerUserOutboundEvent(SSHChannelRequestEvent.ExitStatus(exitStatus: status)).whenComplete { _ in
            channel.close(promise: nil)
            guard let connection = channel.parent else { return }
            connection.eventLoop.scheduleTask(in: connectionCloseGrace) { connection.close(promise: nil) }
        }
        channel.flush()
    }

    /// How long a client has to close its connection once its session ended.
    static let connectionCloseGrace: TimeAmount = .seconds(5)

    /// A line on the client's standard error.
    static func say(_ message: String, on channel: any Channel) {
        channel.writeAndFlush(SSHChannelData(type: .stdErr, data: .byteBuffer(ByteBuffer(string: message + "\r\n"))), promise: nil)
    }
}
