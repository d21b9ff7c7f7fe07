/// Hangul machinery for search: syllable arithmetic, 초성, composition of decomposed (NFD) text,
/// and the 2-beolsik (두벌식) keyboard, both ways.
///
/// Every jamo that leaves this type is a *compatibility* jamo (U+3131…U+318E, what a keyboard
/// types standalone), never a conjoining one, so that search compares one kind only.
public enum Hangul {
    // Unicode's syllable block: syllable = 0xAC00 + (lead × 21 + vowel) × 28 + tail.
    static let syllableBase: UInt32 = 0xAC00
    static let syllableCount: UInt32 = 11172
    static let tailCount: UInt32 = 28
    // Conjoining jamo, as found in NFD text.
    static let conjoiningLeadBase: UInt32 = 0x1100
    static let conjoiningVowelBase: UInt32 = 0x1161
    static let conjoiningTailBase: UInt32 = 0x11A7  // tail index 0 means "no tail"

    /// Compatibility jamo of the 19 leads, in Unicode's lead order.
    static let leads: [UInt32] = [
        0x3131, 0x3132, 0x3134, 0x3137, 0x3138, 0x3139, 0x3141, 0x3142, 0x3143, 0x3145,
        0x3146, 0x3147, 0x3148, 0x3149, 0x314A, 0x314B, 0x314C, 0x314D, 0x314E,
    ]
    /// Compatibility jamo of the 21 vowels (ㅏ…ㅣ are contiguous).
    static let vowels: [UInt32] = (0..<21).map { 0x314F + $0 }
    /// Compatibility jamo of the 27 tails; index 0 (no tail) is 0.
    static let tails: [UInt32] = [
        0, 0x3131, 0x3132, 0x3133, 0x3134, 0x3135, 0x3136, 0x3137, 0x3139, 0x313A,
        0x313B, 0x313C, 0x313D, 0x313E, 0x313F, 0x3140, 0x3141, 0x3142, 0x3144, 0x3145,
        0x3146, 0x3147, 0x3148, 0x314A, 0x314B, 0x314C, 0x314D, 0x314E,
    ]

    public struct Syllable: Equatable, Sendable {
        /// 0..<19, 0..<21, 0..<28 (0: no tail).
        public var lead: Int
        public var vowel: Int
        public var tail: Int
    }

    public static func isSyllable(_ scalar: UInt32) -> Bool {
        scalar &- syllableBase < syllableCount
    }

    public static func decompose(_ scalar: UInt32) -> Syllable? {
        guard isSyllable(scalar) else { return nil }
        let index = Int(scalar - syllableBase)
        return Syllable(lead: index / 588, vowel: index % 588 / 28, tail: index % 28)
    }

    public static func compose(_ syllable: Syllable) -> UInt32 {
        syllableBase + UInt32((syllable.lead * 21 + syllable.vowel) * 28 + syllable.tail)
    }

    /// The 초성 of a syllable as a compatibility jamo (`휘` → `ㅎ`); any other scalar unchanged.
    public static func initialConsonant(of scalar: UInt32) -> UInt32 {
        guard isSyllable(scalar) else { return scalar }
        return leads[Int(scalar - syllableBase) / 588]
    }

    /// The compatibility jamo a unit is typed as, in order (`휘` → `ㅎ`, `ㅟ`; `곧` → `ㄱ`, `ㅗ`, `ㄷ`):
    /// the first `count` of `letters`; any other unit is itself. What the closest-name fallback
    /// compares, so that a wrong vowel (`뮨` for `문`) or a lost 받침 (`하` for `학`) costs one edit,
    /// not a syllable. A tuple, not an array: it is asked for every jamo of thousands of names.
    static func jamo(of unit: UInt32) -> (letters: (UInt32, UInt32, UInt32), count: Int) {
        guard let syllable = decompose(unit) else { return ((unit, 0, 0), 1) }
        return ((leads[syllable.lead], vowels[syllable.vowel], tails[syllable.tail]), syllable.tail == 0 ? 2 : 3)
    }

    /// The syllable without its 받침 (`곧` → `고`); any other scalar unchanged.
    static func withoutTail(_ scalar: UInt32) -> UInt32 {
        guard isSyllable(scalar) else { return scalar }
        return scalar - (scalar - syllableBase) % tailCount
    }

    /// `ㄱ`…`ㅎ` including the doubled ones: the consonants that can begin a syllable.
    public static func isLeadConsonant(_ scalar: UInt32) -> Bool { leadIndex(scalar) != nil }

    static func leadIndex(_ compatibility: UInt32) -> Int? { leads.firstIndex(of: compatibility) }
    static func vowelIndex(_ compatibility: UInt32) -> Int? {
        compatibility &- 0x314F < 21 ? Int(compatibility - 0x314F) : nil
    }
    static func tailIndex(_ compatibility: UInt32) -> Int? {
        compatibility == 0 ? nil : tails.firstIndex(of: compatibility)
    }

