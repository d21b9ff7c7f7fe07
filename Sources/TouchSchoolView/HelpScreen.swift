import TouchSchoolCore

/// How to play, and where the school data comes from.
extension Frame {
    /// Where the taps go is the game's own: this computer's battle, the server's (`--server`), or
    /// the server's from the game it runs for an SSH player; the rounds only a server runs.
    mutating func drawHelp() {
        drawTitleBar(strings.title + " · " + strings.helpTitle)
        var blocks: [TextBlock] = [
            .paragraph(strings.helpIntro, .normal), .blank,
            .keys(helpKeys), .blank,
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

    /// The keys, with the season's toggle beside the map's while a season runs.
    private var helpKeys: [(key: String, description: String)] {
        var keys = strings.helpKeyList
        if let season = state.season, let map = keys.firstIndex(where: { $0.key == "v" }) {
            keys.insert(strings.periodKey(season), at: map + 1)
        }
        return keys
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
