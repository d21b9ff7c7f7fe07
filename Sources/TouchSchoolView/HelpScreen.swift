import TouchSchoolCore

/// How to play, and where the school data comes from.
extension Frame {
    /// Where the taps go is the game's own: this computer's battle, the server's (`--server`), or
    /// the server's from the game it runs for an SSH player; the rounds only a server runs.
    mutating func drawHelp() {
        drawTitleBar(strings.title + " · " + strings.helpTitle)
        var blocks: [TextBlock] = [
            .paragraph(strings.helpIntro, .normal), .blank,
            .keys(strings.helpKeyList), .blank,
            .paragraph(strings.fairPlay(state.tapGuard.policy), .normal), .blank,
        ]
        if let server = state.server {
            blocks += [.paragraph(strings.helpOnServer(server), .dim), .blank, .paragraph(strings.helpRounds, .dim)]
        } else if state.isOnServer {
            blocks += [.paragraph(strings.helpOverSSH, .dim), .blank, .paragraph(strings.helpRounds, .dim)]
        } else {
            blocks.append(.paragraph(strings.helpSaved, .dim))
        }
        drawText(blocks, fromRow: 2)
    }

    mutating func drawAbout() {
        drawTitleBar(strings.title + " · " + strings.aboutTitle)
        var blocks: [TextBlock] = [
            .paragraph(strings.aboutVersion, .accent),
            .paragraph(strings.aboutText, .normal), .blank,
            .paragraph(strings.dataCredit, .normal), .blank,
            .paragraph(strings.catalogSource(state.catalog.source, schools: state.catalog.count), .dim),
        ]
        if state.catalog.source == .starter { blocks.append(.paragraph(strings.importHint, .dim)) }
        drawText(blocks, fromRow: 2)
    }
}
