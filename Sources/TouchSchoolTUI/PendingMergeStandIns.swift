// TEMPORARY: stands in for work landing in main (the view). Deleted at merge.
import TouchSchoolCore
import TouchSchoolView

func view(_ state: GameState, now: Instant) -> CellGrid {
    var grid = CellGrid(width: state.layout.columns, height: state.layout.rows)
    let ko = state.language == .korean
    if state.layout.isTooSmall {
        grid.put(state.layout.columns >= 31 ? "Please make the terminal bigger" : "Too small", column: 0, row: 1)
        grid.put("\(state.layout.columns)x\(state.layout.rows)<40x12", column: 0, row: 2)
        return grid
    }
    grid.put("screen \(state.screen) query \(state.picker.query)", column: 0, row: 0)
    if let mine = state.mySchool { grid.put("\(state.catalog[mine].name) \(state.leaderboard.count(of: mine)) \(ko ? "내 터치" : "My taps") \(state.counter.myTaps)", column: 0, row: 1) }
    if let warning = state.warning { grid.put(ko ? "비정상적인 터치 수가 감지되었습니다. (\(warning.reason) · \(warning.refusedTaps)번 무시됨)" : "Abnormal tapping detected. (\(warning.reason == .paste ? "pasted text" : "x"), \(warning.refusedTaps) taps refused)", column: 0, row: 2, style: .warning) }
    for (index, hit) in state.picker.results.prefix(5).enumerated() { grid.put(state.catalog[hit.position].name, column: 2, row: 4 + index) }
    grid.put("effects \(state.effects.hasVisibleEffects(at: now))", column: 0, row: state.layout.rows - 1)
    return grid
}
