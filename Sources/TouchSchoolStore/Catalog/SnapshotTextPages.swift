#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// The string table and school records of a mapped snapshot, mapped page by page as they are
/// first read.
///
/// Why: a command reads them only for the schools it shows (20 results, a screen of ranking),
/// at scattered places. In one mapping of the whole file, the kernel's fault-around maps the 16
/// cached pages around each page touched (MADV_RANDOM does not prevent it), so 20 results held
/// 1.7 MiB of text and records where they need about 0.3 (BENCHMARKS.md, "Peak memory"). Here the
/// range starts out reserved and inaccessible, and each page is mapped from the file when first
/// read, as a mapping that holds only pages read: fault-around then has nothing else to map.
final class SnapshotTextPages: Sendable {
    private let base: UInt
    /// The pages of the mapping this covers (whole pages inside the text and records).
    let pages: Range<Int>
    private let pageSize: Int
    private let descriptor: Int32
    /// One bit per page of `pages`: mapped from the file.
    private let mapped: Mutex<[UInt64]>

    /// Reserves the whole pages of `range` in the mapping of `size` bytes at `address` of the file
    /// open as `descriptor` (which this keeps: it closes it when the mapping is gone, see
    /// `closeFile()`); nil when the range holds no whole page, or the reservation fails (then
    /// nothing changed). The range comes from a header not checked yet: only its part inside the
    /// mapping is taken, so that a damaged one cannot move anything else in the address space.
    init?(address: UnsafeMutableRawPointer, size: Int, range: Range<Int>, descriptor: Int32) {
        let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
        let range = range.clamped(to: 0..<size)
        let first = (range.lowerBound + pageSize - 1) / pageSize, end = range.upperBound / pageSize
        guard first < end else { return nil }
        let start = address + first * pageSize
        guard let reserved = mmap(start, (end - first) * pageSize, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE, -1, 0),
              reserved != MAP_FAILED else { return nil }
        self.base = UInt(bitPattern: address)
        self.pages = first..<end
        self.pageSize = pageSize
        self.descriptor = descriptor
        self.mapped = Mutex([UInt64](repeating: 0, count: (end - first + 63) / 64))
    }

    /// Maps the pages of the byte range `range` (offsets in the file) that are not mapped yet.
    func load(_ range: Range<Int>) {
        guard !range.isEmpty else { return }
        let first = max(range.lowerBound / pageSize, pages.lowerBound)
        let end = min((range.upperBound + pageSize - 1) / pageSize, pages.upperBound)
        guard first < end else { return }
        mapped.withLock { bits in
            var page = first
            while page < end {
                guard !Self.isSet(bits, page - pages.lowerBound) else { page += 1; continue }
                var runEnd = page + 1
                while runEnd < end, !Self.isSet(bits, runEnd - pages.lowerBound) { runEnd += 1 }
                let address = UnsafeMutableRawPointer(bitPattern: base + UInt(page * pageSize))
                let result = mmap(address, (runEnd - page) * pageSize, PROT_READ, MAP_PRIVATE | MAP_FIXED, descriptor, off_t(page * pageSize))
                // Only a process out of mappings gets here (vm.max_map_count): reading the page
                // would fault, so stop with the reason rather than read unmapped memory.
                guard result != MAP_FAILED else { fatalError("cannot map the catalog snapshot: \(String(cString: strerror(errno)))") }
                for loaded in page..<runEnd { bits[(loaded - pages.lowerBound) / 64] |= 1 << UInt64((loaded - pages.lowerBound) % 64) }
                page = runEnd
            }
        }
    }

    /// Closes the file; called once the whole mapping is unmapped.
    func closeFile() { closeDescriptor(descriptor) }

    private static func isSet(_ bits: [UInt64], _ index: Int) -> Bool { bits[index / 64] & (1 << UInt64(index % 64)) != 0 }
}

/// close(2), out of the class, whose own names would hide it.
private func closeDescriptor(_ descriptor: Int32) { _ = close(descriptor) }
