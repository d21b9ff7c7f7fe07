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
            "Imported \(NumberText.grouped(schoolCount)) schools of the official list of \(VisibleText.escaping(report.edition)) (\(encoding.rawValue)).",
            "Source: 공공데이터포털 (data.go.kr) 표준데이터 15021148 전국초중등학교위치표준데이터.",
            "",
        ]
        let counts: [(String, Int)] = [
            ("added", report.added.count),
            ("renamed", report.renamed.count),
            ("no longer listed (kept, with their scores)", report.noLongerListed.count),
            ("listed again", report.relisted.count),
            ("details updated", report.updated.count),
            ("unchanged", report.unchangedCount),
            ("starter schools matched (scores carried over)", report.matchedStarter.count),
            ("starter schools not found, kept for their scores", report.keptUnlistedStarter.count),
            ("starter schools not found, without a score, removed", report.droppedStarter.count),
        ]
        let width = counts.map { NumberText.grouped($0.1).count }.max() ?? 0
        for (label, count) in counts where count > 0 || label == "added" {
            let number = NumberText.grouped(count)
            lines.append("  \(String(repeating: " ", count: width - number.count))\(number)  \(label)")
        }
        appendList("Renamed:", report.renamed.map { "\($0.oldName) → \($0.newName) (\($0.id))" }, to: &lines)
        appendList("No longer listed:", report.noLongerListed.map { "\($0.name), \($0.region) (\($0.id))" }, to: &lines)
        appendList("Starter schools not found, kept:", report.keptUnlistedStarter.map { "\($0.name), \($0.region)" }, to: &lines)
        lines.append("")
        lines.append("Saved to \(path).")
        return lines.joined(separator: "\n")
    }

    private static func appendList(_ title: String, _ items: [String], to lines: inout [String]) {
        guard !items.isEmpty else { return }
        lines.append("")
        lines.append(title)
        lines.append(contentsOf: items.prefix(listedChangesLimit).map { "  \(VisibleText.escaping($0))" })
        if items.count > listedChangesLimit { lines.append("  … and \(items.count - listedChangesLimit) more") }
    }
}
