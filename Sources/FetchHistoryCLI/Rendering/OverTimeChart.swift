import FetchHistory

/// `stats --over`: one line per minute, hour, day or week from the first
/// with fetches to the last, with two bars — how many fetches started in
/// it, and the p90 latency of its succeeded ones — each as long as its
/// share of the largest. Three or more buckets in a row without fetches
/// fold into one line saying how many, so that a quiet night is one line.
struct OverTimeChart {
    var style: LatencyChart.Style
    /// The longest bar of each kind, in characters, when the line has room.
    var barWidth = 30

    /// The header and the lines for `buckets` (every bucket of the span, in
    /// order, those without fetches included), none wider than `lineWidth`
    /// cells (nil: no limit).
    func lines(_ buckets: [StatisticsGroup], over grouping: StatisticsGrouping, fitting lineWidth: Int? = nil) -> [String] {
        guard !buckets.isEmpty else { return [] }
        let format = DurationArgument.format(milliseconds:)
        let largestCount = buckets.map(\.total).max() ?? 0
        let largestP90 = buckets.compactMap { $0.latency?.p90 }.max() ?? 0
        let keyWidth = max(grouping.rawValue.count, buckets.map(\.key.count).max() ?? 0)
        let countWidth = max("FETCHES".count, String(largestCount).count)
        let p90Width = max("P90".count, buckets.compactMap { $0.latency.map { format($0.p90).count } }.max() ?? 1)
        var chart = self
        if let lineWidth {
            // Two bars share what the labels leave, each at least one cell.
            let fixed = keyWidth + 2 + countWidth + 2 + 2 + p90Width + 2
            chart.barWidth = max(1, min(barWidth, (lineWidth - fixed - 2) / 2))
        }
        let bars = LatencyChart(style: style, width: chart.barWidth)
        var lines = [
            grouping.rawValue.uppercased().padded(to: keyWidth) + "  " + "FETCHES".padded(to: countWidth, right: true)
                + "  " + "".padded(to: chart.barWidth) + "  " + "P90".padded(to: p90Width, right: true),
        ]
        var index = buckets.startIndex
        while index < buckets.endIndex {
            let quiet = buckets[index...].prefix { $0.total == 0 }.count
            if quiet >= 3 {
                lines.append(String(repeating: " ", count: keyWidth) + "  "
                    + (style == .blocks ? "… " : "... ") + Self.quietSpan(quiet, grouping))
                index += quiet
                continue
            }
            let bucket = buckets[index]
            let countBar = bars.bar(bucket.total, of: max(1, largestCount))
            let p90 = bucket.latency?.p90
            let p90Bar = p90.map { bars.bar(Int($0), of: Int(max(1, largestP90))) } ?? ""
            lines.append(bucket.key.padded(to: keyWidth) + "  " + String(bucket.total).padded(to: countWidth, right: true)
                + "  " + countBar.padded(to: chart.barWidth) + "  " + (p90.map(format) ?? "-").padded(to: p90Width, right: true)
                + (p90Bar.isEmpty ? "" : "  " + p90Bar))
            index += 1
        }
        return lines
    }

    /// `5 hours without fetches`.
    static func quietSpan(_ count: Int, _ grouping: StatisticsGrouping) -> String {
        "\(count) \(grouping.rawValue)s without fetches"
    }
}
