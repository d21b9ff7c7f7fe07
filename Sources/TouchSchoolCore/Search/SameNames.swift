/// Which schools share their name with another school of the catalog (금성초등학교 in several
/// provinces): those a list must show with their `School.region`, which is what tells them apart.
///
/// Names are compared as search compares them (`SearchText` units: `금성 초등학교` is
/// `금성초등학교`), since a reader would take them for one school too. Worked out once per catalog
/// from the search index's name units, by a 64-bit hash of each name: no `School` or `String` is
/// made (over a snapshot, making every `School` is what a start avoids). Two different names
/// with the same hash would only show their regions without need.
public struct SameNames: Sendable {
    private let shared: [Bool]

    init(_ index: SearchIndex) {
        var hashes = [UInt64](repeating: 0, count: index.count)
        var seen = [UInt64: Int](minimumCapacity: index.count)
        for position in 0..<index.count {
            let entry = index.entries[position]
            // FNV-1a over the name's units.
            var hash: UInt64 = 0xCBF2_9CE4_8422_2325
            for unit in index.nameUnits[Int(entry.nameStart)..<(Int(entry.nameStart) + Int(entry.nameLength))] {
                hash = (hash ^ UInt64(unit)) &* 0x100_0000_01B3
            }
            hashes[position] = hash
            seen[hash, default: 0] += 1
        }
        shared = hashes.map { seen[$0]! > 1 }
    }

    /// Whether another school of the catalog has this school's name.
    public func isShared(_ position: Int) -> Bool { position >= 0 && position < shared.count && shared[position] }
}
