/// A leaderboard scope: the whole country, one level, one province, or one level in one province.
public enum League: Hashable, Sendable {
    case national
    case level(SchoolLevel)
    case province(String)
    case levelInProvince(SchoolLevel, String)

    public func contains(_ school: School) -> Bool {
        switch self {
        case .national: true
        case let .level(level): school.level == level
        case let .province(province): school.province == province
        case let .levelInProvince(level, province): school.level == level && school.province == province
        }
    }

    /// The four leagues every school belongs to, widest first.
    public static func leagues(of school: School) -> [League] {
        [.national, .level(school.level), .province(school.province), .levelInProvince(school.level, school.province)]
    }

    /// Which of a school's four leagues this is: the index into `leagues(of:)`.
    fileprivate var slot: Int {
        switch self {
        case .national: 0
        case .level: 1
        case .province: 2
        case .levelInProvince: 3
        }
    }
}

/// One row of a leaderboard.
public struct RankedSchool: Equatable, Sendable {
    /// Position of the school in the catalog.
    public var position: Int
    /// 1-based; ties share a rank (1, 2, 2, 4).
    public var rank: Int
    public var count: UInt64

    public init(position: Int, rank: Int, count: UInt64) {
        self.position = position
        self.rank = rank
        self.count = count
    }

    /// The rank as every screen and command shows it: none for a school without a tap, which would
    /// otherwise share the first place with every school of a fresh battle.
    public var shownRank: Int? { count == 0 ? nil : rank }
}

/// The live ranking of every school, national and per league. Changing one school's count costs
/// O(log n); nothing ever re-sorts all schools.
///
/// Each league is an order-statistic treap over the league's schools, ordered by count descending,
/// then by a fixed tie order (name, province, id). Every school owns four tree nodes, one per league
/// it belongs to (`League.leagues(of:)`): node `slot * schoolCount + school`, so it needs no lookup
/// table and the nodes of the national tree, the deepest, lie together in memory. The
/// nodes carry their school's key (count and tie order) so that a search touches one node per step,
/// and a count change that leaves a school between the same neighbours (the common case while one
/// school is being tapped) only rewrites its own four nodes.
/// The nodes of each league are also threaded in order (`previous`/`next`) so that this check, and
/// listing a page of rows, cost O(1) per node.
public struct Leaderboard: Sendable {
    private static let slotsPerSchool = 4
    private let schoolCount: Int
    private static let none: Int32 = -1

    private struct Node: Sendable {
        var left: Int32 = Leaderboard.none
        var right: Int32 = Leaderboard.none
        /// Neighbours in the league's order: the school just above and just below.
        var previous: Int32 = Leaderboard.none
        var next: Int32 = Leaderboard.none
        /// Nodes in this subtree.
        var size: Int32 = 1
        /// The school's place in the fixed tie order, so that ties compare two integers, not strings.
        var tie: Int32 = 0
        var count: UInt64 = 0

        var key: Key { Key(count: count, tie: tie) }
    }

    /// Where a school sits in the order: count descending, then tie order.
    private struct Key {
        var count: UInt64
        var tie: Int32

        func precedes(_ other: Key) -> Bool { count > other.count || (count == other.count && tie < other.tie) }
    }

    private var nodes: [Node]
    /// The root node of each league's tree, by league number.
    private var roots: [Int32]
    /// The league number of each node.
    private let leagueOfNode: [Int32]
    /// The catalog's provinces, in order of first appearance: a province league's number comes
    /// from its place here (see `number(of:)`).
    private let provinceNames: [String]
    /// Each school's count when `markMovementBaseline` was last called (or at init).
    private var baselineCounts: [UInt64]
    /// The schools whose count has been set since the baseline, each once (`isChanged`): the only
    /// ones that can have passed, or been passed by, a school without crossing its count.
    private var changedSinceBaseline: [Int32] = []
    private var isChangedSinceBaseline: [Bool]

