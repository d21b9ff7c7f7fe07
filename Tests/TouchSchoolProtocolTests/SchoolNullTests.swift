import Testing
import TouchSchoolTestSupport
import TouchSchoolProtocol

/// A player without a school is `"school": null` in `welcome.player` and `ack.player`, as
/// docs/protocol.md writes them (`{"school": id | null, …}`), not a key left out: a client that
/// reads the documented shape finds the key.
@Suite(.onOwnThreads) struct SchoolNullTests {
    static let none = PlayerState(schoolID: nil, taps: 0, bestTapsPerSecond: 0)

    @Test func aPlayerWithoutASchoolIsNullInTheWelcomeAndTheAck() throws {
        let welcome = MessageCoding.encode(.welcome(Welcome(battle: "3f2a9c0d8e7b4a1f", lastSeq: 0, player: Self.none, catalog: "\"c1\"")))
        #expect(welcome.contains(#""player":{"best":0,"school":null,"taps":0}"#), "\(welcome)")
        let ack = Acknowledgement(seq: 1, accepted: 3, refused: 0, player: Self.none)
        let expected = #"{"accepted":3,"player":{"best":0,"school":null,"taps":0},"refused":0,"seq":1,"type":"ack"}"#
        #expect(MessageCoding.encode(.ack(ack)) == expected)
        #expect(MessageCoding.encodeAck(ack) == expected)
        // And read back as none, as an older server's message without the key is.
        #expect(try MessageCoding.decodeServer(expected) == .ack(ack))
        #expect(try MessageCoding.decodeServer(#"{"accepted":3,"player":{"best":0,"taps":0},"refused":0,"seq":1,"type":"ack"}"#) == .ack(ack))
    }
}
