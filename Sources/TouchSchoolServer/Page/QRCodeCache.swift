import TouchSchoolQRCode
import Synchronization

/// The QR codes drawn lately, by their text: every projector of a server asks for the code of
/// the same few join addresses, and each code costs about 1.5 ms to draw (eight masks scored).
/// The oldest drawn is the first forgotten; what is not cached is drawn within the server's QR
/// budget (`RequestBudgetPolicy.allQRCodesPerSecond`).
final class QRCodeCache: Sendable {
    static let capacity = 64
    private let cached = Mutex<(svgs: [String: String], order: [String])>(([:], []))

    enum Drawn: Equatable {
        case svg(String)
        /// Too long for a code.
        case tooLong
        /// Not cached, and `mayDraw` said no.
        case busy
    }

    /// The code of `text` as SVG, from the cache, or drawn now if `mayDraw` allows.
    func svg(for text: String, mayDraw: () -> Bool) -> Drawn {
        if let hit = cached.withLock({ $0.svgs[text] }) { return .svg(hit) }
        guard mayDraw() else { return .busy }
        guard let svg = QRCode(text)?.svg else { return .tooLong }
        cached.withLock { cached in
            guard cached.svgs.updateValue(svg, forKey: text) == nil else { return }
            cached.order.append(text)
            if cached.order.count > Self.capacity { cached.svgs[cached.order.removeFirst()] = nil }
        }
        return .svg(svg)
    }
}
