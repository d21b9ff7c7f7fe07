// swift-tools-version:6.1
// The benchmarks live in their own package so that the game's own build and `swift test` never
// pay for the benchmark framework. Run from this folder: `swift package benchmark`.
import PackageDescription

let package = Package(
    name: "TouchSchoolBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "TouchSchool", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        // The load benchmark (issue 9): real WebSockets on loopback.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.81.0"),
    ],
    targets: [
        .target(
            name: "BenchmarkSupport",
            dependencies: [
                .product(name: "TouchSchoolCore", package: "TouchSchool"),
                // The official list's reader and the import moved to the store module.
                .product(name: "TouchSchoolStore", package: "TouchSchool"),
            ],
            path: "Sources/BenchmarkSupport"
        ),
        .executableTarget(
            name: "SearchBenchmarks",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "TouchSchoolCore", package: "TouchSchool"),
            ],
            path: "Benchmarks/SearchBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "BattleBenchmarks",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "TouchSchoolCore", package: "TouchSchool"),
                .product(name: "TouchSchoolStore", package: "TouchSchool"),
            ],
            path: "Benchmarks/BattleBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "ViewBenchmarks",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "TouchSchoolCore", package: "TouchSchool"),
                .product(name: "TouchSchoolView", package: "TouchSchool"),
            ],
            path: "Benchmarks/ViewBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // The load benchmark (issue 9): simulated players over real WebSockets against
        // `touchschool serve` or the bare baseline server; driven by `load.sh`. Its players are
        // NIO channel handlers, so that it takes as little as it can of the cores it shares with
        // the server it measures (`PlayerConnection`).
        .executableTarget(
            name: "LoadGenerator",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ],
            path: "LoadGenerator"
        ),
        // The baseline: a Hummingbird WebSocket server that speaks the play protocol but only
        // acknowledges and broadcasts (no judging, no saving).
        .executableTarget(
            name: "BareWebSocketServer",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "TouchSchoolProtocol", package: "TouchSchool"),
            ],
            path: "BareWebSocketServer"
        ),
    ]
)
