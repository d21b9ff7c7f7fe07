import TouchSchoolCore

/// The state file's format, version 1, written with sorted ids so that the output is stable:
/// `{"format": "touchschool-state", "version": 1, "scores": {"<school id>": <count>, …},
///   "players": {"<name>": {"school": "<id>" | null, "taps": n, "bestTapsPerSecond": n}}}`
///
/// Pure: bytes in, state out. Ids are kept as written, whatever any catalog says: the file is
/// the battle's one source of truth, and a reader with an older or smaller catalog must not
/// destroy what it does not know.
enum StateFile {
    static let formatName = "touchschool-state"
    static let formatVersion: UInt64 = 1

    enum Decoded {
        /// A state this version can use, with every abnormal value reset and described in `details`.
        case state(SavedState, details: [String])
        /// A file that cannot be used at all; `kind` names the set-aside copy (`state.json.<kind>-<time>`).
        case unusable(kind: String, reason: String)
    }

    static func decode(_ bytes: [UInt8]) -> Decoded {
        if bytes.isEmpty { return .unusable(kind: "corrupt", reason: "the file is empty (truncated)") }
        let document: JSONValue
        do {
            document = try JSONValue.parse(bytes: bytes)
        } catch {
            let what = error.message.contains("end of file") ? "truncated" : "corrupt"
            return .unusable(kind: "corrupt", reason: "the file is \(what): not valid JSON at \(error)")
        }
        guard case .object = document else {
            return .unusable(kind: "foreign", reason: "not a TouchSchool state file: it is \(describe(document)), not an object")
        }
        guard let format = document["format"] else {
            return .unusable(kind: "foreign", reason: "not a TouchSchool state file: it has no \"format\"")
        }
        guard format == .string(formatName) else {
            return .unusable(kind: "foreign", reason: "not a TouchSchool state file: its format is \(describe(format))")
        }
        guard case let .number(versionText)? = document["version"], versionText.allSatisfy(\.isASCIIDigit) else {
            return .unusable(kind: "corrupt", reason: "the file is corrupt: its \"version\" is \(describe(document["version"]))")
        }
        guard let version = UInt64(versionText), version <= formatVersion else {
            return .unusable(kind: "newer", reason: "written by a newer TouchSchool (state version \(versionText); "
                                 + "this version reads up to \(formatVersion))")
        }
        guard version == formatVersion else {
            return .unusable(kind: "corrupt", reason: "the file is corrupt: unknown state version \(versionText)")
        }
        for member in ["scores", "players"] {
            guard case .object? = document[member] else {
                return .unusable(kind: "corrupt", reason: "the file is corrupt: \"\(member)\" is \(describe(document[member])), not an object")
            }
        }
        let (state, details) = validate(document)
        return .state(state, details: details)
    }

    /// The state a well-formed document holds, with every abnormal value reset and described.
    private static func validate(_ document: JSONValue) -> (state: SavedState, details: [String]) {
        let scoreMembers = document["scores"]?.objectValue ?? []
        var state = SavedState(scores: Dictionary(minimumCapacity: scoreMembers.count))
        var details: [String] = []

        for (id, value) in scoreMembers {
            guard let count = value.uint64Value else {
                details.append("score of \(id) was \(describe(value)) (\(abnormality(of: value))): reset to 0")
                continue
            }
            guard state.scores[id] == nil else {
                details.append("score of \(id) appeared twice: the repeat (\(describe(value))) was dropped")
                continue
            }
            state.scores[id] = count
        }

        for (name, value) in document["players"]?.objectValue ?? [] {
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
        return (state, details)
    }

    /// The file's bytes: one school per line, ids sorted, zero scores left out (missing means 0).
    static func encode(_ state: SavedState) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: 128 + state.scores.count * 28 + state.players.count * 96)
        writer.raw("{\n  \"format\": \"touchschool-state\",\n  \"version\": 1,\n  \"scores\": {")
        var first = true
        for (id, count) in state.scores.sorted(by: { $0.key < $1.key }) where count > 0 {
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
        writer.raw(first ? "}\n}\n" : "\n  }\n}\n")
        return writer.bytes
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
