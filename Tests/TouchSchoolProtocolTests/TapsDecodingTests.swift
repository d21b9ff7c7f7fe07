import Foundation
import Testing
import TouchSchoolTestSupport
@testable import TouchSchoolProtocol

/// The hand reader of `taps` against JSONDecoder, the protocol's reference: every batch a client
/// writes is read by it, to the same value; whatever it reads from a broken or odd text (a byte
/// changed, cut or added) JSONDecoder reads the same way, and whatever it leaves goes to JSONDecoder.
@Suite(.onOwnThreads) struct TapsDecodingTests {
    static func reference(_ text: String) -> ClientMessage? {
        try? JSONDecoder().decode(ClientMessage.self, from: Data(text.utf8))
    }

    /// Batches as our clients and other clients may write them: JSONEncoder's sorted keys, any
    /// key order, whitespace between tokens, `switchedTo` absent, null or a school.
    static func texts(_ random: inout some RandomNumberGenerator) -> [String] {
        let ids = ["B000012052", "S0001", "한빛고", "x y", ""]
        var taps: [String: UInt64] = [:]
        for _ in 0..<Int.random(in: 0...3, using: &random) {
            taps[ids.randomElement(using: &random)!] = [0, 1, 9, 10, 24, 999_999_999_999_999_999].randomElement(using: &random)!
        }
        let batch = TapBatch(seq: UInt64.random(in: 1...1_000_000, using: &random), taps: taps, playerTaps: UInt64.random(in: 0...30, using: &random),
                             switchedToSchool: Bool.random(using: &random) ? nil : ids.randomElement(using: &random)!,
                             bestTapsPerSecond: Int.random(in: 0...25, using: &random),
                             startMs: Int64.random(in: -5...1_800_000_000_000, using: &random), endMs: 1_800_000_000_500)
        let encoded = MessageCoding.encode(.taps(batch))
        let space = [" ", "\n", "\t ", ""]
        func s() -> String { space.randomElement(using: &random)! }
        let school = batch.switchedToSchool.map { "\"\($0)\"" } ?? (Bool.random(using: &random) ? "null" : "")
        var members = [
            "\"type\"\(s()):\(s())\"taps\"", "\"seq\":\(s())\(batch.seq)",
            "\"taps\":{" + batch.taps.map { "\(s())\"\($0.key)\"\(s()):\(s())\($0.value)" }.joined(separator: ",") + "}",
            "\"playerTaps\":\(batch.playerTaps)", "\"best\":\(batch.bestTapsPerSecond)", "\"startMs\":\(batch.startMs)",
            "\"endMs\":\(s())\(batch.endMs)\(s())",
        ]
        if !school.isEmpty { members.append("\"switchedTo\":\(school)") }
        members.shuffle(using: &random)
        return [encoded, "\(s()){\(s())" + members.joined(separator: "\(s()),\(s())") + "}\(s())"]
    }

    @Test func everyBatchAClientWritesIsReadAsJSONDecoderReadsIt() throws {
        var random = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            for text in Self.texts(&random) {
                let read = try #require(TapsDecoding.decode(text), "not read: \(text)")
                #expect(Self.reference(text) == .taps(read), "\(text)")
                #expect(try MessageCoding.decodeClient(text) == .taps(read))
            }
        }
    }

    @Test func whatItReadsOfABrokenTextJSONDecoderReadsTheSame() {
        var random = SystemRandomNumberGenerator()
        let alphabet = Array(#"{}[]",:-.0123456789eE \ntrufalsnl"#.utf8) + [0x00, 0x7F, 0xC3, 0xA9, 0xFF]
        var read = 0, left = 0
        for _ in 0..<3000 {
            for text in Self.texts(&random) {
                var bytes = Array(text.utf8)
                for _ in 0..<Int.random(in: 1...3, using: &random) {
                    let at = Int.random(in: 0..<max(1, bytes.count), using: &random)
                    switch Int.random(in: 0..<3, using: &random) {
                    case 0 where !bytes.isEmpty: bytes.remove(at: at)
                    case 1: bytes.insert(alphabet.randomElement(using: &random)!, at: min(at, bytes.count))
                    default: if !bytes.isEmpty { bytes[at] = alphabet.randomElement(using: &random)! }
                    }
                }
                let broken = String(decoding: bytes, as: UTF8.self)
                if let batch = TapsDecoding.decode(broken) {
                    read += 1
                    #expect(Self.reference(broken) == .taps(batch), "read differently: \(broken)")
                } else {
                    left += 1
                }
            }
        }
        // Both kinds happen: the comparison above is not empty.
        #expect(read > 100 && left > 100, "read \(read), left \(left)")
    }

    @Test func oddFormsGoToJSONDecoder() throws {
        for text in [
            #"{"type":"taps","seq":1,"seq":2,"taps":{},"playerTaps":0,"best":0,"startMs":0,"endMs":0}"#,  // a key twice
            #"{"type":"taps","seq":1,"taps":{"a":1,"a":2},"playerTaps":0,"best":0,"startMs":0,"endMs":0}"#,  // a school twice
            #"{"type":"taps","seq":1e0,"taps":{},"playerTaps":0,"best":0,"startMs":0,"endMs":0}"#,  // an exponent
            #"{"type":"taps","seq":1,"taps":{"\u0041":1},"playerTaps":0,"best":0,"startMs":0,"endMs":0}"#,  // an escape
            #"{"type":"taps","seq":1,"taps":{},"playerTaps":0,"best":0,"startMs":0,"endMs":0,"more":1}"#,  // a key it does not know
            #"{"type":"taps","seq":18446744073709551615,"taps":{},"playerTaps":0,"best":0,"startMs":0,"endMs":0}"#,  // 20 digits
            #"{"type":"taps","seq":1,"taps":{},"playerTaps":0,"best":0,"startMs":-0,"endMs":0}"#,  // minus zero
            #"{"type":"ping"}"#,
        ] {
            #expect(TapsDecoding.decode(text) == nil, "\(text)")
        }
        // JSONDecoder's answer stands for them: the escape and the unknown key read, the rest as it says.
        #expect(try MessageCoding.decodeClient(#"{"type":"taps","seq":1,"taps":{"\u0041":1},"playerTaps":0,"best":0,"startMs":0,"endMs":0}"#)
            == .taps(TapBatch(seq: 1, taps: ["A": 1], playerTaps: 0, bestTapsPerSecond: 0, startMs: 0, endMs: 0)))
        #expect(try MessageCoding.decodeClient(#"{"type":"taps","seq":18446744073709551615,"taps":{},"playerTaps":0,"best":0,"startMs":0,"endMs":0}"#)
            == .taps(TapBatch(seq: .max, taps: [:], playerTaps: 0, bestTapsPerSecond: 0, startMs: 0, endMs: 0)))
    }
}
