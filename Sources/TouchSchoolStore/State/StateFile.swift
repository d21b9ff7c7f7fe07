import TouchSchoolCore

/// The state file's format, written with sorted ids so that the output is stable:
/// `{"format": "touchschool-state", "version": 1, "scores": {"<school id>": <count>, …},
///   "players": {"<name>": {"school": "<id>" | null, "taps": n, "bestTapsPerSecond": n}}}`
/// Version 2 (a server's state) adds `"boardVersion": n` and
/// `"devices": {"<device key>": {"lastSeq": n, "player": "<name>", "lastEndMs": n}}`. A state without devices and
/// with board version 0 is still written as version 1, so that local play stays readable by
/// earlier versions; version 1 files are read as having no devices.
///
/// Pure: bytes in, state out. Ids are kept as written, whatever any catalog says: the file is
/// the battle's one source of truth, and a reader with an older or smaller catalog must not
/// destroy what it does not know.
enum StateFile {
    static let formatName = "touchschool-state"
    static let formatVersion: UInt64 = 2

    enum Decoded {
        /// A state this version can use, with every abnormal value reset and described in `details`.
        /// `scoreOrder`: the score ids as the file lists them, when strictly ascending (as this
        /// program writes them), for `encode` to write them again without sorting.
        case state(SavedState, details: [String], scoreOrder: [String]?)
        /// A file that cannot be used at all; `kind` names the set-aside copy (`state.json.<kind>-<time>`).
        case unusable(kind: String, reason: String)
    }

    static func decode(_ bytes: [UInt8]) -> Decoded {
        if bytes.isEmpty { return .unusable(kind: "corrupt", reason: "the file is empty (truncated)") }
        let document: Document
        do {
            document = try bytes.withUnsafeBufferPointer { buffer throws(JSONParseError) in try Document.parse(buffer) }
        } catch {
            let what = error.message.contains("end of file") ? "truncated" : "corrupt"
            return .unusable(kind: "corrupt", reason: "the file is \(what): not valid JSON at \(error)")
        }
        if let other = document.notAnObject {
            return .unusable(kind: "foreign", reason: "not a TouchSchool state file: it is \(describe(other)), not an object")
        }
        guard let format = document.format else {
            return .unusable(kind: "foreign", reason: "not a TouchSchool state file: it has no \"format\"")
        }
        guard format == .string(formatName) else {
            return .unusable(kind: "foreign", reason: "not a TouchSchool state file: its format is \(describe(format))")
        }
        guard case let .number(versionText)? = document.version, versionText.allSatisfy(\.isASCIIDigit) else {
            return .unusable(kind: "corrupt", reason: "the file is corrupt: its \"version\" is \(describe(document.version))")
        }
        guard let version = UInt64(versionText), version <= formatVersion else {
            return .unusable(kind: "newer", reason: "written by a newer TouchSchool (state version \(versionText); "
                                 + "this version reads up to \(formatVersion))")
        }
        guard version == 1 || version == 2 else {
            return .unusable(kind: "corrupt", reason: "the file is corrupt: unknown state version \(versionText)")
        }
        guard let scores = document.scores else {
            return .unusable(kind: "corrupt", reason: "the file is corrupt: \"scores\" is \(describe(document.scoresNotAnObject)), not an object")
        }
        guard case let .object(players)? = document.players else {
            return .unusable(kind: "corrupt", reason: "the file is corrupt: \"players\" is \(describe(document.players)), not an object")
        }
        var state = SavedState(scores: scores.counts)
        var details = scores.details + validate(players: players, into: &state)
        if version >= 2 {
            switch document.boardVersion {
            case nil: break
            case let value?:
                if let number = value.uint64Value { state.boardVersion = number } else {
                    details.append("the board version was \(describe(value)) (\(abnormality(of: value))): reset to 0")
                }
            }
            switch document.devices {
            case nil: break
            case let .object(devices)?: details += validate(devices: devices, into: &state)
            case let other?: details.append("\"devices\" was \(describe(other)), not an object: removed")
            }
        }
        return .state(state, details: details, scoreOrder: scores.order)
    }

    /// The file read in one pass. The first `"scores"` member, when it is an object, is read
    /// straight into a dictionary: a full battle has twelve thousand of them, and building a
    /// `JSONValue` for each before validating it took a third of a save. The rest are values, as
    /// `JSONValue` reads them; a member named twice counts the first time, as `JSONValue`'s
    /// subscript reads it.
    private struct Document {
        /// Set instead of the members when the document is not an object.
        var notAnObject: JSONValue?
        var format: JSONValue?
        var version: JSONValue?
        var players: JSONValue?
        var devices: JSONValue?
        var boardVersion: JSONValue?
        var scores: Scores?
        /// The first `"scores"` member when it is not an object.
        var scoresNotAnObject: JSONValue?
        var seenScores = false