    public init(catalog: Catalog, counts: [UInt64]) {
        precondition(counts.count == catalog.count, "one count per school of the catalog")
        let schoolCount = catalog.count
        // The tie order and the leagues as small integers: stored in a snapshot, else worked out
        // once from the schools.
        let keys = catalog.rankingKeys
        let tieOrder = keys.tieOrder

        // Leagues are numbered national 0, levels 1–3, then provinces, then each province's
        // levels (`number(of:)`); provinces are whatever the catalog holds.
        let provinceCount = keys.provinceNames.count
        var leagueOfNode = [Int32](repeating: 0, count: schoolCount * Self.slotsPerSchool)
        for position in 0..<schoolCount {
            let level = Int32(keys.levels[position]), province = Int32(keys.provinceOfSchool[position])
            leagueOfNode[schoolCount + position] = 1 + level
            leagueOfNode[2 * schoolCount + position] = Self.firstProvinceLeague + province
            leagueOfNode[3 * schoolCount + position] = Self.firstProvinceLeague + Int32(provinceCount) + 3 * province + level
        }

        self.schoolCount = schoolCount
        self.leagueOfNode = leagueOfNode
        self.provinceNames = keys.provinceNames
        var nodes = Array(repeating: Node(), count: leagueOfNode.count)
        for (index, count) in counts.enumerated() {
            for slot in 0..<Self.slotsPerSchool {
                nodes[slot * schoolCount + index].count = count
                nodes[slot * schoolCount + index].tie = tieOrder[index]
            }
        }
        self.nodes = nodes
        self.roots = Array(repeating: Self.none, count: Int(Self.firstProvinceLeague) + 4 * provinceCount)
        self.baselineCounts = counts
        self.isChangedSinceBaseline = Array(repeating: false, count: schoolCount)

        // Lay out every league in order once, then build each tree from its sorted nodes in
        // linear time. The tie order gives the order of equal counts, so only the schools with
        // taps need sorting: they come first, sorted, then the rest in tie order.
        var inTieOrder = [Int32](repeating: 0, count: schoolCount)
        for (position, place) in tieOrder.enumerated() { inTieOrder[Int(place)] = Int32(position) }
        var order = inTieOrder.filter { counts[Int($0)] > 0 }
        order.sort { nodes[Int($0)].key.precedes(nodes[Int($1)].key) }
        order += inTieOrder.lazy.filter { counts[Int($0)] == 0 }
        var leagueMembers = Array(repeating: [Int32](), count: roots.count)
        for school in order {
            for slot in 0..<Self.slotsPerSchool {
                let node = slot * schoolCount + Int(school)
                leagueMembers[Int(leagueOfNode[node])].append(Int32(node))
            }
        }
        for (league, members) in leagueMembers.enumerated() { roots[league] = buildTree(members) }
    }

    private static let firstProvinceLeague: Int32 = 4

    /// The league's number, nil for a province the catalog does not hold.
    private func number(of league: League) -> Int32? {
        func province(_ name: String) -> Int32? { provinceNames.firstIndex(of: name).map(Int32.init) }
        switch league {
        case .national: return 0
        case let .level(level): return 1 + Int32(CatalogSnapshotLayout.levelCode(level))
        case let .province(name): return province(name).map { Self.firstProvinceLeague + $0 }
        case let .levelInProvince(level, name):
            return province(name).map { Self.firstProvinceLeague + Int32(provinceNames.count) + 3 * $0 + Int32(CatalogSnapshotLayout.levelCode(level)) }
        }
    }

    public func count(of school: Int) -> UInt64 { nodes[school].count }

    public mutating func setCount(_ count: UInt64, of school: Int) {
        guard count != nodes[school].count else { return }
        if !isChangedSinceBaseline[school] {
            isChangedSinceBaseline[school] = true
            changedSinceBaseline.append(Int32(school))
        }
        let key = Key(count: count, tie: nodes[school].tie)
        // Only the nodes whose neighbours change leave their trees (searched by their old key);
        // the rest stay where they are.
        var moving: UInt8 = 0
        for slot in 0..<Self.slotsPerSchool where !staysBetweenNeighbours(slot * schoolCount + school, at: key) {
            moving |= 1 << slot
            remove(slot * schoolCount + school)
        }
        for slot in 0..<Self.slotsPerSchool { nodes[slot * schoolCount + school].count = count }
        guard moving != 0 else { return }
        for slot in 0..<Self.slotsPerSchool where moving & (1 << slot) != 0 {
            insert(slot * schoolCount + school)
        }
    }

    /// Saturating: never wraps past `UInt64.max`.
    public mutating func add(_ taps: UInt64, to school: Int) {
        setCount(count(of: school).addingSaturating(taps), of: school)
    }

    /// How many schools the league holds.
    public func size(of league: League) -> Int {
        guard let number = number(of: league) else { return 0 }
        return Int(size(roots[Int(number)]))
    }

