import Foundation
import Testing
import TouchSchoolTestSupport
import TouchSchoolProtocol

/// The wire format as docs/protocol.md writes it: these texts are what another client sends.
@Suite(.onOwnThreads) struct MessageCodingTests {
    @Test func aClientsMessagesReadAsDocumented() throws {
        #expect(try MessageCoding.decodeClient(#"{"type":"hello","protocol":1,"device":"abc","player":"kim"}"#)
            == .hello(Hello(protocol: 1, device: "abc", player: "kim")))
        // What plays, for the operator's list: said by this version's clients, optional, and a
        // kind this version does not know is still a hello (the server takes it as none).
        #expect(try MessageCoding.decodeClient(#"{"type":"hello","protocol":1,"device":"abc","player":"kim","client":"web"}"#)
            == .hello(Hello(protocol: 1, device: "abc", player: "kim", client: .web)))
        #expect(try MessageCoding.decodeClient(#"{"type":"hello","protocol":1,"device":"abc","player":"kim","client":"fridge"}"#)
            == .hello(Hello(protocol: 1, device: "abc", player: "kim", client: nil).with(client: "fridge")))
        #expect(try MessageCoding.decodeClient(#"{"type":"ping"}"#) == .ping)
        let batch = try MessageCoding.decodeClient(
            #"{"type":"taps","seq":3,"taps":{"B000011793":12},"playerTaps":12,"best":9,"startMs":1000,"endMs":1900}"#)
        #expect(batch == .taps(TapBatch(seq: 3, taps: ["B000011793": 12], playerTaps: 12, bestTapsPerSecond: 9, startMs: 1000, endMs: 1900)))
    }

    @Test func theServersMessagesAreTheSameBytesEveryTime() {
        let board = ServerMessage.board(BoardChanges(version: 7, scores: ["S2": 5, "S1": 3]))
        #expect(MessageCoding.encode(board) == #"{"scores":{"S1":3,"S2":5},"type":"board","version":7}"#)
        let ack = ServerMessage.ack(Acknowledgement(seq: 2, accepted: 10, refused: 1, player: PlayerState(schoolID: "S1", taps: 10, bestTapsPerSecond: 4)))
        #expect(MessageCoding.encode(ack)
            == #"{"accepted":10,"player":{"best":4,"school":"S1","taps":10},"refused":1,"seq":2,"type":"ack"}"#)
    }

    /// The server writes its welcome with the board encoded once per version: the same bytes as
    /// the welcome encoded whole, as written here.
    @Test func aWelcomeWithItsBoardEncodedApartIsTheWelcome() throws {
        let player = PlayerState(schoolID: nil, taps: 0, bestTapsPerSecond: 0)
        let expected = #"{"battle":"3f2a9c0d8e7b4a1f","board":{"scores":{"S1":3,"S2":5},"version":7},"catalog":"\"c1\"","#
            + #""lastSeq":4,"player":{"best":0,"taps":0},"protocol":1,"type":"welcome"}"#
        let whole = MessageCoding.encode(.welcome(Welcome(battle: "3f2a9c0d8e7b4a1f", lastSeq: 4, board: Board(version: 7, scores: ["S2": 5, "S1": 3]),
                                                          player: player, catalog: "\"c1\"")))
        #expect(whole == expected)
        let apart = MessageCoding.encodeWelcome(battle: "3f2a9c0d8e7b4a1f", lastSeq: 4, player: player, catalog: "\"c1\"",
                                                encodedBoard: #"{"scores":{"S1":3,"S2":5},"version":7}"#)
        #expect(apart == expected)
        #expect(try MessageCoding.decodeServer(apart) == MessageCoding.decodeServer(whole))
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

extension Hello {
    func with(client: String) -> Hello {
        var hello = self
        hello.client = client
        return hello
    }
}
