import Foundation

/// Writes a report into a Markdown file between its markers: the benchmark
/// figures there are the benchmark's output, never typed in. The full
/// reports go into `Benchmarks/README.md`; the front page, `README.md`,
/// gets a summary: a few rows of the run's report, copied as they are.
///
/// ```markdown
/// <!-- benchmark report: run (written by Benchmarks/run.sh; edits are overwritten) -->
/// …
/// <!-- end of benchmark report: run -->
/// ```
enum Readme {
    static func begin(_ section: String) -> String {
        "<!-- benchmark report: \(section) (written by Benchmarks/run.sh; edits are overwritten) -->"
    }

    static func end(_ section: String) -> String { "<!-- end of benchmark report: \(section) -->" }

    /// Replaces what is between the markers of `section` in the file at
    /// `path` with `markdown`; fails when the markers are not there.
    static func write(_ markdown: String, section: String, into path: String) throws {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let (start, stop) = try markers(of: section, in: text, path: path)
        let updated = text[..<start.upperBound] + "\n" + markdown + text[stop.lowerBound...]
        try String(updated).write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// What is between the markers of `section` in the file at `path`.
    static func read(section: String, from path: String) throws -> String {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let (start, stop) = try markers(of: section, in: text, path: path)
        return String(text[start.upperBound..<stop.lowerBound])
    }

    private static func markers(
        of section: String, in text: String, path: String
    ) throws -> (Range<String.Index>, Range<String.Index>) {
        guard let start = text.range(of: begin(section)), let stop = text.range(of: end(section)),
              start.upperBound <= stop.lowerBound
        else { throw BenchmarkError("\(path) has no markers for the \(section) report: \(begin(section)) … \(end(section))") }
        return (start, stop)
    }

    /// The rows of the reports the front page shows, each named by the
    /// section of `Benchmarks/README.md` holding it, its benchmark and its
    /// baseline (a benchmark may have several baselines). The whole run
    /// takes three hours; the imports, the answers and the HTTP source are
    /// also measured on their own (`run.sh 1000000,10000000 imports`,
    /// `run.sh 1000000 answers`, `run.sh 0 http`), and their rows come from
    /// those reports.
    static let summaryRows: [(section: String, benchmark: String, baseline: String)] = [
        ("run", "export --format jsonl", "`sqlite3 -json` SELECT"),
        ("run", "list (newest 20)", "sqlite3 process"),
        ("run", "stats", "sqlite3 GROUP BY + percentiles"),
        ("run", "record a fetch, disk (start + end: 2 transactions)", "raw C loop"),
        ("run", "push 1,000,000 into an empty team history", "`psql \\copy … FROM` of the same rows"),
        ("imports", "import 1,000,000 into an empty database (`fetch-history import`, JSONL parsed)", pureCopy),
        ("imports", "import 10,000,000 into an empty database (`fetch-history import`, JSONL parsed)", pureCopy),
        ("imports", "pull 1,000,000 into a new file, against SQLite's copy", "`psql \\copy … TO` + SQLite's pure copy of the same rows"),
        ("answers", "stats --by problem", "`stats --by source` on the same history"),
        ("answers", "report of 1,000,000 fetches", "`stats --by source` on the same history"),
        ("answers", "report of 1,000,000 fetches", "the previous build's `report`"),
        (
            "http", "100 HTTP fetches in a row, each recorded (local server, keep-alive)",
            "`curl -s` of the same 100 URLs, then 100 fetches recorded through SQLite's C API (start, end: 2 transactions each)"
        ),
    ]

    /// The baseline of an import into a new history (`BulkLoad`).
    static let pureCopy = "SQLite's pure copy: INSERT … SELECT from a staging table, then the indexes"

    /// The sections `summaryRows` come from, the run's first.
    static var summarySections: [String] {
        summaryRows.map(\.section).reduce(into: []) { if !$0.contains($1) { $0.append($1) } }
    }

    /// The front page's summary of the reports (their Markdown, as
    /// `Report.markdown()` wrote them, by section): the machine, then one
    /// table of their `summaryRows`, each line as its report has it with
    /// the revision its report measured in a column of its own (one table
    /// however many builds were measured: the front page stays short).
    /// Fails naming a row a report does not have, so that a renamed
    /// benchmark is noticed rather than dropped.
    static func summary(of reports: [String: String]) throws -> String {
        var machine: String?, built: String?, legend: String?, header: [String] = [], rows: [String] = []
        for section in summarySections {
            guard let report = reports[section] else { throw BenchmarkError("there is no \(section) report") }
            let lines = report.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            func line(_ isWanted: (String) -> Bool, _ what: String) throws -> String {
                guard let line = lines.first(where: isWanted) else { throw BenchmarkError("the \(section) report has no \(what)") }
                return line
            }
            machine = try machine ?? line({ $0.hasPrefix("- CPU: ") }, "line naming the CPU")
            legend = try legend ?? line({ $0.hasPrefix("Medians of N runs") }, "legend")
            guard let top = lines.firstIndex(where: { $0.hasPrefix("| Benchmark |") }), top + 1 < lines.count
            else { throw BenchmarkError("the \(section) report has no table") }
            if header.isEmpty { header = [withBuild(lines[top], " Build "), withBuild(lines[top + 1], "---")] }
            // "- fetch-history 4286254, built with `swift build …`"
            let build = try line({ $0.hasPrefix("- fetch-history ") }, "line naming the build").dropFirst("- fetch-history ".count)
            guard let comma = build.firstIndex(of: ",") else { throw BenchmarkError("the \(section) report's build line has no comma") }
            built = built ?? "- Build: the revision each row measured" + build[comma...]
            for row in summaryRows where row.section == section {
                let found = try line({ $0.hasPrefix("| \(row.benchmark) | ") && $0.contains(" | \(row.baseline) | ") },
                                     "row for \(row.benchmark) against \(row.baseline)")
                rows.append(withBuild(found, " \(build[..<comma]) "))
            }
        }
        return ([machine!, built!, "", legend!, ""] + header + rows).joined(separator: "\n") + "\n"
    }

    /// A table `row` with `cell` put second, after the benchmark's name.
    private static func withBuild(_ row: String, _ cell: String) -> String {
        let cells = row.split(separator: "|", omittingEmptySubsequences: false)
        return (cells.prefix(2) + [Substring(cell)] + cells.dropFirst(2)).joined(separator: "|")
    }
}
