import Testing
import TouchSchoolTestSupport
import TouchSchoolCore
import TouchSchoolTerminal

@Suite(.onOwnThreads) struct InputDecoderTests {
    /// The paste's quiet gap, in milliseconds.
    static let gap = InputDecoder.pasteQuietNanoseconds / 1_000_000

    /// Inputs in one burst, as a terminal writes them.
    func decode(_ inputs: [TerminalInput]) -> [GameEvent] {
        decode(inputs.map { (milliseconds: 0, input: $0) })
    }

    /// A timeline as the game loop sees it: each input at its time (in milliseconds), ticked then
    /// decoded; `nil`, a wait for input that ended without any.
    func decode(_ timeline: [(milliseconds: Int64, input: TerminalInput?)]) -> [GameEvent] {
        var decoder = InputDecoder()
        var events: [GameEvent] = []
        for (milliseconds, input) in timeline {
            let now = Instant.milliseconds(milliseconds)
            if let ended = decoder.tick(now: now) { events.append(ended) }
            if let input, let event = decoder.decode(input, now: now) { events.append(event) }
        }
        return events
    }

    @Test func controlCharactersAreKeys() {
        let events = decode([3, 9, 27, 10, 13, 127, 8].map { .character($0) })
        #expect(events == [.key(.interrupt), .key(.tab), .key(.escape), .key(.enter), .key(.enter), .key(.backspace), .key(.backspace)])
    }

    @Test func otherControlCharactersAreIgnored() {
        #expect(decode([1, 26, 0x1F, 0x85].map { .character($0) }).isEmpty)
    }

    @Test func printableCharactersHangulIncludedAreOneKeyEach() {
        let events = decode(["a", "Z", " ", "한", "ㅎ", "é"].map { .character(($0 as Unicode.Scalar).value) })
        #expect(events == [.key(.character("a")), .key(.character("Z")), .key(.character(" ")),
                           .key(.character("한")), .key(.character("ㅎ")), .key(.character("é"))])
    }

    @Test func specialKeys() {
        let keys: [TerminalKey] = [.up, .down, .left, .right, .pageUp, .pageDown, .home, .end, .f1, .f2, .backspace, .enter]
        let expected: [Key] = [.up, .down, .left, .right, .pageUp, .pageDown, .home, .end, .help, .chooseSchool, .backspace, .enter]
        #expect(decode(keys.map { .key($0) }) == expected.map { .key($0) })
    }

    @Test func clicksAndResizesPassThrough() {
        #expect(decode([.click(column: 3, row: 7), .resize(columns: 20, rows: 5)])
                == [.click(column: 3, row: 7), .resize(columns: 20, rows: 5)])
    }

    @Test func aBracketedPasteIsOneEventWithItsText() {
        let text: [TerminalInput] = "hi 한".unicodeScalars.map { .character($0.value) }
        let events = decode([.key(.pasteStart)] + text + [.character(13), .key(.enter), .key(.up), .character(27), .key(.pasteEnd), .character(0x61)])
        #expect(events == [.paste("hi 한\n\n\u{1B}"), .key(.character("a"))])
    }

    /// A paste whose end marker never comes would swallow every later key: Ctrl-C ends it (what
    /// was pasted is dropped, it was never taps) and still interrupts.
    @Test func controlCEndsAPasteAndInterrupts() {
        let events = decode([.key(.pasteStart), .character(0x61), .character(0x62), .character(3), .character(0x63)])
        #expect(events == [.key(.interrupt), .key(.character("c"))])
    }

    /// A paste that starts before the last one ended: the last one ends there, as a paste.
    @Test func aNewPasteEndsOneThatNeverEnded() {
        let events = decode([.key(.pasteStart), .character(0x61), .key(.pasteStart), .character(0x62), .key(.pasteEnd), .character(0x63)])
        #expect(events == [.paste("a"), .paste("b"), .key(.character("c"))])
    }

    @Test func aResizeDuringAPasteStillCounts() {
        let events = decode([.key(.pasteStart), .character(0x78), .resize(columns: 80, rows: 24), .key(.pasteEnd)])
        #expect(events == [.resize(columns: 80, rows: 24), .paste("x")])
    }

    @Test func aHugePasteIsCut() {
        let flood: [TerminalInput] = Array(repeating: .character(0x78), count: InputDecoder.maximumPasteLength + 500)
        let events = decode([.key(.pasteStart)] + flood + [.key(.pasteEnd)])
        #expect(events == [.paste(String(repeating: "x", count: InputDecoder.maximumPasteLength))])
    }

    /// A paste whose end marker never comes ends once it has had no input for the gap, not
    /// before: its text is one `.paste`, and the keys after it are taps again; the end marker,
    /// should it come late, is ignored.
    @Test func aPasteQuietForTheGapEnds() {
        var decoder = InputDecoder()
        let start = Instant.milliseconds(1_000)
        #expect(decoder.pasteDeadline == nil)
        #expect(decoder.decode(.key(.pasteStart), now: start) == nil)
        let last = start.adding(milliseconds: 2)
        #expect(decoder.decode(.character(0x61), now: start.adding(milliseconds: 1)) == nil)
        #expect(decoder.decode(.character(0x62), now: last) == nil)
        #expect(decoder.pasteDeadline == last.adding(milliseconds: Self.gap))
        #expect(decoder.tick(now: last.adding(milliseconds: Self.gap - 1)) == nil)
        #expect(decoder.tick(now: last.adding(milliseconds: Self.gap)) == .paste("ab"))
        #expect(decoder.pasteDeadline == nil)
        #expect(decoder.tick(now: last.adding(milliseconds: Self.gap + 1)) == nil)
        let later = last.adding(milliseconds: Self.gap + 100)
        #expect(decoder.decode(.character(0x63), now: later) == .key(.character("c")))
        #expect(decoder.decode(.key(.pasteEnd), now: later) == nil)
        #expect(decoder.decode(.character(0x64), now: later) == .key(.character("d")))
    }

    /// The gap is a silence, not a length: a paste whose pieces come just under the gap apart
    /// stays one paste, however long it takes.
    @Test func aSlowPasteIsNotCut() {
        let pieces: [(milliseconds: Int64, input: TerminalInput?)] = (1...10).flatMap { piece in
            let time = Int64(piece) * (Self.gap - 1)
            return [(time - 1, nil), (time, TerminalInput.character(0x30 + UInt32(piece % 10)))]
        }
        let end = 11 * (Self.gap - 1)
        let events = decode([(0, .key(.pasteStart))] + pieces + [(end, .key(.pasteEnd)), (end, .character(0x78))])
        #expect(events == [.paste("1234567890"), .key(.character("x"))])
    }

    /// A key that comes after the gap, with no wait in between to end the paste (a busy machine,
    /// Ctrl-Z and `fg`): the paste ends first, and the key is a tap.
    @Test func aKeyAfterTheGapIsATapEvenWithoutAWaitBetween() {
        let events = decode([(0, .key(.pasteStart)), (1, .character(0x61)), (1 + Self.gap, .character(0x62))])
        #expect(events == [.paste("a"), .key(.character("b"))])
    }
}
