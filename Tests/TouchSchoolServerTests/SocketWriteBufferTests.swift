import NIOCore
import NIOEmbedded
import NIOWebSocket
import Testing
@testable import TouchSchoolServer

/// A play socket's write buffer on a channel whose event loop turns when the test says.
struct SocketWriteBufferTests {
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
        let buffer = SocketWriteBuffer(channel: channel)
        buffer.send(.text("welcome"))
        // The hall's messages of the same turn ride on the turn already asked for.
        #expect(!buffer.enqueue(.text("ack")))
        buffer.send(.text("view"))
        #expect(try written(channel).isEmpty, "nothing before the loop's turn")
        channel.embeddedEventLoop.run()
        #expect(try written(channel) == ["welcome", "ack", "view"])
        #expect(buffer.enqueue(.text("next")), "a message after the turn asks for another")
        buffer.drain()
        #expect(try written(channel) == ["next"])
    }

    @Test func aCloseEndsTheBufferAfterTheMessagesBeforeItAndNothingAfterIsWritten() async throws {
        let channel = EmbeddedChannel()
        let buffer = SocketWriteBuffer(channel: channel)
        buffer.send(.text("error"))
        buffer.send(.close(code: 1008, reason: "protocol violation"))
        buffer.send(.text("after the close"))
        channel.embeddedEventLoop.run()
        #expect(try written(channel) == ["error"])
        #expect(await buffer.ending() == .close(code: 1008, reason: "protocol violation"))
        #expect(!buffer.enqueue(.text("later")))
        buffer.drain()
        #expect(try written(channel).isEmpty)
    }

    @Test func theBattlesFinishComesAfterWhatItQueuedBefore() async throws {
        let channel = EmbeddedChannel()
        let buffer = SocketWriteBuffer(channel: channel)
        #expect(buffer.enqueue(.text("last view")))
        #expect(!buffer.finish(), "the turn asked for the view takes the finish too")
        buffer.drain()
        #expect(try written(channel) == ["last view"])
        #expect(await buffer.ending() == .finished)
    }

    @Test func aConnectionOverWritesNothingMoreEvenWhatWasQueued() async throws {
        let channel = EmbeddedChannel()
        let buffer = SocketWriteBuffer(channel: channel)
        buffer.send(.text("queued before the end"))
        buffer.end()
        channel.embeddedEventLoop.run()
        #expect(try written(channel).isEmpty)
        #expect(await buffer.ending() == nil)
    }
}