    /// 1-based rank; ties share a rank.
    public func rank(of school: Int, in league: League) -> Int {
        let node = node(of: school, in: league)
        return rank(ofCount: nodes[node].count, inTree: roots[Int(leagueOfNode[node])])
    }

    /// 0-based place in the league's stable order (count descending, then a fixed tie order).
    public func place(of school: Int, in league: League) -> Int {
        let target = node(of: school, in: league)
        let key = nodes[target].key
        var place = 0
        var current = roots[Int(leagueOfNode[target])]
        while current != Int32(target) {
            let node = nodes[Int(current)]
            if key.precedes(node.key) {
                current = node.left
            } else {
                place += Int(size(node.left)) + 1
                current = node.right
            }
        }
        return place + Int(size(nodes[target].left))
    }

    /// The rows at these places of the league's order; places past the end are left out.
    public func entries(in league: League, places: Range<Int>) -> [RankedSchool] {
        guard let number = number(of: league) else { return [] }
        let root = roots[Int(number)]
        let places = places.clamped(to: 0..<Int(size(root)))
        guard !places.isEmpty else { return [] }
        var rows: [RankedSchool] = []
        rows.reserveCapacity(places.count)
        var node = select(places.lowerBound, inTree: root)
        var rank = rank(ofCount: nodes[Int(node)].count, inTree: root)
        for place in places {
            let count = nodes[Int(node)].count
            if let above = rows.last, above.count != count { rank = place + 1 }
            rows.append(RankedSchool(position: school(of: node), rank: rank, count: count))
            node = nodes[Int(node)].next
        }
        return rows
    }

    /// Where the school stands in each of its four leagues, in `League.leagues(of:)` order: found
    /// from its own node in each league's tree, O(log n) each, without looking a league up by its
    /// province's name (a view is computed for every school watched, several times a second).
    public func standings(of school: Int) -> [LeagueStanding] {
        (0..<Self.slotsPerSchool).map { slot in
            let node = slot * schoolCount + school
            let number = leagueOfNode[node]
            let root = roots[Int(number)]
            let count = nodes[node].count
            let rank = rank(ofCount: count, inTree: root)
            // As `schoolAbove`: the last school with a greater count sits at place rank - 2.
            let gap = rank > 1 ? nodes[Int(select(rank - 2, inTree: root))].count - count : nil
            return LeagueStanding(league: league(numbered: number), rank: rank, size: Int(size(root)), gap: gap)
        }
    }

    /// The league of a number `number(of:)` gives.
    private func league(numbered number: Int32) -> League {
        // Level codes (`CatalogSnapshotLayout.levelCode`) follow `SchoolLevel.allCases`.
        let levels = SchoolLevel.allCases
        if number == 0 { return .national }
        if number < Self.firstProvinceLeague { return .level(levels[Int(number) - 1]) }
        let province = Int(number - Self.firstProvinceLeague)
        if province < provinceNames.count { return .province(provinceNames[province]) }
        let levelInProvince = province - provinceNames.count
        return .levelInProvince(levels[levelInProvince % 3], provinceNames[levelInProvince / 3])
    }

    /// The nearest school with a strictly greater count: whom to overtake next. Nil for the leader(s).
    /// Among several schools tied at that count, the one just above in the league's order.
    public func schoolAbove(_ school: Int, in league: League) -> RankedSchool? {
        let node = node(of: school, in: league)
        let root = roots[Int(leagueOfNode[node])]
        let rank = rank(ofCount: nodes[node].count, inTree: root)
        guard rank > 1 else { return nil }
        // Ranks are 1 + the number of schools with a greater count, so the last of those sits at
        // place rank - 2.
        let above = select(rank - 2, inTree: root)
        let count = nodes[Int(above)].count
        return RankedSchool(position: self.school(of: above), rank: self.rank(ofCount: count, inTree: root), count: count)
    }

    /// Remembers every count now, as "a moment ago" for `movement`. Costs one step per school
    /// changed since the last baseline.
    public mutating func markMovementBaseline() {
        for changed in changedSinceBaseline {
            let school = Int(changed)
            baselineCounts[school] = nodes[school].count
            isChangedSinceBaseline[school] = false
        }
        changedSinceBaseline.removeAll(keepingCapacity: true)
    }

