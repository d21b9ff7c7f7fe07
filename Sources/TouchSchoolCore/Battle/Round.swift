/// A round: a race of a class, started by the operator, counting the taps accepted for each player
/// (device) and school inside its window `[startsAtMs, endsAtMs)`, in milliseconds since 1970.
///
/// The window opens a countdown after the start was asked for, so that every screen can show the
/// same 3-2-1 before it; a batch still counts when it arrives up to `graceMs` after the window
/// closes, so that a phone that drops for a moment loses none of its race. The national totals
/// count the same taps as always: a round only counts them a second time, for itself.
public struct Round: Equatable, Sendable {
    public var id: Int64
    /// The operator's title, cleaned (`Round.title(_:)`); nil: none given.
    public var title: String?
    public var startsAtMs: Int64
    /// When the window closes: the length asked for, or earlier when the operator stopped it.
    public var endsAtMs: Int64

    public init(id: Int64, title: String?, startsAtMs: Int64, endsAtMs: Int64) {
        self.id = id
        self.title = title
        self.startsAtMs = startsAtMs
        self.endsAtMs = endsAtMs
    }

    /// The countdown between the start asked for and the window opening.
    public static let countdownMs: Int64 = 3_000
    /// How long after the window closes a batch made inside it still counts.
    public static let graceMs: Int64 = 5_000
    /// The lengths a round may be given, in seconds: from a sprint to a lesson.
    public static let seconds: ClosedRange<Int> = 5...3_600
    /// The longest title, in characters: it fits a projector's line.
    public static let maximumTitleLength = 60

    /// A round of `seconds` asked for at `nowMs`, its window opening after the countdown; nil when
    /// `seconds` is outside `Round.seconds`.
    public static func starting(id: Int64, title: String?, seconds: Int, nowMs: Int64) -> Round? {
        guard Self.seconds.contains(seconds) else { return nil }
        let startsAt = nowMs + countdownMs
        return Round(id: id, title: title, startsAtMs: startsAt, endsAtMs: startsAt + Int64(seconds) * 1_000)
    }

    /// A title as given by the operator, its surrounding spaces trimmed (nil when nothing is
    /// left). A title holding a control (`VisibleText.isControl`) or longer than
    /// `maximumTitleLength` characters (or four bytes each) is refused, not cut: `valid` false.
    public static func title(_ raw: String?) -> (title: String?, valid: Bool) {
        guard let raw else { return (nil, true) }
        let trimmed = raw.trimmingSpaces
        guard !trimmed.unicodeScalars.contains(where: VisibleText.isControl), trimmed.count <= maximumTitleLength,
              trimmed.utf8.count <= maximumTitleLength * 4 else { return (nil, false) }
        return (trimmed.isEmpty ? nil : trimmed, true)
    }

    /// The round stopped by the operator at `nowMs`: its window closes then, or stays as it was
    /// if it had already closed. Stopped in its countdown, it never opens: its window starts and
    /// ends at the stop (not 3 s later, when it would have opened), so it counts nothing and every
    /// list and screen says at once that it is over.
    public func stopped(atMs nowMs: Int64) -> Round {
        var round = self
        round.endsAtMs = min(endsAtMs, nowMs)
        round.startsAtMs = min(startsAtMs, round.endsAtMs)
        return round
    }

    /// Whether batches received at `nowMs` may still count: until the grace after the window.
    public func takesBatches(atMs nowMs: Int64) -> Bool { nowMs < endsAtMs + Self.graceMs }

    /// How many of `taps`, accepted over `startMs...endMs` (the batch's time as judged,
    /// `DeviceTapHistory.judge`) and received at `receivedAtMs`, the round counts: the share of
    /// them whose time lies in the window, the taps spread evenly over the batch's time (a batch
    /// of no length counts whole if its instant is in the window). None once the grace is over.
    public func counted(taps: UInt64, startMs: Int64, endMs: Int64, receivedAtMs: Int64) -> UInt64 {
        guard taps > 0, takesBatches(atMs: receivedAtMs), endsAtMs > startsAtMs else { return 0 }
        guard endMs > startMs else { return (startsAtMs..<endsAtMs).contains(endMs) ? taps : 0 }
        let overlap = min(endMs, endsAtMs) - max(startMs, startsAtMs)
        guard overlap > 0 else { return 0 }
        let span = UInt64(endMs - startMs)
        // taps × overlap / span without overflow: overlap ≤ span, so the quotient fits.
        let product = taps.multipliedFullWidth(by: UInt64(overlap))
        return span.dividingFullWidth(product).quotient
    }

    /// When counted taps are taken to be reached, for telling ties apart: the batch's end, cut to
    /// the window.
    public func reachedMs(batchEndMs: Int64) -> Int64 { min(max(batchEndMs, startsAtMs), endsAtMs) }
}

/// What a round counted for one player (a device) or one school.
public struct RoundCount: Equatable, Sendable {
    /// The device's public id, or the school's id.
    public var key: String
    public var count: UInt64
    /// When the count was last added to (`Round.reachedMs`): of two equal counts, which share
    /// their place, the one reached first is listed first.
    public var reachedMs: Int64

    public init(key: String, count: UInt64, reachedMs: Int64) {
        self.key = key
        self.count = count
        self.reachedMs = reachedMs
    }

    /// Adds `taps` reached at `atMs`.
    public mutating func add(_ taps: UInt64, atMs: Int64) {
        guard taps > 0 else { return }
        count = count.addingSaturating(taps)
        reachedMs = max(reachedMs, atMs)
    }
}

/// A row of a round's standings.
public struct RoundPlace: Equatable, Sendable {
    public var place: Int
    public var entry: RoundCount
    /// Another row has the same count, so the same place.
    public var tied: Bool

    public init(place: Int, entry: RoundCount, tied: Bool) {
        self.place = place
        self.entry = entry
        self.tied = tied
    }
}

public enum RoundStandings {
    /// The counts in order, the higher count first; equal counts share the place, as the national
    /// board ranks schools (150, 150, 90: places 1, 1, 3), and are listed the one reached first
    /// first, then by the smaller key, so that the same counts always list the same. Zero counts
    /// take no place.
    public static func places(_ counts: [RoundCount]) -> [RoundPlace] {
        let sorted = counts.filter { $0.count > 0 }
            .sorted { ($1.count, $0.reachedMs, $0.key) < ($0.count, $1.reachedMs, $1.key) }
        var places: [RoundPlace] = []
        places.reserveCapacity(sorted.count)
        for (index, entry) in sorted.enumerated() {
            let tiedAbove = index > 0 && sorted[index - 1].count == entry.count
            let tiedBelow = index + 1 < sorted.count && sorted[index + 1].count == entry.count
            places.append(RoundPlace(place: tiedAbove ? places[index - 1].place : index + 1, entry: entry, tied: tiedAbove || tiedBelow))
        }
        return places
    }

    /// The schools' standings, shown only when more than one school played: one school's
    /// standing says nothing its players' do not.
    public static func schoolPlaces(_ counts: [RoundCount]) -> [RoundPlace] {
        let placed = places(counts)
        return placed.count > 1 ? placed : []
    }
}

private extension String {
    var trimmingSpaces: String {
        let scalars = unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        return String(scalars[first...last])
    }
}
