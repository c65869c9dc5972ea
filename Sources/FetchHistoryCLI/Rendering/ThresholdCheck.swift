import ArgumentParser
import FetchHistory

/// One `--threshold` checked on one set of fetches: all those the command
/// counted, or, with `--by`, one group (one pair with two groupings).
struct ThresholdCheck {
    var threshold: Threshold
    /// The figure's value; nil when there was nothing to measure.
    var value: Threshold.Amount?
    var isMet: Bool
    /// The group checked, each grouping with its key; empty: every fetch.
    var group: [(grouping: StatisticsGrouping, key: String)]

    /// The exit status when a threshold is crossed: k6's.
    static let crossedStatus: Int32 = 99

    /// Each threshold checked on the totals, or with `groupings` on each of
    /// `groups` (each pair with two), thresholds in the order given.
    static func checks(
        _ thresholds: [Threshold], statistics: HistoryStatistics, groupings: [StatisticsGrouping], groups: [StatisticsGroup]
    ) -> [ThresholdCheck] {
        let sets: [(group: [(grouping: StatisticsGrouping, key: String)], counts: [FetchStatus: Int], latency: HistoryStatistics.Latency?)] =
            groupings.isEmpty
            ? [([], statistics.counts, statistics.latency)]
            : StatsCommand.rows(groups, depth: groupings.count).map { row in
                (Array(zip(groupings, row.keys)).map { (grouping: $0.0, key: $0.1) }, row.group.counts, row.group.latency)
            }
        return thresholds.flatMap { threshold in
            sets.map { set in
                let value = threshold.value(counts: set.counts, latency: set.latency)
                return ThresholdCheck(threshold: threshold, value: value, isMet: threshold.isMet(by: value), group: set.group)
            }
        }
    }

    /// One line per check on standard error (`✓ p95 412ms < 500ms`; `ok`
    /// and `FAIL` when standard error is not a terminal), then exit 99 when
    /// any was crossed.
    static func report(_ checks: [ThresholdCheck]) throws {
        guard !checks.isEmpty else { return }
        let symbols = StandardError.isTerminal
        StandardError.write(checks.map { $0.line(symbols: symbols) + "\n" }.joined())
        if checks.contains(where: { !$0.isMet }) { throw ExitCode(crossedStatus) }
    }

    /// `✓ p95 412ms < 500ms`, `FAIL failure-rate 3.2% < 1% (source random)`.
    func line(symbols: Bool) -> String {
        let mark = isMet ? (symbols ? "✓" : "ok") : (symbols ? "✗" : "FAIL")
        let comparison = threshold.comparison.rawValue
        let place = group.isEmpty ? "" : " (" + group.map { "\($0.grouping.rawValue) \($0.key.terminalSafe)" }.joined(separator: ", ") + ")"
        return "\(mark) \(threshold.figure.rawValue) \(shownValue) \(comparison) \(threshold.limitText)\(place)"
    }

    /// The value as people read it: `412ms`, `3.2%`, `12`; `-` for none.
    var shownValue: String {
        switch value {
        case nil: "-"
        case .count(let count)?: String(count)
        case .duration(let duration)?: DurationArgument.format(milliseconds: duration.wholeMilliseconds)
        case .rate(let numerator, let denominator)?:
            StatsCommand.rate(Double(numerator) / Double(denominator), places: threshold.ratePlaces)
        }
    }

    /// `[{"expr", "value", "ok", "group"}, …]`: the value in the figure's
    /// unit (a rate as a fraction, a duration in milliseconds; null when
    /// none), `group` null or each grouping's key.
    static func json(_ checks: [ThresholdCheck], into json: inout JSONWriter) {
        json.beginArray()
        for check in checks {
            json.beginObject()
            json.key("expr")
            json.string(check.threshold.description)
            json.key("value")
            switch check.value {
            case nil: json.null()
            case .count(let count)?: json.integer(count)
            case .duration(let duration)?: json.integer(duration.wholeMilliseconds)
            case .rate(let numerator, let denominator)?: json.fragment(StatsCommand.decimal(Double(numerator) / Double(denominator), places: 6))
            }
            json.key("ok")
            json.bool(check.isMet)
            json.key("group")
            if check.group.isEmpty {
                json.null()
            } else {
                json.beginObject()
                for (grouping, key) in check.group {
                    json.key(grouping.rawValue)
                    json.string(key)
                }
                json.endObject()
            }
            json.endObject()
        }
        json.endArray()
    }
}