        static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(JSONParseError) -> Document {
            var parser = JSONParser(bytes: bytes)
            parser.skipWhitespace()
            guard parser.index < bytes.count, bytes[parser.index] == UInt8(ascii: "{") else {
                return Document(notAnObject: try JSONValue.parse(bytes: bytes))
            }
            var document = Document()
            // As `JSONParser.parseObject`, so that a damaged file is described in the same words.
            parser.index += 1
            parser.skipWhitespace()
            if parser.index < bytes.count, bytes[parser.index] == UInt8(ascii: "}") {
                parser.index += 1
            } else {
                members: while true {
                    parser.skipWhitespace()
                    guard parser.index < bytes.count, bytes[parser.index] == UInt8(ascii: "\"") else { throw parser.error("expected a member name") }
                    let key = try parser.parseString()
                    parser.skipWhitespace()
                    guard parser.index < bytes.count, bytes[parser.index] == UInt8(ascii: ":") else { throw parser.error("expected ':'") }
                    parser.index += 1
                    parser.skipWhitespace()
                    if key == "scores", !document.seenScores {
                        document.seenScores = true
                        if parser.index < bytes.count, bytes[parser.index] == UInt8(ascii: "{") {
                            // About 22 bytes a score in a file this program wrote.
                            document.scores = try Scores.parse(&parser, expectedCount: bytes.count / 20)
                        } else {
                            document.scoresNotAnObject = try parser.parseValue(depth: 1)
                        }
                    } else {
                        let value = try parser.parseValue(depth: 1)
                        switch key {
                        case "format": document.format = document.format ?? value
                        case "version": document.version = document.version ?? value
                        case "players": document.players = document.players ?? value
                        case "devices": document.devices = document.devices ?? value
                        case "boardVersion": document.boardVersion = document.boardVersion ?? value
                        default: break
                        }
                    }
                    parser.skipWhitespace()
                    guard parser.index < bytes.count else { throw parser.error("unexpected end of file in an object") }
                    if bytes[parser.index] == UInt8(ascii: ",") { parser.index += 1; continue }
                    if bytes[parser.index] == UInt8(ascii: "}") { parser.index += 1; break members }
                    throw parser.error("expected ',' or '}'")
                }
            }
            parser.skipWhitespace()
            guard parser.index == bytes.count else { throw parser.error("unexpected text after the document") }
            return document
        }
    }

    /// The `"scores"` object: every count, what was abnormal, and the ids in file order while
    /// they ascend.
    private struct Scores {
        var counts: [String: UInt64]
        var details: [String] = []
        var order: [String]? = []

        /// At the `{`; reads as `JSONParser.parseObject` would, value by value.
        static func parse(_ parser: inout JSONParser, expectedCount: Int) throws(JSONParseError) -> Scores {
            var scores = Scores(counts: Dictionary(minimumCapacity: expectedCount))
            scores.order?.reserveCapacity(expectedCount)
            let bytes = parser.bytes
            parser.index += 1
            parser.skipWhitespace()
            if parser.index < bytes.count, bytes[parser.index] == UInt8(ascii: "}") {
                parser.index += 1
                return scores
            }
            while true {
                parser.skipWhitespace()
                guard parser.index < bytes.count, bytes[parser.index] == UInt8(ascii: "\"") else { throw parser.error("expected a member name") }
                let id = try parser.parseString()
                parser.skipWhitespace()
                guard parser.index < bytes.count, bytes[parser.index] == UInt8(ascii: ":") else { throw parser.error("expected ':'") }
                parser.index += 1
                parser.skipWhitespace()
                try scores.readCount(&parser, id: id)
                if let last = scores.order?.last, !(last < id) {
                    scores.order = nil
                } else {
                    scores.order?.append(id)
                }
                parser.skipWhitespace()
                guard parser.index < bytes.count else { throw parser.error("unexpected end of file in an object") }
                if bytes[parser.index] == UInt8(ascii: ",") { parser.index += 1; continue }
                if bytes[parser.index] == UInt8(ascii: "}") { parser.index += 1; return scores }
                throw parser.error("expected ',' or '}'")
            }
        }

