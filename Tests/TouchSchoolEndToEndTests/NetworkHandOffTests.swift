import Foundation
import Testing
import TouchSchoolStore
import TouchSchoolTestSupport

/// `touchschool` is built without the network modules and without Foundation (BENCHMARKS.md,
/// "Peak memory") and hands `serve`, `--server` and `import --postgres` to `touchschool-network`
/// beside it: the same process, the same arguments, the same exit status.
@Suite(.onOwnThreads, .tags(.process)) struct NetworkHandOffTests {
    static var networkPath: String { URL(fileURLWithPath: DataCommandsBinary.path).deletingLastPathComponent().appendingPathComponent("touchschool-network").path }

    /// The names of modules whose code would make the game's process as big as a server's.
    static let networkModules = ["TouchSchoolServer", "TouchSchoolClient", "TouchSchoolProtocol", "Hummingbird", "NIOCore", "PostgresNIO", "AsyncHTTPClient"]

    @Test func theGameIsBuiltWithoutTheNetworkOrFoundation() throws {
        let binary = try Data(contentsOf: URL(fileURLWithPath: DataCommandsBinary.path))
        for module in Self.networkModules {
            #expect(binary.range(of: Data(module.utf8)) == nil, "touchschool holds code of \(module)")
        }
        let libraries = Subprocess.run("/usr/bin/ldd", [DataCommandsBinary.path])
        #expect(libraries.status == 0, "\(libraries.error)")
        #expect(libraries.output.contains("libncursesw"), "ldd printed: \(libraries.output)")
        for library in ["libFoundation.so", "libFoundationInternationalization.so", "lib_FoundationICU.so"] {
            #expect(!libraries.output.contains(library), "touchschool loads \(library)")
        }
        // The program it hands over to has them all.
        let network = try Data(contentsOf: URL(fileURLWithPath: Self.networkPath))
        #expect(network.range(of: Data("TouchSchoolServer".utf8)) != nil)
    }

    @Test func serveRunsAsTouchSchoolNetworkInTheSameProcess() throws {
        let server = try ServerProcess.start()
        #expect(server.output.contains("touchschool serve: listening on http://127.0.0.1:"), "printed: \(server.printed)")
        // The process started as touchschool is now touchschool-network: same pid, so the
        // signal a service manager sends reaches the server, and its status comes back.
        let running = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(server.pid)/exe")
        #expect(FileIO.resolvedPath(running) == FileIO.resolvedPath(Self.networkPath))
        server.signal(SIGTERM)
        let status = server.waitForExit(timeout: 30)
        #expect(status == 0, "serve ended with \(String(describing: status)) after SIGTERM")
    }

    @Test func withoutTouchSchoolNetworkTheNetworkCommandsSaySoAndTheRestWorks() throws {
        // An installation with touchschool and the starter catalog, but not touchschool-network.
        let folder = TemporaryDirectory()
        defer { folder.remove() }
        let installed = "\(folder.path)/touchschool"
        let bundle = "\(URL(fileURLWithPath: DataCommandsBinary.path).deletingLastPathComponent().path)/\(StarterCatalogFile.file.bundleName)"
        // Copied by cp, not by this process: a copy open for writing here would be inherited by
        // the programs other tests start meanwhile, and running it would fail with ETXTBSY.
        let copy = Subprocess.run("/bin/cp", ["-R", DataCommandsBinary.path, bundle, folder.path])
        #expect(copy.status == 0, "\(copy.error)")
        let data = "\(folder.path)/data"

        let search = Subprocess.run(installed, ["search", "--data-dir", data, "민사고"])
        #expect(search.status == 0, "\(search.error)")
        #expect(search.output.contains("민족사관고등학교"))

        let expected = "needs touchschool-network, which should be installed beside touchschool: \(folder.path)/touchschool-network: No such file or directory"
        for (arguments, feature) in [(["serve", "--port", "0"], "serve"), (["search", "--server", "http://127.0.0.1:9", "민사고"], "--server"),
                                     (["rank", "--server", "http://127.0.0.1:9"], "--server"),
                                     (["import", "--postgres", "postgres://nobody@127.0.0.1:9/none", "/nonexistent.csv"], "import --postgres")] {
            let result = Subprocess.run(installed, arguments + ["--data-dir", data])
            #expect(result.status == 1, "\(arguments): \(result.status) \(result.error)")
            #expect(result.error.contains("\(feature) \(expected)"), "\(arguments): \(result.error)")
        }
        var environment = ProcessInfo.processInfo.environment
        environment["TOUCHSCHOOL_SERVER"] = "http://127.0.0.1:9"
        let fromEnvironment = Subprocess.run(installed, ["stats", "--data-dir", data], environment: environment)
        #expect(fromEnvironment.status == 1)
        #expect(fromEnvironment.error.contains("TOUCHSCHOOL_SERVER \(expected)"), "\(fromEnvironment.error)")
        // In Korean under a Korean locale, the system's reason too.
        var korean = ProcessInfo.processInfo.environment.filter { !["LANG", "LC_ALL", "LC_MESSAGES"].contains($0.key) }
        korean["LANG"] = "ko_KR.UTF-8"
        let serve = Subprocess.run(installed, ["serve", "--port", "0", "--data-dir", data], environment: korean)
        #expect(serve.status == 1)
        #expect(serve.error == "오류: serve에는 touchschool-network 프로그램이 필요합니다. touchschool 옆에 설치되어 있어야 합니다: "
            + "\(folder.path)/touchschool-network: 그런 파일이나 디렉터리가 없습니다. `swift build`(또는 `swift build -c release`)로 "
            + "둘 다 빌드하거나, 같은 빌드의 touchschool-network을(를) touchschool 옆에 복사하세요.\n", "\(serve.error)")
        // Bad arguments are refused by the parser before any hand-off, as before.
        let bad = Subprocess.run(installed, ["serve", "--port", "70000", "--data-dir", data])
        #expect(bad.status == 64 && bad.error.contains("--port must be between 0 and 65535"), "\(bad.error)")
    }

    /// The database's password never shows in a running server's command line: `--postgres URL`
    /// moves into the environment at the hand-off, and `--postgres-file` keeps it off the command
    /// line altogether.
    @Test func aPostgresPasswordIsNotInTheServersCommandLine() throws {
        let cluster = try PostgresCluster.freshDatabase()
        defer { cluster.stop() }
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        // The throwaway cluster trusts loopback, so any password connects; the point is where it shows.
        let url = cluster.url.replacingOccurrences(of: "touchschool@", with: "touchschool:s3cret-pw@")
        let file = "\(directory.path)/postgres-url"
        try FileSystem.live.replaceAtomically(file, with: Array((url + "\n").utf8))
        for arguments in [["--postgres", url], ["--postgres=\(url)"], ["--postgres-file", file]] {
            let server = try ServerProcess.start(arguments: arguments)
            defer { server.stop() }
            let (pid, printed) = (server.pid, server.printed)
            #expect(printed.contains("listening on http://127.0.0.1:") && printed.contains("(data: PostgreSQL)"), "\(arguments[0]): \(printed)")
            let commandLine = try Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline"))
            #expect(commandLine.range(of: Data("s3cret-pw".utf8)) == nil, "\(arguments[0]): the password is in /proc/\(pid)/cmdline")
            #expect(commandLine.range(of: Data("--data-dir".utf8)) != nil, "the other arguments are kept")
        }
        // `import` reads the same options: the URL from a file.
        let imported = Subprocess.run(DataCommandsBinary.path, ["import", "/nonexistent.csv", "--postgres-file", "\(directory.path)/missing"])
        #expect(imported.status != 0 && imported.error.contains("cannot read --postgres-file"), "\(imported.error)")
    }
}
