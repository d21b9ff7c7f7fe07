#if canImport(Glibc)
import Glibc
#endif
import NIOCore

/// What the kernel knows of how a connection's reader keeps up (Linux's `TCP_INFO`): the bytes
/// written to the socket that wait unsent because the reader's receive window is shut, and the
/// bytes the reader has acknowledged in all.
///
/// A reader that stopped reading is not always seen in the server's own writes: the kernel's
/// send buffer grows to megabytes, so a board stream's writes of a few hundred bytes a second
/// kept completing for minutes while its reader read nothing (600 such readers, none closed in
/// 75 s, the server 114 MB larger). Its receive window shuts within a few kilobytes, though,
/// and from then on whatever is written waits unsent and nothing more is acknowledged.
struct SocketProgress: Equatable, Sendable {
    var unsent: UInt32
    var acknowledged: UInt64

    /// Whether the reader has read nothing between `earlier` and this: data waited unsent at
    /// both looks and nothing was acknowledged in between. A reader that reads at all, however
    /// slowly, acknowledges what it took.
    func showsNoReading(since earlier: SocketProgress) -> Bool {
        earlier.unsent > 0 && unsent > 0 && acknowledged == earlier.acknowledged
    }

    /// The progress of `channel`'s socket; nil where the kernel does not say (not a TCP socket).
    static func of(_ channel: any Channel) async -> SocketProgress? {
        #if os(Linux)
        guard let provider = channel as? any SocketOptionProvider else { return nil }
        let info: TCPInfo
        do {
            info = try await provider.unsafeGetSocketOption(level: SocketOptionLevel(IPPROTO_TCP), name: SocketOptionName(TCP_INFO)).get()
        } catch {
            return nil
        }
        return withUnsafeBytes(of: info.bytes) { bytes in
            SocketProgress(unsent: bytes.loadUnaligned(fromByteOffset: TCPInfo.notSentOffset, as: UInt32.self),
                           acknowledged: bytes.loadUnaligned(fromByteOffset: TCPInfo.bytesAckedOffset, as: UInt64.self))
        }
        #else
        return nil
        #endif
    }

    /// Linux's `struct tcp_info` as bytes: glibc's declaration stops before the fields read here
    /// (`tcpi_bytes_acked`, Linux 4.1; `tcpi_notsent_bytes`, 4.6), so they are read at their
    /// offsets in the kernel's (include/uapi/linux/tcp.h). The kernel fills what it has.
    private struct TCPInfo: Sendable {
        static let bytesAckedOffset = 120
        static let notSentOffset = 144
        var bytes: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                    UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    }
}
