import TouchSchoolCore
import TouchSchoolStore
import TouchSchoolView

/// What `touchschool import` tells the user: the counts of each kind of change, the schools
/// renamed or no longer listed, and where the catalog was saved (the data directory or PostgreSQL).
public enum ImportSummary {
    /// How many renamed or no-longer-listed schools to name before summing up the rest.
    static let listedChangesLimit = 20

    public static func text(of report: ImportReport, schoolCount: Int, encoding: TextEncoding, savedTo path: String) -> String {
        var lines = [
            CommandText.imported(schoolCount, edition: VisibleText.escaping(report.edition), encoding: encoding.rawValue),
            CommandText.importSource,
            "",
        ]
        let counts: [(CommandText.ImportCount, Int)] = [
            (.added, report.added.count),
            (.renamed, report.renamed.count),
            (.noLongerListed, report.noLongerListed.count),
            (.relisted, report.relisted.count),
            (.updated, report.updated.count),
            (.unchanged, report.unchangedCount),
            (.matchedStarter, report.matchedStarter.count),
            (.keptStarter, report.keptUnlistedStarter.count),
            (.droppedStarter, report.droppedStarter.count),
        ]
        let width = counts.map { NumberText.grouped($0.1).count }.max() ?? 0
        for (kind, count) in counts where count > 0 || kind == .added {
            let number = NumberText.grouped(count)
            lines.append("  \(String(repeating: " ", count: width - number.count))\(number)  \(CommandText.label(kind))")
        }
        appendList(CommandText.renamedTitle, report.renamed.map { "\($0.oldName) → \($0.newName) (\($0.id))" }, to: &lines)
        appendList(CommandText.noLongerListedTitle, report.noLongerListed.map { "\($0.name), \($0.region) (\($0.id))" }, to: &lines)
        appendList(CommandText.keptStarterTitle, report.keptUnlistedStarter.map { "\($0.name), \($0.region)" }, to: &lines)
        lines.append("")
        lines.append(CommandText.savedTo(path))
        return lines.joined(separator: "\n")
    }

    private static func appendList(_ title: String, _ items: [String], to lines: inout [String]) {
        guard !items.isEmpty else { return }
        lines.append("")
        lines.append(title)
        lines.append(contentsOf: items.prefix(listedChangesLimit).map { "  \(VisibleText.escaping($0))" })
        if items.count > listedChangesLimit { lines.append("  \(CommandText.andMore(items.count - listedChangesLimit))") }
    }
}
