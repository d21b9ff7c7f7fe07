// TEMPORARY: stands in for work landing in main (the view, the catalog file). Deleted at merge.
import TouchSchoolCore
import TouchSchoolView

func view(_ state: GameState, now: Instant) -> CellGrid {
    var grid = CellGrid(width: state.layout.columns, height: state.layout.rows)
    if state.layout.isTooSmall {
        grid.put("bigger please", column: 0, row: 0)
        return grid
    }
    grid.put("screen \(state.screen) query \(state.picker.query) results \(state.picker.results.count)", column: 0, row: 0)
    if let mine = state.mySchool { grid.put("\(state.catalog[mine].name) \(state.leaderboard.count(of: mine)) 나 \(state.counter.myTaps)", column: 0, row: 1) }
    if let warning = state.warning { grid.put("비정상적인 터치 수가 감지되었습니다. \(warning.refusedTaps)", column: 0, row: 2, style: .warning) }
    for (index, hit) in state.picker.results.prefix(5).enumerated() { grid.put(state.catalog[hit.position].name, column: 2, row: 4 + index) }
    grid.put("effects \(state.effects.hasVisibleEffects(at: now))", column: 0, row: state.layout.rows - 1)
    return grid
}

enum CatalogFile {
    static func loadCurrent(dataDirectory: String, starterPath: String?) throws -> Catalog {
        Catalog(schools: [
            School(id: "T1", name: "한빛고등학교", level: .high, province: "서울특별시", district: "종로구", address: "x"),
            School(id: "T2", name: "푸른중학교", level: .middle, province: "부산광역시", district: "중구", address: "y"),
        ], source: .starter)
    }
}