        /// One score: a count is kept (the first, if the id repeats), anything else reset to 0.
        mutating func readCount(_ parser: inout JSONParser, id: String) throws(JSONParseError) {
            let bytes = parser.bytes
            let start = parser.index
            // A count is digits that fit in 64 bits and are not followed by a fraction or an
            // exponent: read in the one pass that finds its end.
            var end = start
            var count: UInt64 = 0
            var fits = true
            while end < bytes.count, (0x30...0x39).contains(bytes[end]) {
                let (times10, overflow) = count.multipliedReportingOverflow(by: 10)
                let (sum, carry) = times10.addingReportingOverflow(UInt64(bytes[end] &- 0x30))
                fits = fits && !overflow && !carry
                count = sum
                end += 1
            }
            if end > start, fits, end == bytes.count || !Self.continuesNumber(bytes[end]) {
                parser.index = end
                if let first = counts.updateValue(count, forKey: id) {
                    counts[id] = first
                    let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
                    details.append("score of \(id) appeared twice: the repeat (\(text)) was dropped")
                }
                return
            }
            // Anything else: a negative, a fraction, beyond 64 bits, not a number.
            let value: JSONValue
            if end > start || (start < bytes.count && bytes[start] == UInt8(ascii: "-")) {
                value = .number(String(decoding: UnsafeBufferPointer(rebasing: bytes[try parser.scanNumber()]), as: UTF8.self))
            } else {
                value = try parser.parseValue(depth: 2)
            }
            details.append("score of \(id) was \(describe(value)) (\(abnormality(of: value))): reset to 0")
        }

        /// A byte that makes the digits before it a fraction or an exponent.
        @inline(__always) static func continuesNumber(_ byte: UInt8) -> Bool {
            byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
        }
    }

    /// Adds the players of a well-formed document to `state`, every abnormal value reset and
    /// described.
    private static func validate(players: [(String, JSONValue)], into state: inout SavedState) -> [String] {
        var details: [String] = []
        for (name, value) in players {
            guard state.players[name] == nil else {
                details.append("player \(name) appeared twice: the repeat was dropped")
                continue
            }
            guard case .object = value else {
                details.append("player \(name) was \(describe(value)), not a record: removed")
                continue
            }
            var record = PlayerRecord()
            switch value["school"] {
            case nil, .null?:
                break
            case let .string(id)?:
                record.schoolID = id
            case let other?:
                details.append("player \(name)'s school was \(describe(other)), not an id: cleared, with their taps")
            }
            if record.schoolID != nil {
                if let taps = value["taps"]?.uint64Value {
                    record.taps = taps
                } else {
                    details.append("player \(name)'s taps were \(describe(value["taps"])) (\(abnormality(of: value["taps"]))): reset to 0")
                }
            }
            if let best = value["bestTapsPerSecond"]?.uint64Value, best <= UInt64(Int.max) {
                record.bestTapsPerSecond = Int(best)
            } else {
                let best = value["bestTapsPerSecond"]
                details.append("player \(name)'s best taps per second was \(describe(best)) (\(abnormality(of: best))): reset to 0")
            }
            state.players[name] = record
        }
        return details
    }

    /// Adds the devices of a version 2 document to `state`, every abnormal value reset and described.
    private static func validate(devices: [(String, JSONValue)], into state: inout SavedState) -> [String] {
        var details: [String] = []
        for (key, value) in devices {
            guard state.devices[key] == nil else {
                details.append("device \(key) appeared twice: the repeat was dropped")
                continue
            }
            guard case .object = value else {
                details.append("device \(key) was \(describe(value)), not a record: removed")
                continue
            }
            var record = DeviceRecord()
            if let seq = value["lastSeq"]?.uint64Value {
                record.lastSeq = seq
            } else {
                details.append("device \(key)'s last batch was \(describe(value["lastSeq"])) (\(abnormality(of: value["lastSeq"]))): reset to 0")
            }
            if case let .string(name)? = value["player"] { record.player = name }
            if let end = value["lastEndMs"] {
                if case let .number(text) = end, let milliseconds = Int64(text), milliseconds >= 0 {
                    record.lastEndMs = milliseconds
                } else {
                    details.append("device \(key)'s last judged time was \(describe(end)): reset to none")
                }
            }
            state.devices[key] = record
        }
        return details
    }

