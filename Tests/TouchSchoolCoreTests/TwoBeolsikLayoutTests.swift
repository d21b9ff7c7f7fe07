import Testing
import TouchSchoolTestSupport
@testable import TouchSchoolCore

/// The standard 2-beolsik (두벌식, KS X 5002) layout, written out from the keyboard itself rather
/// than from the code: each key and the jamo it types, then the shifted keys that type another.
private let twoBeolsik: [(key: Character, jamo: Character)] = [
    ("q", "ㅂ"), ("w", "ㅈ"), ("e", "ㄷ"), ("r", "ㄱ"), ("t", "ㅅ"), ("y", "ㅛ"), ("u", "ㅕ"), ("i", "ㅑ"), ("o", "ㅐ"), ("p", "ㅔ"),
    ("a", "ㅁ"), ("s", "ㄴ"), ("d", "ㅇ"), ("f", "ㄹ"), ("g", "ㅎ"), ("h", "ㅗ"), ("j", "ㅓ"), ("k", "ㅏ"), ("l", "ㅣ"),
    ("z", "ㅋ"), ("x", "ㅌ"), ("c", "ㅊ"), ("v", "ㅍ"), ("b", "ㅠ"), ("n", "ㅜ"), ("m", "ㅡ"),
    ("Q", "ㅃ"), ("W", "ㅉ"), ("E", "ㄸ"), ("R", "ㄲ"), ("T", "ㅆ"), ("O", "ㅒ"), ("P", "ㅖ"),
]

@Suite(.onOwnThreads) struct TwoBeolsikLayoutTests {
    /// A Hangul tap's puff rises where the finger landed: on the jamo's own key (Shift-O for ㅒ
    /// is the o key), and for a syllable on the key of its 초성.
    @Test func puffsLandOnTheKeyThatTypesTheJamo() throws {
        for (key, jamo) in twoBeolsik {
            let keyPosition = try #require(KeyboardLayout.position(of: Character(key.lowercased())))
            let jamoPosition = try #require(KeyboardLayout.position(of: jamo), "\(jamo)")
            #expect(jamoPosition == keyPosition, "\(jamo) should land on \(key)")
        }
        #expect(try #require(KeyboardLayout.position(of: "얘")) == KeyboardLayout.position(of: "d")!)
        #expect(try #require(KeyboardLayout.position(of: "쌔")) == KeyboardLayout.position(of: "t")!)
    }

    /// The search reads Latin text typed with the keyboard in the wrong mode by the same layout.
    @Test func searchTypesAndSpellsEveryKeyAsTheLayoutHasIt() {
        for (key, jamo) in twoBeolsik {
            #expect(Hangul.fromTwoBeolsikKeys(String(key)) == String(jamo), "\(key)")
            #expect(Hangul.twoBeolsikKeys(for: String(jamo)) == String(key), "\(jamo)")
        }
    }
}
