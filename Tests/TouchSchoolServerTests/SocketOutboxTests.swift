import NIOCore
import NIOEmbedded
import NIOWebSocket
import Testing
@testable import TouchSchoolServer

/// A play socket's outbox on a channel whose event loop turns when the test says.
struct SocketOutboxTests {
    /// The text frames the channel wrote since the last look, in order.
    private func written(_ channel: EmbeddedChannel) throws -> [String] {
        var texts: [String] = []
        while let frame = try channel.readOutbound(as: WebSocketFrame.self) {
            #expect(frame.opcode == .text && frame.fin)
            texts.append(String(buffer: frame.data))
        }
        return texts
    }

    @Test func messagesAreWrittenInTheOrderQueuedAtTheLoopsNextTurn() throws {
        let channel = EmbeddedChannel()
        let outbox = SocketOutbox(channel: channel)
        outbox.send(.text("welcome"))
        // The hall's messages of the same turn ride on the turn already asked for.
        #expect(!outbox.enqueue(.text("ack")))
        outbox.send(.text("view"))
        #expect(try written(channel).isEmpty, "nothing before the loop's turn")
        channel.embeddedEventLoop.run()
        #expect(try written(channel) == ["welcome", "ack", "view"])
        #expect(outbox.enqueue(.text("next")), "a message after the turn asks for another")
        outbox.drain()
        #expect(try written(channel) == ["next"])
    }

    @Test func aCloseEndsTheOutboxAfterTheMessagesBeforeItAndNothingAfterIsWritten() async throws {
        let channel = EmbeddedChannel()
        let outbox = SocketOutbox(channel: channel)
        outbox.send(.text("error"))
        outbox.send(.close(code: 1008, reason: "protocol violation"))
        outbox.send(.text("after the close"))
        channel.embeddedEventLoop.run()
        #expect(try written(channel) == ["error"])
        #expect(await outbox.ending() == .close(code: 1008, reason: "protocol violation"))
        #expect(!outbox.enqueue(.text("later")))
        outbox.drain()
        #expect(try written(channel).isEmpty)
    }

    @Test func theBattlesFinishComesAfterWhatItQueuedBefore() async throws {
        let channel = EmbeddedChannel()
        let outbox = SocketOutbox(channel: channel)
        #expect(outbox.enqueue(.text("last view")))
        #expect(!outbox.finish(), "the turn asked for the view takes the finish too")
        outbox.drain()
        #expect(try written(channel) == ["last view"])
        #expect(await outbox.ending() == .finished)
    }

    @Test func aConnectionOverWritesNothingMoreEvenWhatWasQueued() async throws {
        let channel = EmbeddedChannel()
        let outbox = SocketOutbox(channel: channel)
        outbox.send(.text("queued before the end"))
        outbox.end()
        channel.embeddedEventLoop.run()
        #expect(try written(channel).isEmpty)
        #expect(await outbox.ending() == nil)
    }
}