    /// The compatibility jamo for a conjoining one (`U+1112` → `ㅎ`); nil for anything else.
    static func compatibilityJamo(ofConjoining scalar: UInt32) -> UInt32? {
        if scalar &- conjoiningLeadBase < 19 { return leads[Int(scalar - conjoiningLeadBase)] }
        if scalar &- conjoiningVowelBase < 21 { return vowels[Int(scalar - conjoiningVowelBase)] }
        if scalar &- (conjoiningTailBase + 1) < 27 { return tails[Int(scalar - conjoiningTailBase)] }
        return nil
    }

    /// Composes conjoining jamo (NFD Hangul, as some systems hand text over) into syllables, and
    /// turns any conjoining jamo left alone into its compatibility jamo. Other scalars pass through.
    public static func composeConjoining(_ scalars: [UInt32]) -> [UInt32] {
        var result: [UInt32] = []
        result.reserveCapacity(scalars.count)
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            let next = index + 1 < scalars.count ? scalars[index + 1] : 0
            if scalar &- conjoiningLeadBase < 19, next &- conjoiningVowelBase < 21 {
                var syllable = Syllable(lead: Int(scalar - conjoiningLeadBase), vowel: Int(next - conjoiningVowelBase), tail: 0)
                index += 2
                if index < scalars.count, scalars[index] &- (conjoiningTailBase + 1) < 27 {
                    syllable.tail = Int(scalars[index] - conjoiningTailBase)
                    index += 1
                }
                result.append(compose(syllable))
            } else if isSyllable(scalar), (scalar - syllableBase) % tailCount == 0,
                      next &- (conjoiningTailBase + 1) < 27 {
                // A precomposed open syllable followed by a conjoining 받침 (canonical composition).
                result.append(scalar + next - conjoiningTailBase)
                index += 2
            } else {
                result.append(compatibilityJamo(ofConjoining: scalar) ?? scalar)
                index += 1
            }
        }
        return result
    }

    // MARK: 2-beolsik keyboard

    /// What each key of the 2-beolsik layout types; the shifted keys that differ are listed apart.
    /// The layout's only table: the search reads Latin-mode typing by it, and `KeyboardLayout`
    /// puts a Hangul tap's puff on its key by it.
    static let keyJamo: [Character: UInt32] = [
        "q": 0x3142, "w": 0x3148, "e": 0x3137, "r": 0x3131, "t": 0x3145,
        "y": 0x315B, "u": 0x3155, "i": 0x3151, "o": 0x3150, "p": 0x3154,
        "a": 0x3141, "s": 0x3134, "d": 0x3147, "f": 0x3139, "g": 0x314E,
        "h": 0x3157, "j": 0x3153, "k": 0x314F, "l": 0x3163,
        "z": 0x314B, "x": 0x314C, "c": 0x314A, "v": 0x314D, "b": 0x3160, "n": 0x315C, "m": 0x3161,
        // Shift: ㅃ ㅉ ㄸ ㄲ ㅆ ㅒ ㅖ. Other capitals type the same as their small letter.
        "Q": 0x3143, "W": 0x3149, "E": 0x3138, "R": 0x3132, "T": 0x3146, "O": 0x3152, "P": 0x3156,
    ]

    /// Two jamo typed in a row that make one: 겹받침 and 이중모음 (compatibility jamo).
    static let compoundTails: [UInt64: UInt32] = pairs([
        (0x3131, 0x3145, 0x3133), (0x3134, 0x3148, 0x3135), (0x3134, 0x314E, 0x3136),
        (0x3139, 0x3131, 0x313A), (0x3139, 0x3141, 0x313B), (0x3139, 0x3142, 0x313C),
        (0x3139, 0x3145, 0x313D), (0x3139, 0x314C, 0x313E), (0x3139, 0x314D, 0x313F),
        (0x3139, 0x314E, 0x3140), (0x3142, 0x3145, 0x3144),
    ])
    static let compoundVowels: [UInt64: UInt32] = pairs([
        (0x3157, 0x314F, 0x3158), (0x3157, 0x3150, 0x3159), (0x3157, 0x3163, 0x315A),
        (0x315C, 0x3153, 0x315D), (0x315C, 0x3154, 0x315E), (0x315C, 0x3163, 0x315F),
        (0x3161, 0x3163, 0x3162),
    ])
    /// The reverse: a compound jamo → its two parts.
    static let compoundParts: [UInt32: (UInt32, UInt32)] = {
        var parts: [UInt32: (UInt32, UInt32)] = [:]
        for (key, compound) in compoundTails.merging(compoundVowels, uniquingKeysWith: { a, _ in a }) {
            parts[compound] = (UInt32(key >> 32), UInt32(key & 0xFFFF_FFFF))
        }
        return parts
    }()

    private static func pairs(_ list: [(UInt32, UInt32, UInt32)]) -> [UInt64: UInt32] {
        Dictionary(uniqueKeysWithValues: list.map { (UInt64($0.0) << 32 | UInt64($0.1), $0.2) })
    }

    /// The parts of a compound consonant (`ㄳ` → `ㄱ`, `ㅅ`), as a keyboard types them.
    public static func consonantParts(_ compatibility: UInt32) -> (UInt32, UInt32)? {
        guard compoundTails.values.contains(compatibility) else { return nil }
        return compoundParts[compatibility]
    }

    /// Text typed on a 2-beolsik keyboard left in Latin mode, as the Hangul it meant:
    /// `gnlansrh` → `휘문고`, `tjdnf` → `서울`. Latin letters become jamo which compose as a
    /// Korean input method composes them (겹받침, 이중모음, a 받침 moving on to the next syllable
    /// when a vowel follows); consonants left without a vowel stay standalone jamo (`gar` → `ㅎㅁㄱ`),
    /// and anything else passes through.
    public static func fromTwoBeolsikKeys(_ text: String) -> String {
        var automaton = TwoBeolsikAutomaton()
        for character in text {
            if let jamo = keyJamo[character] ?? (character.isASCII ? keyJamo[Character(character.lowercased())] : nil) {
                automaton.type(jamo)
            } else {
                automaton.flush()
                automaton.output.unicodeScalars.append(contentsOf: character.unicodeScalars)
            }
        }
        automaton.flush()
        return automaton.output
    }

    /// The keys that type `text` on a 2-beolsik keyboard: `휘문고` → `gnlansrh`. Other characters
    /// pass through. The inverse of `fromTwoBeolsikKeys` for text of whole syllables.
    public static func twoBeolsikKeys(for text: String) -> String {
        var keys = ""
        func appendKeys(of jamo: UInt32) {
            if let (first, second) = compoundParts[jamo] {
                appendKeys(of: first)
                appendKeys(of: second)
            } else if let key = jamoKey[jamo] {
                keys.append(key)
            } else if let scalar = Unicode.Scalar(jamo) {
                keys.unicodeScalars.append(scalar)
            }
        }
        for scalar in composeConjoining(text.unicodeScalars.map(\.value)) {
            if let syllable = decompose(scalar) {
                appendKeys(of: leads[syllable.lead])
                appendKeys(of: vowels[syllable.vowel])
                if syllable.tail != 0 { appendKeys(of: tails[syllable.tail]) }
            } else {
                appendKeys(of: scalar)
            }
        }
        return keys
    }

    static let jamoKey: [UInt32: Character] = Dictionary(uniqueKeysWithValues: keyJamo.map { ($0.value, $0.key) })
}

