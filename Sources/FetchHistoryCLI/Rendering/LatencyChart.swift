import FetchHistory

/// The latency histogram as text: one line per bucket, from the first that
/// has fetches to the last, with a bar as long as its share of the largest.
struct LatencyChart {
    enum Style {
        /// Block characters, eighths for the bar's end: for a terminal.
        case blocks
        /// ASCII only (`#`, `-`): for files, pipes and anything that reads the output.
        case plain
    }

    var style: Style
    /// The longest bar, in characters, when the line has room for it.
    var width = 40

    /// One line per bucket, none wider than `lineWidth` cells (nil: no
    /// limit): on a narrow screen the bars are shorter.
    func lines(_ histogram: [LatencyBucket], fitting lineWidth: Int? = nil) -> [String] {
        guard let first = histogram.firstIndex(where: { $0.count > 0 }),
              let last = histogram.lastIndex(where: { $0.count > 0 })
        else { return [] }
        let shown = histogram[first...last]
        let total = shown.reduce(0) { $0 + $1.count }
        let largest = shown.map(\.count).max() ?? 1
        let labels = shown.map(label)
        let labelWidth = labels.map(\.count).max() ?? 0
        let countWidth = String(largest).count
        let percents = shown.map { StatsCommand.decimal(Double($0.count) * 100 / Double(total), places: 1) + "%" }
        let percentWidth = percents.map(\.count).max() ?? 0
        var chart = self
        if let lineWidth {
            chart.width = max(1, min(width, lineWidth - (2 + labelWidth + 2 + countWidth + 2 + percentWidth + 2)))
        }
        return zip(shown, zip(labels, percents)).map { bucket, text in
            let bar = chart.bar(bucket.count, of: largest)
            return "  " + text.0.padded(to: labelWidth) + "  " + String(bucket.count).padded(to: countWidth, right: true)
                + "  " + text.1.padded(to: percentWidth, right: true) + (bar.isEmpty ? "" : "  " + bar)
        }
    }

    /// `100ms–250ms`, `1s–2.5s`, `≥ 1m` (ASCII in the plain style).
    func label(_ bucket: LatencyBucket) -> String {
        guard let to = bucket.toMilliseconds else {
            return (style == .blocks ? "≥ " : ">= ") + Self.duration(bucket.fromMilliseconds)
        }
        return Self.duration(bucket.fromMilliseconds) + (style == .blocks ? "–" : "-") + Self.duration(to)
    }

    /// A bucket bound, short: `25ms`, `2.5s`, `30s`, `1m`.
    static func duration(_ milliseconds: Int64) -> String {
        if milliseconds < 1_000 { return "\(milliseconds)ms" }
        if milliseconds >= 60_000, milliseconds % 60_000 == 0 { return "\(milliseconds / 60_000)m" }
        let tenths = milliseconds / 100
        return tenths % 10 == 0 ? "\(tenths / 10)s" : "\(tenths / 10).\(tenths % 10)s"
    }

    /// A bar `count / largest` of `width` long; never empty for a count above 0.
    func bar(_ count: Int, of largest: Int) -> String {
        guard count > 0 else { return "" }
        switch style {
        case .plain:
            return String(repeating: "#", count: max(1, Int((Double(count) * Double(width) / Double(largest)).rounded())))
        case .blocks:
            let eighths = max(1, Int((Double(count) * Double(width * 8) / Double(largest)).rounded()))
            let partial = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"][eighths % 8]
            return String(repeating: "█", count: eighths / 8) + partial
        }
    }
}
