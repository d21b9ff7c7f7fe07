import TouchSchoolServer
import NIOCore
import NIOSSH

/// The one session channel of an SSH connection: a pseudo-terminal, the client's language, then
/// a shell request, which starts the game. Nothing else is served: a command (`exec`), a
/// subsystem (sftp) or a shell without a terminal is refused and the channel closed; the game
/// reads the window's new size from each window change.
final class SSHSessionHandler: ChannelInboundHandler {
    typealias InboundIn = SSHChannelData

    /// The client's environment the game reads: the language, and whether to draw colors.
    static let environmentNames: Set<String> = ["LANG", "LC_ALL", "LC_MESSAGES", "NO_COLOR"]
    /// No locale name is longer; a longer value is not one.
    static let maximumEnvironmentValueBytes = 64
    /// Terminals larger than this are drawn as if they were this large: the view's grid grows
    /// with the terminal, and the client chooses the size (65535 × 65535 is one request away).
    /// A 1080p screen full of an 8 × 12-pixel font is 240 × 90; each game's memory at this size
    /// is what `SSHPolicy.gamesPerAddress` counts.
    static let maximumColumns = 256
    static let maximumRows = 96

    private let identity: SSHPlayerIdentity
    private let address: String
    private let context: SSHGameContext
    private let inbox = SSHInbox()
    private var size: (columns: Int, rows: Int)?
    /// The terminal type the pty request announced (`TERM` on the client's side).
    private var term = ""
    private var environment: [String: String] = [:]
    /// What to say, in the language of the client's environment as sent so far.
    private var text: SSHText { SSHText(environment: environment) }
    private var started = false
    /// Told when the game starts: the connection is then past its login grace.
    private let onPlaying: () -> Void

    init(identity: SSHPlayerIdentity, address: String, context: SSHGameContext, onPlaying: @escaping () -> Void) {
        self.identity = identity
        self.address = address
        self.context = context
        self.onPlaying = onPlaying
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let data = unwrapInboundIn(data)
        // Standard error from a client is not typing; before the game starts, nothing is read.
        guard started, case .channel = data.type, case let .byteBuffer(bytes) = data.data else { return }
        inbox.receive(bytes)
    }

    func channelInactive(context: ChannelHandlerContext) {
        inbox.end()
        context.fireChannelInactive()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        switch event {
        case let request as SSHChannelRequestEvent.PseudoTerminalRequest:
            size = Self.clamped(columns: request.terminalCharacterWidth, rows: request.terminalRowHeight)
            term = request.term
            reply(request.wantReply, success: !started, context: context)
        case let request as SSHChannelRequestEvent.EnvironmentRequest:
            if Self.environmentNames.contains(request.name), request.value.utf8.count <= Self.maximumEnvironmentValueBytes {
                environment[request.name] = request.value
            }
            reply(request.wantReply, success: true, context: context)
        case let request as SSHChannelRequestEvent.WindowChangeRequest:
            let size = Self.clamped(columns: request.terminalCharacterWidth, rows: request.terminalRowHeight)
            inbox.resize(columns: size.columns, rows: size.rows)
        case let request as SSHChannelRequestEvent.ShellRequest:
            startGame(wantReply: request.wantReply, context: context)
        case let request as SSHChannelRequestEvent.ExecRequest:
            refuse(request.wantReply, text.runsNoCommands, context: context)
        case let request as SSHChannelRequestEvent.SubsystemRequest:
            refuse(request.wantReply, text.noSubsystem(String(request.subsystem.prefix(32))), context: context)
        default:
            context.fireUserInboundEventTriggered(event)
        }
    }

    private func startGame(wantReply: Bool, context: ChannelHandlerContext) {
        guard !started else {
            reply(wantReply, success: false, context: context)
            return
        }
        guard let size else {
            refuse(wantReply, text.needsATerminal, context: context)
            return
        }
        // The game is drawn with the cursor addressing every terminal since the VT100 has (xterm,
        // the Linux console, tmux, PuTTY, Windows Terminal); a dumb one cannot show it.
        guard !Self.cannotPlaceTheCursor.contains(term) else {
            refuse(wantReply, text.cannotPlaceTheCursor, context: context)
            return
        }
        started = true
        let request = SSHGameSession.Request(identity: identity, address: address, columns: size.columns, rows: size.rows,
                                             environment: environment)
        guard SSHGameSession.start(request, channel: context.channel, inbox: inbox, context: self.context) else {
            refuse(wantReply, text.serverFull, context: context)
            return
        }
        onPlaying()
        reply(wantReply, success: true, context: context)
    }

    private func reply(_ wantReply: Bool, success: Bool, context: ChannelHandlerContext) {
        guard wantReply else { return }
        if success {
            context.channel.triggerUserOutboundEvent(ChannelSuccessEvent(), promise: nil)
        } else {
            context.channel.triggerUserOutboundEvent(ChannelFailureEvent(), promise: nil)
        }
    }

    /// Says why on the client's standard error, refuses the request, and ends the session. The
    /// refusal follows the reason by `refusalDelay`: OpenSSH exits as soon as a request is
    /// refused, and a reason that came in the same read would not be printed yet.
    private func refuse(_ wantReply: Bool, _ message: String, context: ChannelHandlerContext) {
        let channel = context.channel
        SSHGameSession.say(message, on: channel)
        channel.eventLoop.scheduleTask(in: Self.refusalDelay) {
            if wantReply { channel.triggerUserOutboundEvent(ChannelFailureEvent(), promise: nil) }
            SSHGameSession.end(channel, message: nil, status: 1)
        }
    }

    static let refusalDelay: TimeAmount = .milliseconds(100)

    static let cannotPlaceTheCursor: Set<String> = ["dumb", "unknown"]

    static func clamped(columns: Int, rows: Int) -> (columns: Int, rows: Int) {
        // A client that says 0 (a size unknown) gets the classic 80 × 24.
        (columns > 0 ? min(columns, maximumColumns) : 80, rows > 0 ? min(rows, maximumRows) : 24)
    }
}
