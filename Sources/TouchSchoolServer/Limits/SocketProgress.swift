#if canImport(Glibc)
import Glibc
#endif
import NIOCore

/// What the kernel knows of how a connection's reader keeps up (Linux's `TCP_INFO`): the bytes
/// written to the socket that the reader has not acknowledged yet, and the bytes it has
/// acknowledged in all.
///
/// A reader that stopped reading is not always seen in the server's own writes: the kernel's
/// send buffer grows to megabytes, so a board stream's writes of a few hundred bytes a second
/// kept completing for minutes while its reader read nothing (600 such readers, none closed in
/// 75 s, the server 114 MB larger). Its receive window shuts within a few kilobytes, though,
/// and from then on what was written stays unacknowledged.
struct SocketProgress: Equatable, Sendable {
    /// Written to the socket and not acknowledged: waiting unsent, or sent and not taken.
    var owed: UInt64
    var acknowledged: UInt64

    /// The fewest bytes a reader acknowledges between two looks to count as reading when more
    /// was owed. A shut window is not quite still: the kernel answers the sender's window probes
    /// and may take a few bytes of one (18 on loopback). A screen that is read takes a view of a
    /// few hundred bytes every quarter of a second.
    static let leastReading: UInt64 = 1_024

    /// Whether the reader has read nothing between `earlier` and this: bytes were owed at both
    /// looks, and of those owed at the first less than all, and less than `leastReading`, were
    /// acknowledged in between. A reader that reads, however slowly, acknowledges what it is
    /// sent within a round trip: all of it, or at least `leastReading` of a backlog.
    ///
    /// Both sorts of owed bytes count. On loopback a reader that never read left 60 KB sent
    /// into its shut window and nothing unsent: a look at the unsent bytes alone never saw it,
    /// and only the WebSocket ping closed it, after a minute.
    func showsNoReading(since earlier: SocketProgress) -> Bool {
        earlier.owed > 0 && owed > 0 && acknowledged &- earlier.acknowledged < min(earlier.owed, Self.leastReading)
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
            let acknowledged = bytes.loadUnaligned(fromByteOffset: TCPInfo.bytesAckedOffset, as: UInt64.self)
            let sent = bytes.loadUnaligned(fromByteOffset: TCPInfo.bytesSentOffset, as: UInt64.self)
                &- bytes.loadUnaligned(fromByteOffset: TCPInfo.bytesRetransmittedOffset, as: UInt64.self)
            let unsent = UInt64(bytes.loadUnaligned(fromByteOffset: TCPInfo.notSentOffset, as: UInt32.self))
            // A kernel before 4.19 leaves `sent` at 0: then only the unsent bytes are seen.
            return SocketProgress(owed: unsent + (sent > acknowledged ? sent - acknowledged : 0), acknowledged: acknowledged)
        }
        #else
        return nil
        #endif
    }

    /// Linux's `struct tcp_info` as bytes: glibc's declaration stops before the fields read here
    /// (`tcpi_bytes_acked`, Linux 4.1; `tcpi_notsent_bytes`, 4.6; `tcpi_bytes_sent` and
    /// `tcpi_bytes_retrans`, 4.19), so they are read at their offsets in the kernel's
    /// (include/uapi/linux/tcp.h). The kernel fills what it has and leaves the rest at 0.
    private struct TCPInfo: Sendable {
        static let bytesAckedOffset = 120
        static let notSentOffset = 144
        static let bytesSentOffset = 200
        static let bytesRetransmittedOffset = 208
        var bytes: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                    UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                    UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    }
}
