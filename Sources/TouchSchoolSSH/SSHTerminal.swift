import TouchSchoolServer
import Dispatch
import Foundation
import NIOCore
import NIOSSH
import TouchSchoolTerminal
import TouchSchoolView

/// What an SSH session's channel (on its event loop) hands the game's thread: the bytes typed,
/// the terminal's new size, the end of the channel. Bounded: bytes beyond
/// `maximumWaitingBytes` waiting are dropped (a client writing faster than any player types
/// gets no more of the server's time for it).
final class SSHInbox: @unchecked Sendable {
    /// Far more than a player types between two frames (16 ms), or a paste the game keeps (4,096 characters).
    static let maximumWaitingBytes = 32 * 1024

    // NSCondition guards every field below.
    private let condition = NSCondition()
    private var bytes: [UInt8] = []
    private var size: (columns: Int, rows: Int)?
    private var ended = false
    private var endReason: SSHParting?
    private var lastInput = DispatchTime.now().uptimeNanoseconds
    /// `wake` was called since the last `take`: it returns at once.
    private var woken = false

    func receive(_ buffer: ByteBuffer) {
        condition.lock()
        defer { condition.unlock() }
        let room = max(0, Self.maximumWaitingBytes - bytes.count)
        bytes.append(contentsOf: buffer.readableBytesView.prefix(room))
        lastInput = DispatchTime.now().uptimeNanoseconds
        condition.signal()
    }

    func resize(columns: Int, rows: Int) {
        condition.lock()
        defer { condition.unlock() }
        size = (columns, rows)
        condition.signal()
    }

    /// The channel closed, or the server asks every game to end (and says why: `reason`).
    func end(reason: SSHParting? = nil) {
        condition.lock()
        defer { condition.unlock() }
        ended = true
        endReason = endReason ?? reason
        condition.signal()
    }

    /// Why the server ended the game, if it did.
    var reason: SSHParting? {
        condition.lock()
        defer { condition.unlock() }
        return endReason
    }

    var isEnded: Bool {
        condition.lock()
        defer { condition.unlock() }
        return ended
    }

    /// Nanoseconds since the player last typed.
    var idleNanoseconds: UInt64 {
        condition.lock()
        defer { condition.unlock() }
        return DispatchTime.now().uptimeNanoseconds &- lastInput
    }

    /// Ends the wait of a `take` now (or the next one's): the battle has news for the screen.
    func wake() {
        condition.lock()
        defer { condition.unlock() }
        woken = true
        condition.signal()
    }

    /// What came, waiting up to `milliseconds` for anything to come (or a `wake`).
    func take(waitingUpTo milliseconds: Int) -> (bytes: [UInt8], size: (columns: Int, rows: Int)?) {
        condition.lock()
        defer { condition.unlock() }
        if bytes.isEmpty, size == nil, !ended, !woken, milliseconds > 0 {
            _ = condition.wait(until: Date(timeIntervalSinceNow: Double(milliseconds) / 1000))
        }
        defer {
            bytes.removeAll(keepingCapacity: true)
            size = nil
            woken = false
        }
        return (bytes, size)
    }
}

/// An SSH player's terminal, as the game loop sees it: the keys decoded from the channel's
/// bytes, the frames written into it as escape sequences (`EscapeSequenceScreen`).
final class SSHTerminal: GameTerminal {
    private let inbox: SSHInbox
    private let channel: any Channel
    private var screen: EscapeSequenceScreen
    private var reader = EscapeSequenceReader()
    private var decoded: [TerminalInput] = []
    private var timeoutMilliseconds = 0
    private let idleLimitNanoseconds: UInt64
    private let isLost: () -> Bool

    init(channel: any Channel, inbox: SSHInbox, columns: Int, rows: Int, colors: Bool, idleLimit: Duration,
         isLost: @escaping () -> Bool) {
        self.channel = channel
        self.inbox = inbox
        self.screen = EscapeSequenceScreen(columns: columns, rows: rows, colors: colors)
        self.idleLimitNanoseconds = UInt64(idleLimit.components.seconds) * 1_000_000_000
        self.isLost = isLost
    }

    func setReadTimeout(milliseconds: Int) { timeoutMilliseconds = milliseconds }

    var wakeUp: @Sendable () -> Void { { [inbox] in inbox.wake() } }

    func read() -> TerminalInput? {
        if decoded.isEmpty {
            let (bytes, size) = inbox.take(waitingUpTo: timeoutMilliseconds)
            if let size {
                screen.resize(columns: size.columns, rows: size.rows)
                decoded.append(.resize(columns: size.columns, rows: size.rows))
            }
            decoded += reader.read(bytes)
        }
        return decoded.isEmpty ? nil : decoded.removeFirst()
    }

    /// A frame is skipped while the client does not read what was sent (its SSH window is full):
    /// the next one writes what changed since the last frame sent, so nothing piles up here.
    func draw(_ grid: CellGrid) {
        guard channel.isWritable else { return }
        write(screen.frame(grid))
    }

    func beep() { write(EscapeSequenceScreen.bell) }

    /// The channel closed, the battle let the player go, or the player typed nothing for too long.
    func takeEndRequest() -> Bool {
        inbox.isEnded || isLost() || inbox.idleNanoseconds >= idleLimitNanoseconds
    }

    var isIdle: Bool { inbox.idleNanoseconds >= idleLimitNanoseconds }

    func write(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        channel.writeAndFlush(SSHChannelData(type: .channel, data: .byteBuffer(ByteBuffer(bytes: bytes))), promise: nil)
    }
}
