import Testing
import TouchSchoolTestSupport
@testable import TouchSchoolCore

@Suite(.onOwnThreads) struct HangulTests {
    private func scalar(_ text: String) -> UInt32 { text.unicodeScalars.first!.value }
    private func string(_ scalars: [UInt32]) -> String {
        var text = ""
        text.unicodeScalars.append(contentsOf: scalars.compactMap(Unicode.Scalar.init))
        return text
    }

    @Test func decomposesAndComposesSyllables() throws {
        let 휘 = try #require(Hangul.decompose(scalar("휘")))
        #expect(휘 == Hangul.Syllable(lead: 18, vowel: 16, tail: 0))
        let 닭 = try #require(Hangul.decompose(scalar("닭")))
        #expect(닭.tail == 9)
        #expect(Hangul.compose(닭) == scalar("닭"))
        #expect(Hangul.decompose(scalar("a")) == nil)
        #expect(Hangul.decompose(scalar("ㄱ")) == nil)
        for value in Hangul.syllableBase..<(Hangul.syllableBase + Hangul.syllableCount) {
            #expect(Hangul.compose(Hangul.decompose(value)!) == value)
        }
    }

    @Test func initialConsonantIsACompatibilityJamo() {
        #expect(string("휘문고등학교".unicodeScalars.map { Hangul.initialConsonant(of: $0.value) }) == "ㅎㅁㄱㄷㅎㄱ")
        #expect(Hangul.initialConsonant(of: scalar("까")) == scalar("ㄲ"))
        #expect(Hangul.initialConsonant(of: scalar("x")) == scalar("x"))
        #expect(Hangul.isLeadConsonant(scalar("ㅆ")))
        #expect(!Hangul.isLeadConsonant(scalar("ㄳ")))
        #expect(!Hangul.isLeadConsonant(scalar("ㅏ")))
    }

    @Test func composesDecomposedText() {
        // 휘문 in NFD: conjoining lead, vowel, tail.
        let nfd: [UInt32] = [0x1112, 0x1171, 0x1106, 0x116E, 0x11AB]
        #expect(string(Hangul.composeConjoining(nfd)) == "휘문")
        // A precomposed open syllable followed by a conjoining 받침.
        #expect(string(Hangul.composeConjoining([scalar("무"), 0x11AB])) == "문")
        // A lone conjoining jamo becomes its compatibility jamo; other text passes through.
        #expect(string(Hangul.composeConjoining([0x1112, scalar("a"), 0x1161])) == "ㅎaㅏ")
    }

    @Test func typesTwoBeolsikKeys() {
        #expect(Hangul.fromTwoBeolsikKeys("gnlansrh") == "휘문고")
        #expect(Hangul.fromTwoBeolsikKeys("tjdnfrh") == "서울고")
        #expect(Hangul.fromTwoBeolsikKeys("rudrlrhkgkrrh") == "경기과학고")
        // Shift letters: ㅃ ㅉ ㄸ ㄲ ㅆ ㅒ ㅖ; other capitals type as small letters.
        #expect(Hangul.fromTwoBeolsikKeys("QWERT") == "ㅃㅉㄸㄲㅆ")
        #expect(Hangul.fromTwoBeolsikKeys("dOdP") == "얘예")
        #expect(Hangul.fromTwoBeolsikKeys("Rhc") == "꽃")
        #expect(Hangul.fromTwoBeolsikKeys("GNLANSrH") == "휘문고")
        #expect(Hangul.fromTwoBeolsikKeys("GNLANSRH") == "휘문꼬")
        #expect(Hangul.fromTwoBeolsikKeys("dPtjd") == "예성")
    }

    @Test func composesDoubleFinalsAndDoubleVowels() {
        #expect(Hangul.fromTwoBeolsikKeys("ekfr") == "닭")
        #expect(Hangul.fromTwoBeolsikKeys("dksg") == "않")
        #expect(Hangul.fromTwoBeolsikKeys("qkfq") == "밟")
        #expect(Hangul.fromTwoBeolsikKeys("dhk") == "와")
        #expect(Hangul.fromTwoBeolsikKeys("dho") == "왜")
        #expect(Hangul.fromTwoBeolsikKeys("dnj") == "워")
        #expect(Hangul.fromTwoBeolsikKeys("dml") == "의")
    }

    @Test func finalConsonantMovesToTheNextSyllable() {
        #expect(Hangul.fromTwoBeolsikKeys("dkssud") == "안녕")
        #expect(Hangul.fromTwoBeolsikKeys("rkrk") == "가가")
        // Of a 겹받침, the second half moves: 닭 + ㅏ → 달가.
        #expect(Hangul.fromTwoBeolsikKeys("ekfrk") == "달가")
        #expect(Hangul.fromTwoBeolsikKeys("ekfrdk") == "닭아")
        // ㄸ cannot be a 받침: it begins the next syllable.
        #expect(Hangul.fromTwoBeolsikKeys("dkEk") == "아따")
    }

    @Test func leavesLoneJamoAndOtherTextAlone() {
        #expect(Hangul.fromTwoBeolsikKeys("gar") == "ㅎㅁㄱ")
        #expect(Hangul.fromTwoBeolsikKeys("k") == "ㅏ")
        #expect(Hangul.fromTwoBeolsikKeys("tjdnf 1rh!") == "서울 1고!")
        #expect(Hangul.fromTwoBeolsikKeys("서울rh") == "서울고")
        #expect(Hangul.fromTwoBeolsikKeys("") == "")
    }

    @Test func encodesKeys() {
        #expect(Hangul.twoBeolsikKeys(for: "휘문고") == "gnlansrh")
        #expect(Hangul.twoBeolsikKeys(for: "닭꽃") == "ekfrRhc")
        #expect(Hangul.twoBeolsikKeys(for: "서울 1") == "tjdnf 1")
    }

    /// Any text of whole syllables survives a trip through the keyboard: the automaton's
    /// 받침-moving rule never splits a syllable wrongly.
    @Test func keyboardRoundTripsRandomSyllables() {
        var random = RandomSource(seed: 0x5EED_0001)
        for _ in 0..<5000 {
            let length = Int.random(in: 1...8, using: &random)
            let text = string((0..<length).map { _ in
                Hangul.syllableBase + UInt32.random(in: 0..<Hangul.syllableCount, using: &random)
            })
            let keys = Hangul.twoBeolsikKeys(for: text)
            #expect(keys.allSatisfy { $0.isASCII })
            #expect(Hangul.fromTwoBeolsikKeys(keys) == text, "\(text) typed as \(keys)")
        }
    }
}

