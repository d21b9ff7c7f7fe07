import Foundation
import Testing
import TouchSchoolTestSupport

/// The installation `scripts/build-release` makes, laid out by `scripts/install-layout` (the same
/// script, on the programs the tests built): stripped programs in bin/, the starter catalog in
/// share/touchschool/, the manual and the completions; and the service unit in docs/.
@Suite(.onOwnThreads, .tags(.process), .serialized) struct InstallLayoutTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    static let programs = URL(fileURLWithPath: DataCommandsBinary.path).deletingLastPathComponent().path

    /// Lays the programs out under a new prefix (the caller removes it).
    static func install() throws -> TemporaryDirectory {
        let prefix = TemporaryDirectory()
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
        let data = TemporaryDirectory()
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
        // Its Korean words (argument-parser's generator drops them: scripts/manual-help) and no
        // warning from man ("Empty input line").
        #expect(manual.output.contains("touchschool — 학교 대항전: a school-vs-school tap battle"), "\(manual.output.prefix(300))")
        #expect(manual.output.contains("abbreviation (서울고), 초성 (ㅎㅁㄱ)"), "the search command's words")
        #expect(manual.error.isEmpty, "\(manual.error)")
        for command in ["search", "rank", "serve", "season", "admin"] {
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
        #expect(offered.status == 0 && Set(offered.output.split(separator: "\n")) == ["search", "season", "serve"], "\(offered)")
        let zsh = try String(contentsOfFile: "\(prefix)/share/zsh/site-functions/_touchschool", encoding: .utf8)
        #expect(zsh.hasPrefix("#compdef touchschool"))
        let fish = try String(contentsOfFile: "\(prefix)/share/fish/vendor_completions.d/touchschool.fish", encoding: .utf8)
        #expect(fish.contains("complete -c 'touchschool'"))
    }

    static let officialList = URL(fileURLWithPath: repository).deletingLastPathComponent()
        .appendingPathComponent("shared/data/korea-schools-2026-03-20.cp949.csv").path

    /// What a machine the programs are installed on has: the installation, copied to another
    /// prefix, with this checkout (the build folder in it) out of reach. A mount namespace of its
    /// own (`unshare`, as root) lays an empty file system over the checkout, and a PID namespace
    /// ends whatever the script leaves running when it ends. The script imports the official list,
    /// serves it (health, page, board stream), ranks through the server and renders the manual,
    /// each step's status and output marked for the checks below.
    @Test(.enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare"), "needs root and unshare"),
          .enabled(if: FileManager.default.fileExists(atPath: officialList), "the official list is not in ../shared/data"))
    func anInstallationCopiedElsewhereRunsWithoutTheCheckout() throws {
        let installed = try Self.install()
        defer { installed.remove() }
        let machine = TemporaryDirectory()
        defer { machine.remove() }
        let copy = Subprocess.run("/bin/cp", ["-R", installed.path, "\(machine.path)/prefix"])
        try #require(copy.status == 0, "\(copy)")
        installed.remove()
        let script = #"""
            set -u
            mount -t tmpfs -o ro tmpfs "$CHECKOUT" || exit 90
            [ -e "$CHECKOUT/Package.swift" ] && exit 91
            cd "$MACHINE"
            bin="$MACHINE/prefix/bin/touchschool"
            mkdir data client
            "$bin" import "$LIST" --data-dir data > import.out 2>&1; echo "IMPORT $?"
            "$bin" serve --port 0 --data-dir data > serve.out 2> serve.err &
            server=$!
            port=
            for _ in $(seq 300); do
              port=$(sed -n 's|.*listening on http://127.0.0.1:\([0-9]*\) .*|\1|p' serve.out)
              [ -n "$port" ] && break
              kill -0 $server 2>/dev/null || break
              sleep 0.1
            done
            echo "PORT $port"
            echo "SERVE-ERRORS $(head -c 600 serve.err | tr '\n' ' ')"
            echo "HEALTH $(curl -s --max-time 5 "http://127.0.0.1:$port/healthz")"
            echo "PAGE $(curl -s --max-time 5 -o page.html -w '%{http_code} %{content_type}' "http://127.0.0.1:$port/") $(grep -c '<script' page.html)"
            echo "BOARD $(curl -s -N --max-time 2 "http://127.0.0.1:$port/v1/board?count=10" | grep -c '^data:')"
            "$bin" rank --server "http://127.0.0.1:$port" --data-dir client > rank.out 2>&1; echo "RANK $?"
            echo "RANK-OUTPUT $(head -n 4 rank.out | tr '\n' '|')"
            kill $server; wait $server
            MANWIDTH=100 LANG=C.UTF-8 man -P cat -l prefix/share/man/man1/touchschool.1 > man.out 2> man.err; echo "MAN $?"
            echo "MAN-HEAD $(head -n 8 man.out | tr '\n' '|')"
            echo "MAN-ERRORS $(tr '\n' '|' < man.err)"
            """#
        let run = Subprocess.run("/usr/bin/unshare", ["--mount", "--pid", "--fork", "--mount-proc", "--kill-child", "/bin/sh", "-c", script],
                                 environment: ["CHECKOUT": Self.repository, "MACHINE": machine.path, "LIST": Self.officialList,
                                               "PATH": "/usr/bin:/bin", "HOME": machine.path, "LANG": "C"])
        let lines: [String] = run.output.split(separator: "\n").map(String.init)
        func line(_ marker: String) -> String {
            let prefix = marker + " "
            guard let found = lines.first(where: { $0.hasPrefix(prefix) }) else { return "(no \(marker) line: \(run))" }
            return String(found.dropFirst(prefix.count))
        }
        #expect(run.status == 0, "\(run)")
        #expect(line("IMPORT") == "0")
        let port = Int(line("PORT"))
        try #require(port != nil, "the server did not listen: \(line("SERVE-ERRORS"))")
        #expect(line("HEALTH").contains("\"status\":\"ok\""), "\(line("HEALTH"))")
        #expect(line("PAGE").hasPrefix("200 text/html"), "\(line("PAGE"))")
        #expect((Int(line("BOARD")) ?? 0) >= 1, "the board stream sent no event: \(line("BOARD"))")
        #expect(line("RANK") == "0", "\(line("RANK-OUTPUT"))")
        #expect(line("MAN") == "0")
        #expect(line("MAN-HEAD").contains("학교 대항전"), "\(line("MAN-HEAD"))")
        #expect(line("MAN-ERRORS").isEmpty, "\(line("MAN-ERRORS"))")
    }

    /// The unit in docs/, pointed at an installation, passes systemd's own check.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze"), "systemd-analyze not found"))
    func theServiceUnitIsValid() throws {
        let installed = try Self.install()
        defer { installed.remove() }
        let prefix = installed.path
        let unit = try String(contentsOfFile: "\(Self.repository)/docs/touchschool.service", encoding: .utf8)
        #expect(unit.contains("ExecStart=/usr/local/bin/touchschool serve") && unit.contains("LimitNOFILE=") && unit.contains("User=touchschool"))
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        try unit.replacingOccurrences(of: "/usr/local/bin/", with: "\(prefix)/bin/")
            .write(toFile: "\(folder.path)/touchschool.service", atomically: true, encoding: .utf8)
        // It also looks the unit's `Documentation=man:touchschool(1)` up: in the installation's manual.
        let verified = Subprocess.run("/usr/bin/systemd-analyze", ["verify", "\(folder.path)/touchschool.service"],
                                      environment: ["MANPATH": "\(prefix)/share/man", "PATH": "/usr/bin:/bin"])
        #expect(verified.status == 0 && verified.error.isEmpty, "\(verified)")
    }
}
