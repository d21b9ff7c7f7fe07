import Synchronization

/// The QR codes drawn lately, by their text: every projector of a server asks for the code of
/// the same few join addresses, and each code costs about 1.5 ms to draw (eight masks scored).
/// The oldest drawn is the first forgotten; what is not cached is drawn within the server's QR
/// budget (`RequestBudgetPolicy.allQRCodesPerSecond`).
final class QRCodeCache: Sendable {
    static let capacity = 64
    private let cached = Mutex<(svgs: [String: String], order: [String])>(([:], []))

    /// The code of `text` as SVG; nil when `text` is too long for a code.
    func svg(for text: String) -> String? {
        if let hit = cached.withLock({ $0.svgs[text] }) { return hit }
        guard let svg = QRCode(text)?.svg else { return nil }
        cached.withLock { cached in
            guard cached.svgs.updateValue(svg, forKey: text) == nil else { return }
            cached.order.append(text)
            if cached.order.count > Self.capacity { cached.svgs[cached.order.removeFirst()] = nil }
        }
        return svg
    }
}
