import Foundation
import TouchSchoolCore
@testable import TouchSchoolStore

/// The official school lists in `../shared/data`, beside the package. Never copied into the repo:
/// tests that need them are skipped, visibly, where they are absent.
enum SharedData {
    static let directory: String = {
        var url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while url.path != "/", !FileIO.exists(url.appendingPathComponent("Package.swift").path) {
            url.deleteLastPathComponent()
        }
        return url.deletingLastPathComponent().appendingPathComponent("shared/data").path
    }()

    static let edition2026CP949 = "korea-schools-2026-03-20.cp949.csv"
    static let edition2026UTF8 = "korea-schools-2026-03-20.utf8.csv"
    static let edition2025CP949 = "korea-schools-2025-03-25.cp949.csv"

    static var isAvailable: Bool {
        [edition2026CP949, edition2026UTF8, edition2025CP949].allSatisfy { FileIO.exists(path($0)) }
    }

    static func path(_ file: String) -> String { "\(directory)/\(file)" }
}

/// A fresh directory under the system's temporary directory, removed by `remove()`.
