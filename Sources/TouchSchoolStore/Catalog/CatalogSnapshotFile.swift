#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import TouchSchoolCore

/// `catalog.snapshot` beside `catalog.json` (docs/catalog-snapshot.md): the catalog laid out for
/// mapping, written at import and rebuilt from `catalog.json` whenever it is missing or fails a
/// check. `catalog.json` stays the source of truth; this file is only ever a copy made from it.
public enum CatalogSnapshotFile {
    public static func path(forCatalog catalogPath: String) -> String {
        let (directory, _) = FileIO.split(catalogPath)
        return "\(directory)/catalog.snapshot"
    }

    /// Why a snapshot was not used.
    public enum Problem: Error, Equatable, Sendable, CustomStringConvertible {
        case missing
        /// Made from another `catalog.json` than the one there now (edited, or imported by a
        /// program that does not write snapshots).
        case stale
        case unreadable(String)
        case rejected(CatalogSnapshotError)

        public var description: String {
            switch self {
            case .missing: "missing"
            case .stale: "made from an older or another catalog.json"
            case let .unreadable(reason): "unreadable: \(reason)"
            case let .rejected(error): "\(error)"
            }
        }
    }

    /// The catalog of the snapshot at `path`, mapped, when it passes its checks and was made from
    /// the `catalog.json` with this stamp.
    public static func open(path: String, madeFrom catalogStamp: FileStamp) -> Result<Catalog, Problem> {
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            return .failure(code == ENOENT ? .missing : .unreadable(String(cString: strerror(code))))
        }
        var keepDescriptor = false
        defer { if !keepDescriptor { close(descriptor) } }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return .failure(.unreadable(String(cString: strerror(errno)))) }
        guard info.st_mode & S_IFMT == S_IFREG else { return .failure(.unreadable("not a regular file")) }
        let size = Int(info.st_size)
        guard size > 0 else { return .failure(.rejected(.truncated(0))) }
        // Private and read-only: the pages come from the page cache, shared with every other game,
        // and only those a command touches are read. Snapshots are only ever replaced by rename,
        // never rewritten in place, so the mapped version stays whole.
        guard let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0), address != MAP_FAILED else {
            return .failure(.unreadable(String(cString: strerror(errno))))
        }
        // A search reads a few arrays of the file and a few schools' text: no read-ahead of the
        // pages beside those it touches.
        madvise(address, size, MADV_RANDOM)
        // Nor for the checksum's reads below: read ahead, the file would be cached in large
        // folios, and a mapping maps a whole folio at the first touch of any page in it (all of
        // `locationUnits`, 0.9 MiB, for a search that reads none of it).
        #if os(Linux)
        _ = posix_fadvise(descriptor, 0, 0, POSIX_FADV_RANDOM)
        #endif
        // The text and records are mapped page by page as they are read (`SnapshotTextPages`);
        // where they are comes from the header, read without touching the mapping.
        var textPages: SnapshotTextPages?
        if let lazyRange = lazyRange(descriptor) {
            textPages = SnapshotTextPages(address: address, size: size, range: lazyRange, descriptor: descriptor)
            keepDescriptor = textPages != nil
        }
        let mapping = Mapping(address: address, size: size, textPages: textPages)
        var load: (@Sendable (Range<Int>) -> Void)?
        if let textPages { load = { range in textPages.load(range) } }
        let snapshot: CatalogSnapshot
        do {
            snapshot = try CatalogSnapshot(bytes: UnsafeRawBufferPointer(start: address, count: size), owner: mapping,
                                           contentChecksum: try contentChecksum(descriptor, size: size), load: load)
        } catch let failure as Problem {
            return .failure(failure)
        } catch let error as CatalogSnapshotError {
            return .failure(.rejected(error))
        } catch {
            return .failure(.unreadable("\(error)"))
        }
        guard snapshot.stamp == Self.stamp(catalogStamp) else { return .failure(.stale) }
        return .success(Catalog(snapshot: snapshot))
    }

    /// The checksum of the bytes after the header, read through the descriptor in pieces into one
    /// small buffer: reading them through the mapping would bring every page of the file into the
    /// process's memory, where a search needs a fifth of them.
    private static func contentChecksum(_ descriptor: Int32, size: Int) throws(Problem) -> UInt64? {
        let start = CatalogSnapshotChecksum.headerSize
        guard size > start else { return nil }  // too short: the snapshot's own checks say so
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 8)
        defer { buffer.deallocate() }
        var checksum = CatalogSnapshotChecksum()
        var offset = start
        while offset < size {
            let got = pread(descriptor, buffer.baseAddress, min(buffer.count, size - offset), off_t(offset))
            if got < 0 {
                if errno == EINTR { continue }
                throw .unreadable(String(cString: strerror(errno)))
            }
            guard got > 0 else { throw .rejected(.truncated(offset)) }
            // Pieces of whole words: a short read is taken up to its last whole word.
            let whole = got - got % 8
            checksum.add(UnsafeRawBufferPointer(rebasing: buffer[..<whole]))
            offset += whole
            if whole == 0 { break }
        }
        return checksum.value
    }

    /// Writes the snapshot of `catalog`, read from the `catalog.json` with this stamp, atomically,
    /// and leaves none of it in the page cache: the processes that map it next then read only the
    /// pages they touch (`FileIO.dropFromPageCache`).
    public static func write(_ catalog: Catalog, madeFrom catalogStamp: FileStamp, to path: String,
                             fileSystem: FileSystem = .live) throws(FileError) {
        try fileSystem.replaceAtomically(path, with: CatalogSnapshot.encode(catalog, stamp: stamp(catalogStamp)))
        FileIO.dropFromPageCache(path)
    }

    static func stamp(_ stamp: FileStamp) -> CatalogSnapshotStamp {
        CatalogSnapshotStamp(device: stamp.device, inode: stamp.inode, size: UInt64(bitPattern: stamp.size),
                             modifiedSeconds: UInt64(bitPattern: Int64(stamp.modifiedSeconds)),
                             modifiedNanoseconds: UInt64(bitPattern: Int64(stamp.modifiedNanoseconds)))
    }

    /// Where the header says the text and records are; nil when it cannot be read or is not a
    /// snapshot's (the snapshot's own checks then say what is wrong).
    private static func lazyRange(_ descriptor: Int32) -> Range<Int>? {
        var header = [UInt8](repeating: 0, count: CatalogSnapshot.headerSize)
        let got = header.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard got == header.count else { return nil }
        return header.withUnsafeBytes { CatalogSnapshot.lazyRange(header: $0) }
    }

    /// Keeps a snapshot mapped as long as a catalog, search or leaderboard reads it.
    private final class Mapping {
        let address: UnsafeMutableRawPointer
        let size: Int
        let textPages: SnapshotTextPages?
        init(address: UnsafeMutableRawPointer, size: Int, textPages: SnapshotTextPages?) {
            self.address = address
            self.size = size
            self.textPages = textPages
        }
        deinit {
            munmap(address, size)
            textPages?.closeFile()
        }
    }
}