/// The state of a Korean input method between keystrokes: the syllable being composed.
private struct TwoBeolsikAutomaton {
    var output = ""
    var lead: UInt32?
    var vowel: UInt32?
    var tail: UInt32?

    mutating func type(_ jamo: UInt32) {
        if Hangul.vowelIndex(jamo) != nil { typeVowel(jamo) } else { typeConsonant(jamo) }
    }

    private mutating func typeConsonant(_ consonant: UInt32) {
        if lead != nil, vowel != nil {
            if let tail {
                if let compound = Hangul.compoundTails[Self.pair(tail, consonant)] {
                    self.tail = compound
                    return
                }
            } else if Hangul.tailIndex(consonant) != nil {
                tail = consonant
                return
            }
        }
        flush()
        lead = consonant
    }

    private mutating func typeVowel(_ typed: UInt32) {
        if let currentTail = tail {
            // The 받침 (or the second half of a 겹받침) moves on to begin the next syllable.
            let moving: UInt32
            if let (kept, second) = Hangul.compoundParts[currentTail] {
                tail = kept
                moving = second
            } else {
                tail = nil
                moving = currentTail
            }
            flush()
            lead = moving
            vowel = typed
            return
        }
        if let current = vowel {
            if let compound = Hangul.compoundVowels[Self.pair(current, typed)] {
                vowel = compound
                return
            }
            flush()
            vowel = typed
            return
        }
        if lead != nil {
            vowel = typed
            return
        }
        flush()
        vowel = typed
    }

    mutating func flush() {
        defer { lead = nil; vowel = nil; tail = nil }
        if let lead, let vowel, let leadIndex = Hangul.leadIndex(lead), let vowelIndex = Hangul.vowelIndex(vowel) {
            let tailIndex = tail.flatMap(Hangul.tailIndex) ?? 0
            append(Hangul.compose(.init(lead: leadIndex, vowel: vowelIndex, tail: tailIndex)))
            return
        }
        if let lead { append(lead) }
        if let vowel { append(vowel) }
    }

    private mutating func append(_ scalar: UInt32) {
        output.unicodeScalars.append(Unicode.Scalar(scalar)!)
    }

    private static func pair(_ first: UInt32, _ second: UInt32) -> UInt64 { UInt64(first) << 32 | UInt64(second) }
}
