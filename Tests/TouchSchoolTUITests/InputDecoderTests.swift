import Testing
import TouchSchoolCore
@testable import TouchSchoolCommandLine

@Suite struct InputDecoderTests {
    func decode(_ inputs: [TerminalInput]) -> [GameEvent] {
        var decoder = InputDecoder()
        return inputs.compactMap { decoder.decode($0) }
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
}