    /// The file's bytes: one school per line, ids sorted, zero scores left out (missing means 0).
    ///
    /// - Parameter scoreOrder: ids in ascending order, usually those of the file just read
    ///   (`Decoded.state`'s `scoreOrder`): the ids of `state` among them are written in that order
    ///   and only the others are sorted, instead of sorting twelve thousand ids on every save.
    ///   Ids in it that `state` lacks are left out.
    static func encode(_ state: SavedState, scoreOrder: [String]? = nil) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 128 + state.scores.count * 28 + state.players.count * 96)
        let server = !state.devices.isEmpty || state.boardVersion > 0
        writer.raw(server ? "{\n  \"format\": \"touchschool-state\",\n  \"version\": 2,\n  \"scores\": {"
                          : "{\n  \"format\": \"touchschool-state\",\n  \"version\": 1,\n  \"scores\": {")
        var first = true
        for (id, count) in sortedScores(state.scores, knownOrder: scoreOrder) where count > 0 {
            writer.raw(first ? "\n    " : ",\n    ")
            first = false
            writer.string(id)
            writer.raw(": ")
            writer.number(count)
        }
        writer.raw(first ? "},\n  \"players\": {" : "\n  },\n  \"players\": {")
        first = true
        for (name, player) in state.players.sorted(by: { $0.key < $1.key }) {
            writer.raw(first ? "\n    " : ",\n    ")
            first = false
            writer.string(name)
            writer.raw(": {\"school\": ")
            if let school = player.schoolID { writer.string(school) } else { writer.raw("null") }
            writer.raw(", \"taps\": ")
            writer.number(player.taps)
            writer.raw(", \"bestTapsPerSecond\": ")
            writer.number(player.bestTapsPerSecond)
            writer.raw("}")
        }
        guard server else {
            writer.raw(first ? "}\n}\n" : "\n  }\n}\n")
            return writer.bytes
        }
        writer.raw(first ? "},\n  \"boardVersion\": " : "\n  },\n  \"boardVersion\": ")
        writer.number(state.boardVersion)
        writer.raw(",\n  \"devices\": {")
        first = true
        for (key, device) in state.devices.sorted(by: { $0.key < $1.key }) {
            writer.raw(first ? "\n    " : ",\n    ")
            first = false
            writer.string(key)
            writer.raw(": {\"lastSeq\": ")
            writer.number(device.lastSeq)
            writer.raw(", \"player\": ")
            writer.string(device.player)
            if device.lastEndMs > 0 {
                writer.raw(", \"lastEndMs\": ")
                writer.number(UInt64(device.lastEndMs))
            }
            writer.raw("}")
        }
        writer.raw(first ? "}\n}\n" : "\n  }\n}\n")
        return writer.bytes
    }

    /// `scores` sorted by id, reusing `knownOrder` (ascending) for the ids it has.
    private static func sortedScores(_ scores: [String: UInt64], knownOrder: [String]?) -> [(key: String, value: UInt64)] {
        guard let knownOrder else { return scores.sorted(by: { $0.key < $1.key }) }
        var known: [(key: String, value: UInt64)] = []
        known.reserveCapacity(scores.count)
        for id in knownOrder {
            if let count = scores[id] { known.append((id, count)) }
        }
        guard known.count < scores.count else { return known }
        // Ids the file did not have yet (a school's first taps): sorted on their own, merged in.
        let knownIDs = Set(knownOrder)
        let added = scores.filter { !knownIDs.contains($0.key) }.sorted(by: { $0.key < $1.key })
        var merged: [(key: String, value: UInt64)] = []
        merged.reserveCapacity(scores.count)
        var (k, a) = (0, 0)
        while k < known.count || a < added.count {
            if a == added.count || (k < known.count && known[k].key < added[a].key) {
                merged.append(known[k])
                k += 1
            } else {
                merged.append(added[a])
                a += 1
            }
        }
        return merged
    }

    // MARK: - Words for problems

    private static func describe(_ value: JSONValue?) -> String {
        switch value {
        case nil: "missing"
        case .null?: "null"
        case let .bool(flag)?: flag ? "true" : "false"
        case let .number(text)?: text
        case let .string(text)?: "the text \"\(text)\""
        case .array?: "an array"
        case .object?: "an object"
        }
    }

    /// Why a value is not a count (a non-negative 64-bit integer).
    private static func abnormality(of value: JSONValue?) -> String {
        guard case let .number(text)? = value else { return "not a number" }
        if text.hasPrefix("-") { return "negative" }
        if !text.allSatisfy(\.isASCIIDigit) { return "not a whole number" }
        return "beyond 64 bits"
    }
}

private extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
