import Testing
import TouchSchoolTestSupport
import TouchSchoolTerminal

@Suite(.onOwnThreads) struct EscapeSequenceReaderTests {
    func read(_ packets: [String]) -> [TerminalInput] {
        var reader = EscapeSequenceReader()
        return packets.flatMap { reader.read(Array($0.utf8)) }
    }

    func read(_ text: String) -> [TerminalInput] { read([text]) }

    func characters(_ text: String) -> [TerminalInput] { text.unicodeScalars.map { .character($0.value) } }

    @Test func typedTextIsItsCharactersHangulIncluded() {
        #expect(read("a민사고ㅁ\r") == characters("a민사고ㅁ\r"))
    }

    @Test func aCharacterCutBetweenTwoPacketsIsReadWhole() {
        let bytes = Array("민".utf8)
        var reader = EscapeSequenceReader()
        #expect(reader.read(bytes.prefix(1)).isEmpty)
        #expect(reader.read(bytes.dropFirst(1).prefix(1)).isEmpty)
        #expect(reader.read(bytes.dropFirst(2)) == characters("민"))
    }

    @Test func arrowsInBothCursorModesAndTheOtherKeys() {
        #expect(read("\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D") == [.key(.up), .key(.down), .key(.right), .key(.left)])
        #expect(read("\u{1B}OA\u{1B}OB\u{1B}OC\u{1B}OD") == [.key(.up), .key(.down), .key(.right), .key(.left)])
        #expect(read("\u{1B}[5~\u{1B}[6~\u{1B}[H\u{1B}[F\u{1B}[1~\u{1B}[4~")
            == [.key(.pageUp), .key(.pageDown), .key(.home), .key(.end), .key(.home), .key(.end)])
        #expect(read("\u{1B}OP\u{1B}OQ\u{1B}[11~\u{1B}[12~\u{1B}[[A") == [.key(.f1), .key(.f2), .key(.f1), .key(.f2), .key(.f1)])
        // Ctrl-Up is an arrow to the game.
        #expect(read("\u{1B}[1;5A") == [.key(.up)])
    }

    @Test func escAloneAtTheEndOfAPacketIsTheEscKey() {
        #expect(read("\u{1B}") == [.character(27)])
        #expect(read(["\u{1B}", "a"]) == [.character(27), .character(97)])
        // Esc then a key in one packet (Alt held): Esc, then the key.
        #expect(read("\u{1B}x") == [.character(27), .character(120)])
    }

    /// Esc pressed twice, quickly (one packet) or not (two): two Esc keys, the second never taken
    /// for the start of a sequence.
    @Test func escTwiceIsTwoEscKeys() {
        #expect(read("\u{1B}\u{1B}") == [.character(27), .character(27)])
        #expect(read(["\u{1B}", "\u{1B}"]) == [.character(27), .character(27)])
        #expect(read("\u{1B}\u{1B}[A") == [.character(27), .key(.up)])
    }

    @Test func aSequenceCutBetweenTwoPacketsIsReadWhole() {
        #expect(read(["\u{1B}[20", "1~"]) == [.key(.pasteEnd)])
    }

    @Test func bracketedPasteMarksItsText() {
        #expect(read("\u{1B}[200~hi\u{1B}[201~") == [.key(.pasteStart)] + characters("hi") + [.key(.pasteEnd)])
    }

    @Test func aLeftClickIsAClickAndOtherMouseReportsAreNothing() {
        #expect(read("\u{1B}[<0;5;3M") == [.click(column: 4, row: 2)])
        #expect(read("\u{1B}[<0;5;3m\u{1B}[<64;5;3M\u{1B}[<2;5;3M").isEmpty)
    }

    @Test func unknownAndOverlongSequencesAreDroppedAndReadingGoesOn() {
        #expect(read("\u{1B}[3~x") == [.character(120)])
        let overlong = "\u{1B}[" + String(repeating: "1", count: 100) + "x"
        let inputs = read(overlong)
        #expect(!inputs.contains(.key(.up)))
        #expect(inputs.last == .character(120))
    }

    @Test func invalidUTF8IsSkipped() {
        var reader = EscapeSequenceReader()
        #expect(reader.read([0xFF, 0x80, 0x61]) == [.character(0x61)])
        #expect(reader.read([0xE0, 0x61]) == [.character(0x61)])
    }
}