    /// Places climbed since the baseline (negative: fell): one for each school of the league that
    /// was ahead then and is behind now, less one for each that was behind and is ahead. Ahead
    /// and behind are strict: leaving or joining a tie passes no one, so when one of many schools
    /// at 0 taps, the others have not moved (their shared rank drops, but nobody overtook them).
    /// O(log n + schools changed since the baseline).
    public func movement(of school: Int, in league: League) -> Int {
        let node = node(of: school, in: league)
        let leagueNumber = leagueOfNode[node]
        let before = baselineCounts[school], now = nodes[school].count
        // A school that kept its count since the baseline was passed by this one, or passed it,
        // exactly when that count lies strictly between this one's then and now: counted in the
        // tree, then the changed schools are taken out of that count and judged one by one.
        var climbed = 0
        var unchangedBetween = 0
        let (low, high) = (min(before, now), max(before, now))
        if high - low > 1 {
            let root = roots[Int(leagueNumber)]
            unchangedBetween = rank(ofCount: low, inTree: root) - rank(ofCount: high - 1, inTree: root)
        }
        for changed in changedSinceBaseline {
            let other = Int(changed)
            guard other != school, leagueOfNode[league.slot * schoolCount + other] == leagueNumber else { continue }
            let otherNow = nodes[other].count, otherBefore = baselineCounts[other]
            if low < otherNow && otherNow < high { unchangedBetween -= 1 }
            if otherBefore > before && otherNow < now { climbed += 1 }
            if otherBefore < before && otherNow > now { climbed -= 1 }
        }
        return climbed + (now > before ? unchangedBetween : -unchangedBetween)
    }

    // MARK: - Order

    private func school(of node: Int32) -> Int { Int(node) % schoolCount }

    /// Whether the node would keep its place with this key.
    private func staysBetweenNeighbours(_ node: Int, at key: Key) -> Bool {
        let previous = nodes[node].previous
        if previous != Self.none && !nodes[Int(previous)].key.precedes(key) { return false }
        let next = nodes[node].next
        if next != Self.none && !key.precedes(nodes[Int(next)].key) { return false }
        return true
    }

    private func node(of school: Int, in league: League) -> Int {
        let node = league.slot * schoolCount + school
        precondition(number(of: league) == leagueOfNode[node], "school \(school) is not in \(league)")
        return node
    }

    // MARK: - Order-statistic treap

    /// A fixed pseudo-random heap priority per node (splitmix64's finalizer), with the node number
    /// as tie-breaker so that priorities are distinct. Priorities don't depend on counts, so the
    /// expected depth stays O(log n) however the counts move.
    private static func priority(_ node: Int32) -> UInt64 {
        var z = UInt64(UInt32(bitPattern: node)) &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return (z ^ (z >> 31)) & ~0xFFFF_FFFF | UInt64(UInt32(bitPattern: node))
    }

    private func size(_ node: Int32) -> Int32 { node == Self.none ? 0 : nodes[Int(node)].size }

    /// Builds a treap from nodes already in order (a Cartesian tree, built with a stack in O(k)).
    private mutating func buildTree(_ members: [Int32]) -> Int32 {
        // The spine holds each node with its priority, worked out once per node.
        var spine: [(node: Int32, priority: UInt64)] = []
        for (index, node) in members.enumerated() {
            nodes[Int(node)].previous = index > 0 ? members[index - 1] : Self.none
            nodes[Int(node)].next = index + 1 < members.count ? members[index + 1] : Self.none
            let priority = Self.priority(node)
            var lastPopped = Self.none
            while let top = spine.last, top.priority < priority {
                lastPopped = spine.removeLast().node
            }
            nodes[Int(node)].left = lastPopped
            if let top = spine.last { nodes[Int(top.node)].right = node }
            spine.append((node, priority))
        }
        guard let root = spine.first?.node else { return Self.none }
        computeSizes(root)
        return root
    }

    @discardableResult
    private mutating func computeSizes(_ node: Int32) -> Int32 {
        guard node != Self.none else { return 0 }
        let size = computeSizes(nodes[Int(node)].left) + computeSizes(nodes[Int(node)].right) + 1
        nodes[Int(node)].size = size
        return size
    }

    private mutating func attach(_ child: Int32, under parent: Int32, onLeft: Bool, league: Int) {
        if parent == Self.none {
            roots[league] = child
        } else if onLeft {
            nodes[Int(parent)].left = child
        } else {
            nodes[Int(parent)].right = child
        }
    }

