import TouchSchoolCore

/// How to play, and where the school data comes from.
extension Frame {
    mutating func drawHelp() {
        drawTitleBar(strings.title + " · " + strings.helpTitle)
        drawText([
            .paragraph(strings.helpIntro, .normal), .blank,
            .keys(strings.helpKeyList), .blank,
            .paragraph(strings.fairPlay(state.tapGuard.policy), .normal), .blank,
            .paragraph(strings.helpSaved, .dim),
        ], fromRow: 2)
    }

    mutating func drawAbout() {
        drawTitleBar(strings.title + " · " + strings.aboutTitle)
        var blocks: [TextBlock] = [
            .paragraph(strings.aboutVersion, .accent),
            .paragraph(strings.aboutText, .normal), .blank,
            .paragraph(strings.dataCredit, .normal), .blank,
            .paragraph(strings.catalogSource(state.catalog.source, schools: NumberText.grouped(state.catalog.count)), .dim),
        ]
        if state.catalog.source == .starter { blocks.append(.paragraph(strings.importHint, .dim)) }
        drawText(blocks, fromRow: 2)
    }
}
