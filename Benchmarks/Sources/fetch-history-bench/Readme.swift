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

    /// The rows of the run's report the front page shows, each named by its
    /// benchmark and its baseline (a benchmark may have several baselines).
    static let summaryRows: [(benchmark: String, baseline: String)] = [
        ("export --format jsonl", "`sqlite3 -json` SELECT"),
        ("list (newest 20)", "sqlite3 process"),
        ("stats", "sqlite3 GROUP BY + percentiles"),
        ("record a fetch, disk (start + end: 2 transactions)", "raw C loop"),
        ("import 1,000,000 (`fetch-history import` process, JSONL parse included)", "raw C batch insert"),
        ("push 1,000,000 into an empty team history", "`psql \\copy … FROM` of the same rows"),
        ("report of 1,000,000 fetches", "`stats` on the same history"),
        (
            "100 HTTP fetches in a row, each recorded (local server, keep-alive)",
            "`curl -s` of the same 100 URLs, then 100 fetches recorded through SQLite's C API (start, end: 2 transactions each)"
        ),
    ]

    /// The front page's summary of a run's report (its Markdown, as
    /// `Report.markdown()` wrote it): the machine and the build, then the
    /// table's header and the `summaryRows`, each line as the report has it.
    /// Fails naming a row the report does not have, so that a renamed
    /// benchmark is noticed rather than dropped.
    static func summary(ofRun report: String) throws -> String {
        let lines = report.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        func line(_ isWanted: (String) -> Bool, _ what: String) throws -> String {
            guard let line = lines.first(where: isWanted) else { throw BenchmarkError("the run's report has no \(what)") }
            return line
        }
        let machine = try line({ $0.hasPrefix("- CPU: ") }, "line naming the CPU")
        let build = try line({ $0.hasPrefix("- fetch-history ") }, "line naming the build")
        let legend = try line({ $0.hasPrefix("Medians of N runs") }, "legend")
        guard let header = lines.firstIndex(where: { $0.hasPrefix("| Benchmark |") }), header + 1 < lines.count
        else { throw BenchmarkError("the run's report has no table") }
        let rows = try summaryRows.map { row in
            try line({ $0.hasPrefix("| \(row.benchmark) | ") && $0.contains(" | \(row.baseline) | ") },
                     "row for \(row.benchmark) against \(row.baseline)")
        }
        return ([machine, build, "", legend, "", lines[header], lines[header + 1]] + rows)
            .joined(separator: "\n") + "\n"
    }
}
