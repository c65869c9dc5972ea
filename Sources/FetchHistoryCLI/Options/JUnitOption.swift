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

    /// Writes the fetches `filter` matches as JUnit XML and returns how
    /// many, then a suite of `thresholds` over them, a case each that fails
    /// when crossed. A suite's counts come before its cases, so the report
    /// is written once every fetch has been read.
    @MainActor func write(
        _ history: any HistoryReader, matching filter: HistoryFilter, thresholds: [Threshold] = [], to output: OutputStream
    ) async throws -> Int {
        nonisolated(unsafe) var report = JUnitReport(suites: (by ?? .session).suites)
        nonisolated(unsafe) var count = 0
        try await history.forEachFetch(matching: filter) { fetch in
            report.add(fetch)
            count += 1
        }
        if !thresholds.isEmpty {
            let statistics = try await history.statistics(matching: filter)
            for check in ThresholdCheck.checks(thresholds, statistics: statistics, groupings: [], groups: []) {
                report.addCheck(
                    suite: "thresholds", name: check.threshold.description,
                    failure: check.isMet ? nil : "\(check.threshold.figure.rawValue) is \(check.shownValue), not \(check.threshold.comparison.rawValue) \(check.threshold.limitText)"
                )
            }
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
