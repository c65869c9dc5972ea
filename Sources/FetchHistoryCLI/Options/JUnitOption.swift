import ArgumentParser
import FetchHistory

/// `--by session|source` and the JUnit report it shapes, for `export` and
/// `report`, which both write JUnit with `--format junit`.
struct JUnitOption: ParsableArguments {
    @Option(help: "With --format junit: a test suite per session or per source.")
    var by: SuiteGrouping?

    /// Refuses `--by` with a format that has no test suites, rather than ignoring it.
    func validate(format: String) throws {
        if by != nil, format != "junit" {
            throw ValidationError("--by applies to --format junit only, not \(format)")
        }
    }

    /// Writes the fetches `filter` matches as JUnit XML and returns how many.
    /// A suite's counts come before its cases, so the report is written once
    /// every fetch has been read.
    @MainActor func write(_ history: any HistoryReader, matching filter: HistoryFilter, to output: OutputStream) async throws -> Int {
        nonisolated(unsafe) var report = JUnitReport(suites: (by ?? .session).suites)
        nonisolated(unsafe) var count = 0
        try await history.forEachFetch(matching: filter) { fetch in
            report.add(fetch)
            count += 1
        }
        try output.write(report.xml())
        try output.flush()
        return count
    }
}

/// What one JUnit test suite holds (`--by`, with `--format junit`).
enum SuiteGrouping: String, ExpressibleByArgument, CaseIterable {
    case session, source

    var suites: JUnitReport.Suites {
        switch self {
        case .session: .session
        case .source: .source
        }
    }
}
