import Foundation
import Testing
import TouchSchoolCore
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
        let ack = ServerMessage.ack(Acknowledgement(seq: 2, accepted: 10, refused: 1, player: PlayerState(schoolID: "S1", taps: 10, bestTapsPerSecond: 4)))
        #expect(MessageCoding.encode(ack)
            == #"{"accepted":10,"player":{"best":4,"school":"S1","taps":10},"refused":1,"seq":2,"type":"ack"}"#)
    }

    /// The welcome has no board; protocol 2's messages are as docs/protocol.md writes them, and
    /// the server's own encodings (without JSONEncoder) are the same bytes as the encoder's.
    @Test func protocolTwosMessagesReadAsDocumented() throws {
        let player = PlayerState(schoolID: "B000012052", taps: 3, bestTapsPerSecond: 2)
        let welcome = MessageCoding.encode(.welcome(Welcome(battle: "3f2a9c0d8e7b4a1f", lastSeq: 4, player: player, catalog: "\"c1\"")))
        #expect(welcome == #"{"battle":"3f2a9c0d8e7b4a1f","catalog":"\"c1\"","lastSeq":4,"player":{"best":2,"school":"B000012052","taps":3},"#
            + #""protocol":2,"type":"welcome"}"#)
        #expect(try MessageCoding.decodeServer(welcome) == .welcome(Welcome(protocol: 2, battle: "3f2a9c0d8e7b4a1f", lastSeq: 4,
                                                                             player: player, catalog: "\"c1\"")))

        let view = SchoolViewMessage(
            version: 41, school: "B000012052", total: 120,
            ranks: [Standing(rank: 5, size: 12011, gap: 3), Standing(rank: 2, size: 2376, gap: 3), Standing(rank: 1, size: 1, gap: nil),
                    Standing(rank: 1, size: 1, gap: nil)],
            above: [RankedRow(rank: 3, school: "B1", total: 130), RankedRow(rank: 4, school: "B2", total: 123)],
            below: [RankedRow(rank: 6, school: "B3", total: 120)],
            top: [RankedRow(rank: 1, school: "B9", total: 900)]
        )
        let text = #"{"above":[[3,"B1",130],[4,"B2",123]],"below":[[6,"B3",120]],"#
            + #""ranks":[[5,12011,3],[2,2376,3],[1,1,null],[1,1,null]],"school":"B000012052","top":[[1,"B9",900]],"#
            + #""total":120,"type":"view","version":41}"#
        #expect(MessageCoding.encodeSchoolView(view) == text)
        #expect(MessageCoding.encode(.schoolView(view)) == text)
        #expect(try MessageCoding.decodeServer(text) == .schoolView(view))

        let page = PageMessage(version: 9, league: LeagueName(level: "high", province: "서울특별시"), from: 20, size: 321,
                               rows: [RankedRow(rank: 21, school: "B5", total: 8)])
        let pageText = #"{"from":20,"league":{"level":"high","province":"서울특별시"},"rows":[[21,"B5",8]],"size":321,"type":"page","version":9}"#
        #expect(MessageCoding.encodePage(page) == pageText)
        #expect(MessageCoding.encode(.page(page)) == pageText)
        #expect(try MessageCoding.decodeServer(pageText) == .page(page))
        let national = PageMessage(version: 1, league: LeagueName(), from: 0, size: 0, rows: [])
        #expect(MessageCoding.encodePage(national) == MessageCoding.encode(.page(national)))
        // A province needing escapes goes through the encoder.
        let odd = PageMessage(version: 1, league: LeagueName(province: "a\"b\n"), from: 0, size: 0, rows: [])
        #expect(MessageCoding.encodePage(odd) == MessageCoding.encode(.page(odd)))

        #expect(try MessageCoding.decodeClient(#"{"type":"watch","league":{"level":"high"},"from":0,"count":20}"#)
            == .watch(Watch(league: LeagueName(level: "high"), from: 0, count: 20)))
        #expect(try MessageCoding.decodeClient(#"{"type":"watch"}"#) == .watch(Watch(league: nil)))
        // The map shown, or no longer (issue 50).
        #expect(try MessageCoding.decodeClient(#"{"type":"map","show":true}"#) == .showMap(true))
        #expect(try MessageCoding.decodeClient(#"{"type":"map","show":false}"#) == .showMap(false))
        #expect(MessageCoding.encode(.showMap(true)) == #"{"show":true,"type":"map"}"#)
        #expect(throws: MessageError.self) { try MessageCoding.decodeClient(#"{"type":"map"}"#) }
    }

    /// The hand encoders (view, page, ack) write the bytes JSONEncoder writes, for any numbers (0, 9, 10, the
    /// largest) and any ids (escapes included), with every league's members present or not.
    @Test func theHandEncodersWriteWhatJSONEncoderWrites() {
        var random = SystemRandomNumberGenerator()
        let numbers: [UInt64] = [0, 1, 9, 10, 99, 100, 12011, 4_294_967_296, UInt64.max]
        let ids = ["B000012052", "a\"b", "tab\there", "한빛고", "\\", "x\u{7F}"]
        func number() -> UInt64 { Bool.random(using: &random) ? numbers.randomElement(using: &random)! : UInt64.random(in: 0...UInt64.max, using: &random) }
        func rows() -> [RankedRow] {
            (0..<Int.random(in: 0...3, using: &random)).map { _ in
                RankedRow(rank: Int(number() % 1_000_000), school: ids.randomElement(using: &random)!, total: number())
            }
        }
        for _ in 0..<300 {
            let view = SchoolViewMessage(
                version: number(), school: ids.randomElement(using: &random)!, total: number(),
                ranks: (0..<4).map { _ in Standing(rank: Int(number() % 100_000), size: Int(number() % 100_000), gap: Bool.random() ? nil : number()) },
                above: rows(), below: rows(), top: rows())
            #expect(MessageCoding.encodeSchoolView(view) == MessageCoding.encode(.schoolView(view)))
            let league = LeagueName(level: Bool.random() ? nil : "middle", province: Bool.random() ? nil : ids.randomElement(using: &random)!)
            let page = PageMessage(version: number(), league: league, from: Int(number() % 100_000), size: Int(number() % 100_000), rows: rows())
            #expect(MessageCoding.encodePage(page) == MessageCoding.encode(.page(page)))
            let ack = Acknowledgement(seq: number(), accepted: number(), refused: number(),
                                      player: PlayerState(schoolID: Bool.random() ? nil : ids.randomElement(using: &random)!, taps: number(),
                                                          bestTapsPerSecond: Int(number() % 100)),
                                      banned: [nil, true, false].randomElement(using: &random)!)
            #expect(MessageCoding.encodeAck(ack) == MessageCoding.encode(.ack(ack)))
        }
    }

    /// Rounds on the wire (docs/protocol.md, "Rounds"): the round as JSON with its place left out
    /// while there is none; the place written by hand as JSONEncoder writes it; the server's
    /// clock in `pong`, which an older server's `pong` lacks.
    @Test func theRoundsMessagesReadAsDocumented() throws {
        #expect(try MessageCoding.decodeServer(#"{"type":"round","id":3,"title":"3반","startsAtMs":100,"endsAtMs":200,"graceMs":5000,"nowMs":90,"count":0,"players":0,"final":false}"#)
            == .round(RoundMessage(id: 3, title: "3반", startsAtMs: 100, endsAtMs: 200, graceMs: 5000, nowMs: 90, place: nil, count: 0, players: 0,
                                   final: false)))
        #expect(try MessageCoding.decodeServer(#"{"type":"roundPlace","id":3,"place":2,"count":57,"players":12,"final":true}"#)
            == .roundPlace(RoundStanding(id: 3, place: 2, count: 57, players: 12, final: true)))
        #expect(MessageCoding.encode(.pong(nowMs: 1_795_000_000_123)) == #"{"nowMs":1795000000123,"type":"pong"}"#)
        #expect(try MessageCoding.decodeServer(#"{"type":"pong"}"#) == .pong(nowMs: nil))
        #expect(MessageCoding.encode(.roundPlace(RoundStanding(id: 3, place: nil, count: 0, players: 4, final: false)))
            == #"{"count":0,"final":false,"id":3,"players":4,"type":"roundPlace"}"#)
        // A shared place: "tied" only then, in the round too.
        #expect(MessageCoding.encode(.roundPlace(RoundStanding(id: 3, place: 1, tied: true, count: 150, players: 3, final: true)))
            == #"{"count":150,"final":true,"id":3,"place":1,"players":3,"tied":true,"type":"roundPlace"}"#)
        #expect(try MessageCoding.decodeServer(#"{"type":"roundPlace","id":3,"place":1,"tied":true,"count":150,"players":3,"final":true}"#)
            == .roundPlace(RoundStanding(id: 3, place: 1, tied: true, count: 150, players: 3, final: true)))
        #expect(try MessageCoding.decodeServer(#"{"type":"round","id":3,"startsAtMs":100,"endsAtMs":200,"graceMs":5000,"nowMs":90,"place":1,"tied":true,"count":150,"players":3,"final":true}"#)
            == .round(RoundMessage(id: 3, title: nil, startsAtMs: 100, endsAtMs: 200, graceMs: 5000, nowMs: 90, place: 1, tied: true, count: 150,
                                   players: 3, final: true)))
        var random = SystemRandomNumberGenerator()
        let numbers: [Int64] = [0, 1, 9, 10, 99, 100, Int64(Int32.max), Int64.max]
        for _ in 0..<300 {
            let place = RoundStanding(id: numbers.randomElement(using: &random)!, place: Bool.random() ? nil : Int(numbers.randomElement(using: &random)!),
                                          tied: Bool.random(using: &random),
                                          count: UInt64.random(in: 0...UInt64.max, using: &random), players: Int.random(in: 0...100_000, using: &random),
                                          final: Bool.random(using: &random))
            #expect(MessageCoding.encodeRoundPlace(place) == MessageCoding.encode(.roundPlace(place)))
        }
    }

    /// The map's messages (docs/protocol.md, "The map"): its example read as written, three
    /// digits a cell and its glow; a `cells` of other characters or lengths is no message.
    @Test func theMapsMessagesReadAsDocumented() throws {
        let first = MapReport(catalog: "7f25…-4165119", marks: [9885, 2708, 14435],
                              cells: [MapCellGlow(cell: 9885, glow: 3), MapCellGlow(cell: 14435, glow: 3), MapCellGlow(cell: 2708, glow: 3)],
                              whole: true)
        #expect(try MessageCoding.decodeServer(#"{"type":"map","catalog":"7f25…-4165119","marks":[9885,2708,14435],"cells":"Jp3OGPCpT","whole":true}"#)
            == .map(first))
        let next = MapReport(marks: [9885, 2708, 14435], mine: 2708, cells: [MapCellGlow(cell: 9885, glow: 2)])
        #expect(try MessageCoding.decodeServer(#"{"type":"map","marks":[9885,2708,14435],"mine":2708,"cells":"Jp2"}"#) == .map(next))
        for report in [first, next, MapReport(marks: [], cells: [])] {
            #expect(try MessageCoding.decodeServer(MessageCoding.encode(.map(report))) == .map(report))
        }
        for cells in ["Jp", "Jp*", "Jp3O"] {
            #expect(throws: MessageError.self) { try MessageCoding.decodeServer(#"{"type":"map","marks":[],"cells":""# + cells + #""}"#) }
        }
    }

    /// docs/protocol.md, "Seasons on the screens": the `season` message and `watch`'s `period`.
    @Test func theSeasonsMessagesReadAsDocumented() throws {
        let week = try #require(Season.numbered(.week, 2960))
        let text = #"{"type":"season","season":{"id":"week-2960","length":"week","number":2960,"startsAtMs":1790521200000,"#
            + #""endsAtMs":1791126000000,"graceMs":5000}}"#
        #expect(try MessageCoding.decodeServer(text) == .season(SeasonAnswer.Summary(week)))
        #expect(try MessageCoding.decodeServer(#"{"type":"season","season":null}"#) == .season(nil))
        for season in [SeasonAnswer.Summary(week), nil] {
            #expect(try MessageCoding.decodeServer(MessageCoding.encode(.season(season))) == .season(season))
        }
        #expect(MessageCoding.encode(.season(nil)) == #"{"season":null,"type":"season"}"#)
        #expect(try MessageCoding.decodeClient(#"{"type":"watch","period":"all"}"#) == .watch(Watch(league: nil, period: .allTime)))
        #expect(try MessageCoding.decodeClient(#"{"type":"watch","league":{},"from":0,"count":3,"period":"season"}"#)
            == .watch(Watch(league: LeagueName(), from: 0, count: 3)))
        // The season is the default and left out: what a client of before seasons sends means it.
        #expect(MessageCoding.encode(.watch(Watch(league: LeagueName(), from: 0, count: 3))) == #"{"count":3,"from":0,"league":{},"type":"watch"}"#)
        #expect(MessageCoding.encode(.watch(Watch(league: nil, period: .allTime))) == #"{"period":"all","type":"watch"}"#)
        do { _ = try MessageCoding.decodeClient(#"{"type":"watch","period":"year"}"#); Issue.record("a period of a year was read") } catch {
            #expect(error.code == CloseCode.policyViolation)
        }
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
