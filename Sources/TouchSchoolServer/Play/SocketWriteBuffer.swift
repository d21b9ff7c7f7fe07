import NIOCore
import NIOWebSocket
import Synchronization

/// A play socket's messages, written into its channel by the channel's own event loop, in the
/// order they were queued: the battle's (acks, views, rounds) and the connection's own (the
/// welcome, pongs, an error and its close).
///
/// Why not a queue that a writer task reads, as an SSH session and a board stream have: each
/// message then took two hops, the hall's thread waking the writer on Swift's pool and the writer
/// waking the event loop, some 20,000 times a second at 4,000 players. The hall now queues a
/// turn's messages here and hands each event loop the write buffers it filled once a turn
/// (`BattleHallRuntime.drainWriteBuffers`); the loop writes them all (BENCHMARKS.md, "Straight into
/// the sockets").
package final class SocketWriteBuffer: Sendable {
    /// How the write buffer ended: what its connection's task does next (`ending()`).
    package enum Ending: Sendable, Equatable {
        /// A close frame with this code and reason, sent by the WebSocket layer after every message
        /// queued before it.
        case close(code: UInt16, reason: String)
        /// Nothing more to send: the battle is done with the connection.
        case finished
        /// More than `bufferLimit` bytes wait in the channel: a reader too slow to keep.
        case tooSlow
    }

    /// The bytes written into the channel and not yet taken by the kernel beyond which the reader
    /// is too slow to keep: about a thousand views, as many messages as a writer task's queue held.
    static let bufferLimit = 256 * 1024

    let channel: any Channel
    var eventLoop: any EventLoop { channel.eventLoop }

    private struct State {
        var queued: [Outgoing] = []
        /// A turn of the event loop is asked for and has not begun (`drain`).
        var scheduled = false
        /// Nothing more is written: the write buffer ended, or its connection is over (`end()`).
        var ended = false
        /// The battle finished the connection: the write buffer ends once what is queued is written.
        var finishing = false
    }
    private let state = Mutex(State())
    private let endings: AsyncStream<Ending>
    private let ended: AsyncStream<Ending>.Continuation

    package init(channel: any Channel) {
        self.channel = channel
        (endings, ended) = AsyncStream.makeStream(of: Ending.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Queues `message`. True when the caller must have the event loop `drain` this write buffer: the
    /// first message since the last turn began.
    func enqueue(_ message: Outgoing) -> Bool {
        state.withLock { state in
            guard !state.ended else { return false }
            state.queued.append(message)
            defer { state.scheduled = true }
            return !state.scheduled
        }
    }

    /// Queues `message` and asks the event loop for a turn when none is asked yet.
    package func send(_ message: Outgoing) {
        if enqueue(message) { eventLoop.execute { self.drain() } }
    }

    /// The battle is done with the connection: once what is queued is written, `ending()` says
    /// `finished`. True when the caller must have the event loop `drain` this write buffer.
    func finish() -> Bool {
        state.withLock { state in
            guard !state.ended else { return false }
            state.finishing = true
            defer { state.scheduled = true }
            return !state.scheduled
        }
    }

    /// On the channel's event loop: writes what is queued, flushes once, and ends the write buffer at a
    /// close, at the battle's finish, or when the reader falls `bufferLimit` bytes behind.
    func drain() {
        let (messages, finishing) = state.withLock { state -> ([Outgoing], Bool) in
            state.scheduled = false
            guard !state.ended else { return ([], false) }
            defer { state.queued = [] }
            return (state.queued, state.finishing)
        }
        var ending: Ending?
        var wrote = false
        writing: for message in messages {
            switch message {
            case let .text(text):
                channel.write(WebSocketFrame(fin: true, opcode: .text, data: channel.allocator.buffer(string: text)), promise: nil)
                wrote = true
            case let .close(code, reason):
                ending = .close(code: code, reason: reason)
                break writing
            }
        }
        if ending == nil, finishing { ending = .finished }
        if wrote {
            channel.flush()
            if !channel.isWritable, let buffered = try? channel.syncOptions?.getOption(.bufferedWritableBytes),
               buffered > Self.bufferLimit {
                ending = .tooSlow
            }
        }
        if let ending {
            state.withLock { $0.ended = true }
            ended.yield(ending)
            ended.finish()
        }
    }

    /// How the write buffer ended; nil when the waiting task is cancelled first.
    func ending() async -> Ending? {
        for await ending in endings { return ending }
        return nil
    }

    /// The connection is over: nothing queued or queued later is written (the WebSocket layer
    /// closes it next, and no message may follow its close frame).
    func end() {
        state.withLock { $0.ended = true }
        ended.finish()
    }
}
