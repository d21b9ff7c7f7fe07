import TouchSchoolCore

/// How to play, and where the school data comes from.
extension Frame {
    mutating func drawHelp() {
        drawTitleBar(strings.title + " · " + strings.helpTitle)
        drawParagraphs(strings.helpText.map { ($0, .normal) }, fromRow: 2)
    }

    mutating func drawAbout() {
        drawTitleBar(strings.title + " · " + strings.aboutTitle)
        var paragraphs: [(String, CellStyle)] = [
            (strings.aboutVersion, .accent),
            (strings.aboutText, .normal),
            ("", .normal),
            (strings.dataCredit, .normal),
            ("", .normal),
            (strings.catalogSource(state.catalog.source, schools: NumberText.grouped(state.catalog.count)), .dim),
        ]
        if state.catalog.source == .starter { paragraphs.append((strings.importHint, .dim)) }
        drawParagraphs(paragraphs, fromRow: 2)
    }
}
