import FetchHistory

/// The line `fetch --count N` ends with on standard error: what the run
/// made, counted per outcome, the p50 and p95 of its succeeded fetches, and
/// its most frequent problem (as `stats --by problem` keys it).
///
/// ```
/// 5 fetches: 3 succeeded, 1 failed, 1 timed-out; p50 412ms, p95 1.203s; top problem: HTTP 503 (1)
/// ```
struct RunSummary {
    var statistics: HistoryStatistics
    /// The run's most frequent problem, if any fetch had one.
    var topProblem: StatisticsGroup?

    /// The line, without its line end: outcomes in `stats`'s order, those
    /// with no fetch left out; `-` for a percentile with no succeeded fetch.
    var line: String {
        let total = statistics.total
        let counts = HistoryStatistics.statusOrder.compactMap { status in
            statistics.counts[status].map { "\($0) \(status.rawValue)" }
        }
        var line = "\(total) \(total == 1 ? "fetch" : "fetches"): " + counts.joined(separator: ", ")
        let format = DurationArgument.format(milliseconds:)
        line += "; p50 " + (statistics.latency.map { format($0.p50) } ?? "-")
        line += ", p95 " + (statistics.latency.map { format($0.p95) } ?? "-")
        if let topProblem { line += "; top problem: \(topProblem.key.terminalSafe) (\(topProblem.total))" }
        return line
    }
}
