import Foundation
import Testing
import TouchSchoolProtocol

/// The wire format as docs/protocol.md writes it: these texts are what another client sends.
@Suite struct MessageCodingTests {
    @Test func aClientsMessagesReadAsDocumented() throws {
        #expect(try MessageCoding.decodeClient(#"{"type":"hello","protocol":1,"device":"abc","player":"kim"}"#)
            == .hello(Hello(protocol: 1, device: "abc", player: "kim")))
        #expect(try MessageCoding.decodeClient(#"{"type":"ping"}"#) == .ping)
        let batch = try MessageCoding.decodeClient(
            #"{"type":"taps","seq":3,"taps":{"B000011793":12},"playerTaps":12,"best":9,"startMs":1000,"endMs":1900}"#)
        #expect(batch == .taps(TapBatch(seq: 3, taps: ["B000011793": 12], playerTaps: 12, best: 9, startMs: 1000, endMs: 1900)))
    }

    @Test func theServersMessagesAreTheSameBytesEveryTime() {
        let board = ServerMessage.board(BoardChanges(version: 7, scores: ["S2": 5, "S1": 3]))
        #expect(MessageCoding.encode(board) == #"{"scores":{"S1":3,"S2":5},"type":"board","version":7}"#)
        let ack = ServerMessage.ack(Acknowledgement(seq: 2, accepted: 10, refused: 1, player: PlayerState(school: "S1", taps: 10, best: 4)))
        #expect(MessageCoding.encode(ack)
            == #"{"accepted":10,"player":{"best":4,"school":"S1","taps":10},"refused":1,"seq":2,"type":"ack"}"#)
    }

    @Test func badMessagesSayWhyWithTheCloseCode() {
        let cases: [(String, UInt16)] = [
            ("not json", CloseCode.policyViolation),
            (#"{"type":"dance"}"#, CloseCode.policyViolation),
            (#"{"type":"taps","seq":-1,"taps":{},"playerTaps":0,"best":0,"startMs":0,"endMs":0}"#, CloseCode.policyViolation),
            (#"{"type":"hello","protocol":1}"#, CloseCode.policyViolation),
            (String(repeating: " ", count: PlayProtocol.maximumClientMessageBytes + 1), CloseCode.messageTooBig),
        ]
        for (text, code) in cases {
            #expect(throws: MessageError.self) { try MessageCoding.decodeClient(text) }
            do { _ = try MessageCoding.decodeClient(text) } catch { #expect(error.code == code, "\(text.prefix(40)): \(error)") }
        }
    }
}
