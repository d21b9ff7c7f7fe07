// swift-tools-version:6.1
import PackageDescription

/// The pure modules are compiled with optimization in debug builds too: the tests run their search,
/// ranking and layout over the official list's 12,011 schools, which took an unoptimized build four
/// to five times as long (BENCHMARKS.md, "The test suite's time").
let optimizedInTests: [SwiftSetting] = [.unsafeFlags(["-O"], .when(configuration: .debug))]

let package = Package(
    name: "TouchSchool",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "touchschool", targets: ["TouchSchoolTUI"]),
        .executable(name: "touchschool-network", targets: ["TouchSchoolNetworkTUI"]),
        .library(name: "TouchSchoolCore", targets: ["TouchSchoolCore"]),
        .library(name: "TouchSchoolStore", targets: ["TouchSchoolStore"]),
        .library(name: "TouchSchoolBattleDatabase", targets: ["TouchSchoolBattleDatabase"]),
        .library(name: "TouchSchoolView", targets: ["TouchSchoolView"]),
        .library(name: "TouchSchoolProtocol", targets: ["TouchSchoolProtocol"]),
        .library(name: "TouchSchoolServer", targets: ["TouchSchoolServer"]),
        .library(name: "TouchSchoolClient", targets: ["TouchSchoolClient"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/adam-fowler/compress-nio", from: "1.5.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // SHA-256 (already in the build through postgres-nio): a device's public id in the admin API.
        .package(url: "https://github.com/apple/swift-crypto.git", "4.0.0" ..< "5.0.0"),
        // `serve --ssh-port`: the game served over SSH to players with nothing installed.
        .package(url: "https://github.com/apple/swift-nio-ssh", from: "0.15.1"),
        // Its listener (NIOPosix); already in the build through Hummingbird.
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.81.0"),
    ],
    targets: [
        // The pure core: catalog, search and the rules of the game. No files, locks, clock or terminal.
        .target(name: "TouchSchoolCore", swiftSettings: optimizedInTests),
        // The store: the state file, the catalog file and the import, with the file system and the
        // clock passed in as values. File formats only: what runs a game's battle is elsewhere.
        .target(name: "TouchSchoolStore", dependencies: ["TouchSchoolCore"], swiftSettings: optimizedInTests),
        // A running game's connection to its battle (`BattleConnection`: hand changes over without
        // waiting, take the answers as events) and the local one (`LocalBattle`: the state file
        // shared by the games of one data directory, saved on a thread of its own). No Foundation:
        // the lean game links it.
        .target(name: "TouchSchoolLocalBattle", dependencies: ["TouchSchoolCore", "TouchSchoolStore"]),
        // The system's SQLite (Debian: libsqlite3-dev), for the battle database.
        .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        // A server's battle in its data directory's `battle.sqlite`: the schema and every query,
        // in one place for the server's store and the commands that read it (rank, stats,
        // search). Foundation-free, like the game that links it.
        .target(name: "TouchSchoolBattleDatabase", dependencies: ["CSQLite", "TouchSchoolCore", "TouchSchoolStore"]),
        // The play protocol's messages, in one place for the client and the server (docs/protocol.md).
        // The wire's names of the game's leagues (`LeagueName` ↔ `League`) are defined here once,
        // for the client and the server alike.
        .target(name: "TouchSchoolProtocol", dependencies: ["TouchSchoolCore"]),
        // `touchschool serve`: one battle for players on many machines (Hummingbird, WebSocket).
        .target(
            name: "TouchSchoolServer",
            dependencies: [
                "TouchSchoolCore", "TouchSchoolStore", "TouchSchoolProtocol", "TouchSchoolBattleDatabase",
                .product(name: "Hummingbird", package: "hummingbird"),
                // The server's child channel, to put the connection guard in front of Hummingbird's.
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                // The page's files gzipped once at start, for the phones that load them.
                .product(name: "CompressNIO", package: "compress-nio"),
                // The server's services and their graceful shutdown; a second signal ends it at once.
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "Crypto", package: "swift-crypto"),
                // The QR code of the join address, served as SVG to the projector.
                "TouchSchoolQRCode",
                .product(name: "NIOPosix", package: "swift-nio"),
                // The HTTP decoder's errors, answered by the connection guard (`ConnectionGuard`).
                .product(name: "NIOHTTP1", package: "swift-nio"),
                // The play sockets' frames, written by their event loops (`SocketWriteBuffer`).
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ],
            // The browser page (plain HTML, CSS, JavaScript), served at `/`: copied beside the built
            // binary as its resource bundle, installed in share/touchschool/web/ (`ShippedFile`).
            resources: [.copy("Page/Web")]
        ),
        // The game over SSH (`serve --ssh-port`), for players with nothing installed: the game's
        // own loop and view on an SSH channel, the outbox's numbering and the board mirror, all
        // in the server's process, admitted and judged by its battle as a socket's player is.
        .target(
            name: "TouchSchoolSSH",
            dependencies: [
                "TouchSchoolServer", "TouchSchoolTerminal", "TouchSchoolView", "TouchSchoolOutbox",
                "TouchSchoolCore", "TouchSchoolLocalBattle", "TouchSchoolProtocol", "TouchSchoolStore",
                .product(name: "NIOSSH", package: "swift-nio-ssh"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // A QR code of a short text (ISO/IEC 18004): the join address, drawn by `serve` in the
        // terminal and served as SVG to the projector. Pure, no dependencies.
        .target(name: "TouchSchoolQRCode"),
        // A game's taps on their way to a server, without the socket, for the client's games and
        // the SSH server's alike: the outbox of numbered batches (`outbox.json`), the board mirror
        // shown with the outbox added, the clocks a batch is stamped by and the server's, the
        // device key the batches are sent under, and the waits of a game's thread on them.
        .target(name: "TouchSchoolOutbox", dependencies: ["TouchSchoolCore", "TouchSchoolStore", "TouchSchoolProtocol"]),
        // A game's connection to a server (`NetworkBattle`): the socket, the HTTP requests, the
        // server's folder and the catalog's cache.
        .target(
            name: "TouchSchoolClient",
            dependencies: [
                "TouchSchoolCore", "TouchSchoolStore", "TouchSchoolLocalBattle", "TouchSchoolOutbox", "TouchSchoolProtocol",
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                // An event loop of its own for each connection (`ServerConnection`).
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        // The pure view: state -> cell grid, display width, the two languages. No terminal code.
        .target(name: "TouchSchoolView", dependencies: ["TouchSchoolCore"], swiftSettings: optimizedInTests),
        // The game on a terminal, without ncurses: the frame loop, the input decoder, the styles'
        // looks, and escape sequences both ways (keys in, cells out) for a terminal at the end of
        // an SSH channel. The local game (ncurses) and the SSH server both run this loop.
        .target(name: "TouchSchoolTerminal", dependencies: ["TouchSchoolCore", "TouchSchoolLocalBattle", "TouchSchoolStore", "TouchSchoolView"]),
        // The starter catalog, `Resources/schools.json`, shipped as SwiftPM's resource bundle beside
        // the programs (found by `StarterCatalogFile`). An executable target, which prints where the
        // file is, because the programs depend on it only to have the bundle built: SwiftPM links a
        // library target (and the Foundation its resource accessor imports) into its dependents,
        // not an executable one.
        .executableTarget(
            name: "TouchSchoolStarterCatalog",
            dependencies: ["TouchSchoolStore"],
            path: ".",
            exclude: [
                "Sources/TouchSchoolCore", "Sources/TouchSchoolStore", "Sources/TouchSchoolLocalBattle", "Sources/TouchSchoolView",
                "Sources/TouchSchoolProtocol", "Sources/TouchSchoolServer", "Sources/TouchSchoolOutbox", "Sources/TouchSchoolClient", "Sources/TouchSchoolTUI",
                "Sources/TouchSchoolSSH", "Sources/TouchSchoolQRCode",
                "Sources/TouchSchoolCommandLine", "Sources/TouchSchoolNetworkCommands", "Sources/TouchSchoolNetworkTUI", "Sources/TouchSchoolTerminal", "Sources/TouchSchoolCurses", "Sources/CNcurses",
                "Sources/CSQLite", "Sources/TouchSchoolBattleDatabase",
                "Tests", "Benchmarks", "docs", "scripts", "README.md", "BENCHMARKS.md",
            ],
            sources: ["Sources/TouchSchoolStarterCatalog"],
            resources: [.copy("Resources/schools.json")]
        ),
        // ncurses macros and signal plumbing that Swift cannot call directly.
        .target(name: "CNcurses", linkerSettings: [.linkedLibrary("ncursesw")]),
        // The local game's terminal through ncurses (`TerminalScreen`, a `GameTerminal`: draws the
        // changed cells, reads keys, wakes for the battle's news) and its exit signals.
        .target(name: "TouchSchoolCurses", dependencies: ["CNcurses", "TouchSchoolTerminal", "TouchSchoolView"]),
        // The commands, their options and output: everything `touchschool` does, with the network
        // passed in (`NetworkCommands`). No network modules, no Foundation.
        .target(
            name: "TouchSchoolCommandLine",
            dependencies: [
                "TouchSchoolCore", "TouchSchoolStore", "TouchSchoolLocalBattle", "TouchSchoolView", "TouchSchoolTerminal", "TouchSchoolCurses",
                "TouchSchoolBattleDatabase",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // `touchschool`: the game and the local commands, lean (BENCHMARKS.md, "Peak memory"); it
        // hands `serve`, `--server` and `import --postgres` to `touchschool-network` beside it. Not a
        // dependency of this target: SwiftPM would link the network modules in with it.
        .executableTarget(
            name: "TouchSchoolTUI",
            dependencies: ["TouchSchoolCommandLine", "TouchSchoolStore", "TouchSchoolCore", "TouchSchoolStarterCatalog"]
        ),
        // The commands' network (`LiveNetwork`): `serve` and its greeting, a game's joining of a
        // server, `--server`'s reads, `admin`, `round` and `import --postgres`, over the server,
        // the client and PostgreSQL.
        .target(
            name: "TouchSchoolNetworkCommands",
            dependencies: [
                "TouchSchoolCommandLine", "TouchSchoolCore", "TouchSchoolStore",
                "TouchSchoolServer", "TouchSchoolSSH", "TouchSchoolQRCode", "TouchSchoolClient", "TouchSchoolOutbox", "TouchSchoolProtocol", "TouchSchoolView",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // `touchschool-network`: the same commands as `touchschool`, with `LiveNetwork`.
        .executableTarget(
            name: "TouchSchoolNetworkTUI",
            dependencies: ["TouchSchoolCommandLine", "TouchSchoolNetworkCommands", "TouchSchoolStarterCatalog"]
        ),
        // The core's tests read the starter catalog and the official list through the store.
        .testTarget(name: "TouchSchoolCoreTests", dependencies: ["TouchSchoolCore", "TouchSchoolStore", "TouchSchoolStarterCatalog", "TouchSchoolTestSupport"]),
        .testTarget(name: "TouchSchoolStoreTests", dependencies: ["TouchSchoolStore", "TouchSchoolLocalBattle", "TouchSchoolCore", "TouchSchoolStarterCatalog", "StateStoreWorker", "TouchSchoolTestSupport"]),
        // One game's saving in a process of its own, for the multi-process tests of the state file.
        .executableTarget(name: "StateStoreWorker", dependencies: ["TouchSchoolCore", "TouchSchoolStore"], path: "Tests/StateStoreWorker"),
        .testTarget(name: "TouchSchoolViewTests", dependencies: ["TouchSchoolView", "TouchSchoolCore", "TouchSchoolStore", "TouchSchoolProtocol", "TouchSchoolTestSupport"]),
        .testTarget(name: "TouchSchoolTerminalTests", dependencies: ["TouchSchoolTerminal", "TouchSchoolLocalBattle", "TouchSchoolView", "TouchSchoolCore", "TouchSchoolStore", "TouchSchoolProtocol", "TouchSchoolTestSupport"]),
        .testTarget(name: "TouchSchoolProtocolTests", dependencies: ["TouchSchoolProtocol", "TouchSchoolCore", "TouchSchoolTestSupport"]),
        // What the tests share: starting programs with a clean signal state, a server process
        // (`ServerProcess`), temporary folders, waiting for a condition (`Wait`), PostgreSQL
        // clusters, commands run in process (`InProcessCommand`), and `.onOwnThreads`,
        // which every suite carries so that no test holds the cooperative pool the clients' and
        // servers' tasks run on.
        .target(name: "TouchSchoolTestSupport", dependencies: ["TouchSchoolStore", "TouchSchoolCommandLine"], path: "Tests/TestSupport"),
        // A server's commits through the battle database in a process of their own, for the kill -9
        // tests of its compaction.
        .executableTarget(name: "BattleDatabaseWorker", dependencies: ["TouchSchoolBattleDatabase", "TouchSchoolCore", "TouchSchoolStore"],
                          path: "Tests/BattleDatabaseWorker"),
        // The server on loopback, in the test process or in a process of its own; real WebSocket
        // and HTTP clients.
        .testTarget(
            name: "TouchSchoolServerTests",
            dependencies: [
                "TouchSchoolServer", "TouchSchoolClient", "TouchSchoolOutbox", "TouchSchoolProtocol", "TouchSchoolCore", "TouchSchoolStore", "TouchSchoolNetworkCommands",
                "TouchSchoolTestSupport", "TouchSchoolBattleDatabase", "TouchSchoolQRCode", "BattleDatabaseWorker",
                // The battle and its routes in process, against the in-memory store.
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                // A play socket's write buffer on a channel turned by the test (`SocketWriteBufferTests`).
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ]
        ),
        // The outbox, the device key and the server's clock, as values and files.
        .testTarget(
            name: "TouchSchoolOutboxTests",
            dependencies: ["TouchSchoolOutbox", "TouchSchoolProtocol", "TouchSchoolCore", "TouchSchoolStore", "TouchSchoolTestSupport"]
        ),
        // The client: its battle offline and against a scripted server, its folder, its waits, and
        // the board mirror it shows (whose fixtures its tests share).
        .testTarget(
            name: "TouchSchoolClientTests",
            dependencies: [
                "TouchSchoolClient", "TouchSchoolOutbox", "TouchSchoolProtocol", "TouchSchoolCore", "TouchSchoolStore", "TouchSchoolTestSupport",
                // A scripted server, to play what the real one does not (another protocol version).
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The programs end to end, as their users run them: the commands as processes, the game under
        // tmux, the page in Chromium, SSH play with OpenSSH's client.
        .testTarget(name: "TouchSchoolEndToEndTests", dependencies: ["TouchSchoolTUI", "TouchSchoolCommandLine", "TouchSchoolCurses", "TouchSchoolTerminal", "TouchSchoolCore", "TouchSchoolStore", "TouchSchoolProtocol", "TouchSchoolTestSupport"]),
    ]
)