    /// Takes the node out of its league's tree and order; its key must be unchanged since it was
    /// inserted, as the search follows it.
    private mutating func remove(_ target: Int) {
        let league = Int(leagueOfNode[target])
        let key = nodes[target].key
        var parent = Self.none
        var onLeft = false
        var current = roots[league]
        while current != Int32(target) {
            nodes[Int(current)].size -= 1
            parent = current
            onLeft = key.precedes(nodes[Int(current)].key)
            current = onLeft ? nodes[Int(current)].left : nodes[Int(current)].right
        }
        let removed = nodes[target]
        attach(merge(removed.left, removed.right), under: parent, onLeft: onLeft, league: league)
        if removed.previous != Self.none { nodes[Int(removed.previous)].next = removed.next }
        if removed.next != Self.none { nodes[Int(removed.next)].previous = removed.previous }
    }

    /// Puts the node back into its league's tree and order, at its current key.
    private mutating func insert(_ target: Int) {
        let league = Int(leagueOfNode[target])
        let key = nodes[target].key
        let priority = Self.priority(Int32(target))
        var parent = Self.none
        var onLeft = false
        var current = roots[league]
        // The last nodes passed on either side of the search path are the new neighbours.
        var previous = Self.none
        var next = Self.none
        while current != Self.none && Self.priority(current) > priority {
            nodes[Int(current)].size += 1
            parent = current
            onLeft = key.precedes(nodes[Int(current)].key)
            if onLeft {
                next = current
                current = nodes[Int(current)].left
            } else {
                previous = current
                current = nodes[Int(current)].right
            }
        }
        let (left, right) = split(current, around: key, previous: &previous, next: &next)
        nodes[target].left = left
        nodes[target].right = right
        nodes[target].previous = previous
        nodes[target].next = next
        nodes[target].size = size(left) + size(right) + 1
        if previous != Self.none { nodes[Int(previous)].next = Int32(target) }
        if next != Self.none { nodes[Int(next)].previous = Int32(target) }
        attach(Int32(target), under: parent, onLeft: onLeft, league: league)
    }

    /// Splits a subtree into the nodes before and after `key`, noting the last node passed on
    /// each side.
    private mutating func split(
        _ tree: Int32, around key: Key, previous: inout Int32, next: inout Int32
    ) -> (Int32, Int32) {
        guard tree != Self.none else { return (Self.none, Self.none) }
        if nodes[Int(tree)].key.precedes(key) {
            previous = tree
            let (left, right) = split(nodes[Int(tree)].right, around: key, previous: &previous, next: &next)
            nodes[Int(tree)].right = left
            nodes[Int(tree)].size -= size(right)
            return (tree, right)
        } else {
            next = tree
            let (left, right) = split(nodes[Int(tree)].left, around: key, previous: &previous, next: &next)
            nodes[Int(tree)].left = right
            nodes[Int(tree)].size -= size(left)
            return (left, tree)
        }
    }

    /// Joins two subtrees where every node of `left` comes before every node of `right`.
    private mutating func merge(_ left: Int32, _ right: Int32) -> Int32 {
        if left == Self.none { return right }
        if right == Self.none { return left }
        if Self.priority(left) > Self.priority(right) {
            nodes[Int(left)].size += size(right)
            nodes[Int(left)].right = merge(nodes[Int(left)].right, right)
            return left
        } else {
            nodes[Int(right)].size += size(left)
            nodes[Int(right)].left = merge(left, nodes[Int(right)].left)
            return right
        }
    }

    /// 1 + the number of schools in the tree with a greater count.
    private func rank(ofCount count: UInt64, inTree root: Int32) -> Int {
        var greater = 0
        var current = root
        while current != Self.none {
            let node = nodes[Int(current)]
            if node.count > count {
                greater += Int(size(node.left)) + 1
                current = node.right
            } else {
                current = node.left
            }
        }
        return greater + 1
    }

    /// The node at this 0-based place of the tree's order.
    private func select(_ place: Int, inTree root: Int32) -> Int32 {
        var remaining = Int32(place)
        var current = root
        while true {
            let node = nodes[Int(current)]
            let leftSize = size(node.left)
            if remaining < leftSize {
                current = node.left
            } else if remaining == leftSize {
                return current
            } else {
                remaining -= leftSize + 1
                current = node.right
            }
        }
    }
}
