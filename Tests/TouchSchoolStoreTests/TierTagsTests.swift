import Foundation
import Testing
import TouchSchoolTestSupport

/// The tiers cannot drift: every suite whose tests start a program, tmux, a browser, PostgreSQL or
/// SSH carries that tier's tag (`Tiers.swift`), so that `scripts/test --fast`, which skips the
/// tagged suites, runs only suites that start nothing. Read from the sources: a suite's tags
/// against the starters its own section of its file names.
@Suite(.onOwnThreads) struct TierTagsTests {
    /// What in a test file's source starts each tier's thing: the helpers' names (TestSupport's,
    /// `TmuxSession`, `Browser`, the store tests' `sqlite3` and `withStore(.postgres)`) and the
    /// programs' paths. The suites' attributes are left out of the search (they name the tags).
    static let starters: [(tag: String, pattern: String)] = [
        ("process", #"Subprocess\.(run|start|startSharingOutput|firstLine)\b"#),
        ("process", #"ServerProcess(\.(start|launch|forGames)\b|\()"#),
        ("process", #"DataCommandsBinary\.run\b"#),
        ("process", #"\bProcess\(\)"#),
        ("process", #"\bsqlite3(Output)?\("#),
        ("tmux", #"\bTmuxSession\(|"/usr/bin/tmux""#),
        ("browser", #"\bBrowser\b"#),
        ("postgres", #"\bPostgresCluster\b|StoreKind\.allCases|\.postgres\b"#),
        ("ssh", #""/usr/bin/ssh"#),
    ]

    /// A top-level suite: its name, its tags, and where its attribute is in the file.
    struct Suite {
        let name: String
        let tags: Set<String>
        let attribute: Range<String.Index>
    }

    static let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()

    /// The test files: every Swift file under Tests/ but the shared helpers and the workers' programs.
    static func testFiles() throws -> [URL] {
        let files = FileManager.default.enumerator(at: tests, includingPropertiesForKeys: nil)!
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
        return files.filter { file in
            let folder = file.path.dropFirst(tests.path.count + 1).prefix { $0 != "/" }
            return !["TestSupport", "StateStoreWorker", "BattleDatabaseWorker"].contains(String(folder))
        }.sorted { $0.path < $1.path }
    }

    /// The suites declared at a line's start (`@Suite` or `@Suite(…)` before `struct`, `class`,
    /// `enum` or `actor`), as `scripts/test --fast` reads them.
    static func suites(in source: String) -> [Suite] {
        source.matches(of: #/(?m)^@Suite\b(?s:.*?)\b(?:struct|class|enum|actor)\s+(\w+)/#).map { match in
            let attribute = String(source[match.range])
            let tagLists = attribute.matches(of: #/\.tags\(([^)]*)\)/#).map { String($0.output.1) }
            let tags = tagLists.flatMap { $0.matches(of: #/\.(\w+)/#).map { String($0.output.1) } }
            return Suite(name: String(match.output.1), tags: Set(tags), attribute: match.range)
        }
    }

    /// The tags each suite of a file calls for: the tiers whose starters its section names (from
    /// its `@Suite` to the next top-level suite's), or the text before the first suite (imports,
    /// the file's helpers), which all its suites share. Without suites, one section: the file.
    static func started(in source: String, suites: [Suite]) throws -> [Set<String>] {
        func tags(_ text: Substring) throws -> Set<String> {
            Set(try starters.filter { try text.contains(Regex($0.pattern)) }.map(\.tag))
        }
        guard let first = suites.first else { return [try tags(source[...])] }
        let shared = try tags(source[..<first.attribute.lowerBound])
        return try suites.indices.map { index in
            let end = index + 1 < suites.count ? suites[index + 1].attribute.lowerBound : source.endIndex
            return shared.union(try tags(source[suites[index].attribute.upperBound..<end]))
        }
    }

    @Test func everySuiteThatStartsSomethingCarriesItsTiersTag() throws {
        var declared: [String: Set<String>] = [:]
        var needed: [String: Set<String>] = [:]
        var undeclared: [String] = []
        // This file names the starters as examples; it starts nothing.
        for file in try Self.testFiles() where file.path != #filePath {
            let source = try String(contentsOf: file, encoding: .utf8)
            let name = file.path.dropFirst(Self.tests.path.count + 1)
            let module = name.prefix { $0 != "/" }
            let suites = Self.suites(in: source)
            let started = try Self.started(in: source, suites: suites)
            for (suite, tags) in zip(suites, started) {
                declared["\(module).\(suite.name)"] = suite.tags
                needed["\(module).\(suite.name)", default: []].formUnion(tags)
            }
            // Tests in an extension of a suite declared in another file are that suite's.
            guard suites.isEmpty, source.contains("@Test"), let tags = started.first, !tags.isEmpty else { continue }
            let extended = source.matches(of: #/(?m)^extension\s+(\w+)/#).map { "\(module).\($0.output.1)" }
            if extended.isEmpty { undeclared.append("\(name): tests outside a top-level @Suite start \(tags.sorted())") }
            for suite in extended { needed[suite, default: []].formUnion(tags) }
        }
        let missing = needed.keys.sorted().compactMap { suite -> String? in
            let lacking = needed[suite]!.subtracting(declared[suite] ?? [])
            return lacking.isEmpty ? nil : "\(suite) lacks .tags(\(lacking.sorted().map { "." + $0 }.joined(separator: ", ")))"
        }
        #expect(missing + undeclared == [], "\((missing + undeclared).joined(separator: "\n"))")
    }

    /// A starter's tag is spelled as a string (the sources name it so): each is a tier of `Tiers.swift`.
    @Test func theStartersNameEachTierOfTheTags() {
        let tiers: [Tag] = [.process, .tmux, .browser, .postgres, .ssh]
        #expect(Set(Self.starters.map { ".\($0.tag)" }) == Set(tiers.map { "\($0)" }))
    }

    @Test func aSuiteThatStartsATmuxGameWithoutItsTagIsFound() throws {
        let source = """
            @Suite(.onOwnThreads, .tags(.process))
            struct GameTests {
                @Test func plays() throws { let game = try TmuxSession(arguments: []) }
            }
            """
        let suites = Self.suites(in: source)
        #expect(suites.map(\.name) == ["GameTests"])
        #expect(suites.map(\.tags) == [["process"]])
        #expect(try Self.started(in: source, suites: suites) == [["tmux"]])
    }

    @Test func eachSuiteOfAFileCallsForWhatItsOwnSectionAndTheFilesHelpersStart() throws {
        let source = """
            func sqlite3(_ command: String) {}
            @Suite struct GameTests { @Test func plays() throws { _ = try TmuxSession(arguments: []) } }
            @Suite struct NotATerminalTests { @Test func refuses() { _ = DataCommandsBinary.run([]) } }
            """
        let suites = Self.suites(in: source)
        #expect(suites.map(\.name) == ["GameTests", "NotATerminalTests"])
        #expect(try Self.started(in: source, suites: suites) == [["process", "tmux"], ["process"]])
    }

    @Test func theTagsInASuitesAttributeAreNotTakenForWhatItStarts() throws {
        let source = "@Suite(.tags(.postgres, .browser)) final class StoreTests {}\n"
        let suites = Self.suites(in: source)
        #expect(suites.map(\.tags) == [["postgres", "browser"]])
        #expect(try Self.started(in: source, suites: suites) == [[]])
    }
}
