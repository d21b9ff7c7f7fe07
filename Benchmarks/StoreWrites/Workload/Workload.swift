#if canImport(Glibc)
import Glibc
#endif

/// The commit windows every store runs: 2,000 players each sending a batch a second make 100
/// batches per 50 ms window; each window reads and rewrites its 100 devices (their last batch
/// and their player), adds to their schools' totals (500 schools, or `STORE_WRITES_SCHOOLS`: 2,000
/// is a national event's one school per player) and moves the board's version
/// on, durably: in SQLite one transaction with `synchronous=FULL` in WAL mode, as the server does
/// now; in state.json the whole file replaced under its lock, as the server did before.
public enum Workload {
    public static let devices = 2_000
    public static let devicesPerCommit = 100
    public static let schools = getenv("STORE_WRITES_SCHOOLS").flatMap { Int(String(cString: $0)) } ?? 500
    public static let warmUpCommits = 20
    /// 400, or `STORE_WRITES_COMMITS`: a run that ends where a compaction has ended counts
    /// every compaction it started (one every 200 commits).
    public static let measuredCommits = getenv("STORE_WRITES_COMMITS").flatMap { Int(String(cString: $0)) } ?? 400

    /// A 43-character key that sorts as randomly as the clients' random keys do.
    public static func deviceKey(_ index: Int) -> String {
        let mixed = String(UInt64(index + 1) &* 0x9E37_79B9_7F4A_7C15, radix: 36)
        return mixed + String(repeating: "k", count: 43 - mixed.count - String(index).count) + String(index)
    }

    public static func school(ofDevice index: Int) -> String { "S\(1_000 + index % schools)" }

    /// The devices of commit `number`: every device once in 20 windows (a batch a second each),
    /// in an order unrelated to their keys'.
    public static func window(_ number: Int) -> [Int] {
        let first = (number * devicesPerCommit) % devices
        return (first..<(first + devicesPerCommit)).map { ($0 * 7_919) % devices }
    }

    /// A new directory under /tmp.
    public static func temporaryDirectory() -> String {
        var template = Array("/tmp/touchschool-store-writes-XXXXXX".utf8CString)
        return template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
    }

    /// Removes a directory `temporaryDirectory` made, with the files in it.
    public static func remove(_ directory: String) {
        if let listing = opendir(directory) {
            while let entry = readdir(listing) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                if name != "." && name != ".." { unlink("\(directory)/\(name)") }
            }
            closedir(listing)
        }
        rmdir(directory)
    }

    /// `write_bytes` of /proc/self/io: what this process caused to be written to storage.
    public static func writtenBytes() -> Int {
        guard let file = fopen("/proc/self/io", "r") else { return 0 }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 256)
        while fgets(&line, 256, file) != nil {
            let text = String(cString: line)
            if text.hasPrefix("write_bytes:") { return Int(text.dropFirst(12).trimmingPrefix(" ").prefix { $0.isNumber }) ?? 0 }
        }
        return 0
    }

    /// Runs `commit` for the warm-up and measured windows and prints one line: the library,
    /// median and p99 commit latency, bytes written per commit, the slowest commit. `finally` runs inside the
    /// measurement, after the last commit (a checkpoint still due).
    public static func run(_ library: String, finally: () -> Void = {}, _ commit: (Int) throws -> Void) rethrows {
        for number in 0..<warmUpCommits { try commit(number) }
        var latencies: [Duration] = []
        let bytesBefore = writtenBytes()
        let clock = ContinuousClock()
        for number in warmUpCommits..<(warmUpCommits + measuredCommits) {
            latencies.append(try clock.measure { try commit(number) })
        }
        finally()
        report(library, latencies: latencies, bytes: writtenBytes() - bytesBefore)
    }

    /// The same for a library whose calls are asynchronous.
    public static func run(_ library: String, _ commit: (Int) async throws -> Void) async rethrows {
        for number in 0..<warmUpCommits { try await commit(number) }
        var latencies: [Duration] = []
        let bytesBefore = writtenBytes()
        let clock = ContinuousClock()
        for number in warmUpCommits..<(warmUpCommits + measuredCommits) {
            let start = clock.now
            try await commit(number)
            latencies.append(clock.now - start)
        }
        report(library, latencies: latencies, bytes: writtenBytes() - bytesBefore)
    }

    static func report(_ library: String, latencies: [Duration], bytes: Int) {
        let sorted = latencies.map { Double($0.components.attoseconds) / 1e12 + Double($0.components.seconds) * 1e6 }.sorted()
        let median = sorted[sorted.count / 2], p99 = sorted[sorted.count * 99 / 100]
        // The slowest after the bytes: a pause of one window in 200 (a compaction) is under the
        // p99 of 400 windows, and the scripts read the figures before it.
        print("\(library): \(measuredCommits) commits of \(devicesPerCommit) devices: median \(Int(median)) µs, p99 \(Int(p99)) µs, "
              + "\(bytes / measuredCommits) bytes written per commit, slowest \(Int(sorted.last ?? 0)) µs")
    }
}
