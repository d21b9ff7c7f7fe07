// swift-tools-version:6.1
// What a server's commits write, and which SQLite library to write them with (BENCHMARKS.md,
// "The embedded database"): the same commit windows into state.json as the server wrote it before
// (the baseline), and into SQLite through the system libsqlite3 as the project calls it
// (TouchSchoolBattleDatabase), through GRDB.swift and through sqlite-nio. A package of its own, so
// that neither the game's build nor the other benchmarks pay for GRDB or sqlite-nio.
//
//   swift build -c release
//   for p in StateFileCommits SystemSQLiteCommits GRDBCommits SQLiteNIOCommits StartTimes; do .build/release/$p; done
//
// Issue 25, the layouts of battle.sqlite, each against the tables as they were, in rounds:
//   swift build -c release --product LayoutCommits && swift build -c release --product SystemSQLiteCommits
//   ./write-layouts.py
//
// Sliced compaction (BENCHMARKS.md, "Sliced compaction"): commits 20 to 459, two whole compactions:
//   swift build -c release --product SystemSQLiteCommits && STORE_WRITES_COMMITS=440 .build/release/SystemSQLiteCommits
import PackageDescription

let package = Package(
    name: "StoreWrites",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "TouchSchool", path: "../.."),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/vapor/sqlite-nio", exact: "1.13.2"),
    ],
    targets: [
        // The workload and its report, shared by the three programs.
        .target(name: "Workload", path: "Workload"),
        .executableTarget(name: "StateFileCommits", dependencies: [
            "Workload", .product(name: "TouchSchoolStore", package: "TouchSchool"), .product(name: "TouchSchoolCore", package: "TouchSchool"),
        ], path: "StateFileCommits"),
        .executableTarget(name: "SystemSQLiteCommits", dependencies: [
            "Workload", .product(name: "TouchSchoolBattleDatabase", package: "TouchSchool"),
            .product(name: "TouchSchoolCore", package: "TouchSchool"),
        ], path: "SystemSQLiteCommits"),
        // What a server's store does at start on 100,000 devices, before and now.
        .executableTarget(name: "StartTimes", dependencies: [
            "Workload", .product(name: "TouchSchoolBattleDatabase", package: "TouchSchool"),
            .product(name: "TouchSchoolStore", package: "TouchSchool"), .product(name: "TouchSchoolCore", package: "TouchSchool"),
        ], path: "StartTimes"),
        // The system's SQLite for LayoutCommits' own tables (the project's CSQLite is not a product).
        .systemLibrary(name: "SQLite3", path: "SQLite3"),
        // Issue 25: what each layout of battle.sqlite writes per commit (BENCHMARKS.md, "Writes that follow what changed").
        .executableTarget(name: "LayoutCommits", dependencies: ["Workload", "SQLite3"], path: "LayoutCommits"),
        .executableTarget(name: "GRDBCommits", dependencies: ["Workload", .product(name: "GRDB", package: "GRDB.swift")], path: "GRDBCommits"),
        .executableTarget(name: "SQLiteNIOCommits", dependencies: ["Workload", .product(name: "SQLiteNIO", package: "sqlite-nio")],
                          path: "SQLiteNIOCommits"),
    ]
)
