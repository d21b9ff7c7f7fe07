import Foundation
import Testing
import TouchSchoolTestSupport

/// The installation `scripts/build-release` makes, laid out by `scripts/install-layout` (the same
/// script, on the programs the tests built): stripped programs in bin/, the starter catalog in
/// share/touchschool/, the manual and the completions; and the service unit in docs/.
@Suite(.onOwnThreads, .serialized) struct InstallLayoutTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    static let programs = URL(fileURLWithPath: DataCommandsBinary.path).deletingLastPathComponent().path

    /// Lays the programs out under a new prefix (the caller removes it).
    static func install() throws -> TemporaryDirectory {
        let prefix = try TemporaryDirectory()
        let result = Subprocess.run("/bin/sh", ["\(repository)/scripts/install-layout", programs, prefix.path])
        if result.status != 0 { prefix.remove() }
        try #require(result.status == 0, "install-layout: \(result.error)")
        return prefix
    }

    @Test func anInstalledToolHasItsVersionItsCatalogAndStrippedPrograms() throws {
        let installed = try Self.install()
        defer { installed.remove() }
        let prefix = installed.path
        let version = Subprocess.run("\(prefix)/bin/touchschool", ["--version"])
        #expect(version.status == 0 && version.output == "0.20.0\n", "\(version)")
        for program in ["touchschool", "touchschool-network"] {
            let sections = Subprocess.run("/usr/bin/readelf", ["-S", "\(prefix)/bin/\(program)"]).output
            #expect(sections.contains(".text") && !sections.contains(".symtab") && !sections.contains(".debug_info"), "\(program) is stripped")
        }
        // The starter catalog is found from bin/ in share/touchschool/, whatever the directory.
        let data = try TemporaryDirectory()
        defer { data.remove() }
        let search = Subprocess.run("\(prefix)/bin/touchschool", ["search", "민사고", "--data-dir", data.path])
        #expect(search.status == 0 && search.output.contains("민족사관고등학교"), "\(search)")
    }

    @Test func theManualRendersAndTheCompletionsLoad() throws {
        let installed = try Self.install()
        defer { installed.remove() }
        let prefix = installed.path
        let manual = Subprocess.run("/usr/bin/man", ["-P", "cat", "-l", "\(prefix)/share/man/man1/touchschool.1"],
                                    environment: ["MANWIDTH": "100", "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"])
        #expect(manual.status == 0)
        #expect(manual.output.contains("TOUCHSCHOOL(1)") && manual.output.contains("--version"))
        for command in ["search", "rank", "serve", "admin"] {
            #expect(manual.output.contains("     \(command) "), "the manual describes \(command)")
        }
        // bash: what completing `touchschool se` offers.
        let completion = """
            source '\(prefix)/share/bash-completion/completions/touchschool'
            COMP_WORDS=(touchschool se); COMP_CWORD=1; COMP_LINE='touchschool se'; COMP_POINT=${#COMP_LINE}
            _touchschool touchschool se touchschool
            printf '%s\\n' "${COMPREPLY[@]}"
            """
        let offered = Subprocess.run("/bin/bash", ["-c", completion])
        #expect(offered.status == 0 && Set(offered.output.split(separator: "\n")) == ["search", "serve"], "\(offered)")
        let zsh = try String(contentsOfFile: "\(prefix)/share/zsh/site-functions/_touchschool", encoding: .utf8)
        #expect(zsh.hasPrefix("#compdef touchschool"))
        let fish = try String(contentsOfFile: "\(prefix)/share/fish/vendor_completions.d/touchschool.fish", encoding: .utf8)
        #expect(fish.contains("complete -c 'touchschool'"))
    }

    /// The unit in docs/, pointed at an installation, passes systemd's own check.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze"), "systemd-analyze not found"))
    func theServiceUnitIsValid() throws {
        let installed = try Self.install()
        defer { installed.remove() }
        let prefix = installed.path
        let unit = try String(contentsOfFile: "\(Self.repository)/docs/touchschool.service", encoding: .utf8)
        #expect(unit.contains("ExecStart=/usr/local/bin/touchschool serve") && unit.contains("LimitNOFILE=") && unit.contains("User=touchschool"))
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try unit.replacingOccurrences(of: "/usr/local/bin/", with: "\(prefix)/bin/")
            .write(toFile: "\(folder.path)/touchschool.service", atomically: true, encoding: .utf8)
        // It also looks the unit's `Documentation=man:touchschool(1)` up: in the installation's manual.
        let verified = Subprocess.run("/usr/bin/systemd-analyze", ["verify", "\(folder.path)/touchschool.service"],
                                      environment: ["MANPATH": "\(prefix)/share/man", "PATH": "/usr/bin:/bin"])
        #expect(verified.status == 0 && verified.error.isEmpty, "\(verified)")
    }
}
