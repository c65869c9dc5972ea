import ArgumentParser
import FetchHistory
import FoundationEssentials

struct StatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Count fetches per outcome and rank the latency of successful ones.",
        discussion: """
            Percentiles are nearest-rank over the durations of succeeded fetches.

            Examples:
              fetch-history stats
              fetch-history stats --since 7d --source random --format json
              fetch-history stats --session 853a984f
            """
    )

    @OptionGroup var database: DatabaseOptions

    @OptionGroup var filters: FilterOptions

    @Option(help: "text or json.")
    var format = TextFormat.text

    func run() throws {
        let store = try database.openForReading()
        let statistics = try store.read { db in try db.statistics(matching: filters.filter(in: db)) }
        let output = OutputStream.standardOutput()
        try output.write(format == .json ? Self.json(statistics) : Self.text(statistics))
        try output.flush()
    }

    /// Every status in a fixed order, so scripts and eyes find them in place.
    private static let statuses: [FetchStatus] = [.succeeded, .failed, .cancelled, .timedOut, .interrupted, .running]

    static func text(_ statistics: HistoryStatistics) -> String {
        var lines = ["fetches       \(statistics.total)"]
        for status in statuses {
            lines.append(status.rawValue.padded(to: 14) + "\(statistics.counts[status, default: 0])")
        }
        lines.append("success rate  " + (statistics.successRate.map { Self.decimal($0 * 100, places: 1) + "%" } ?? "-"))
        if let latency = statistics.latency {
            let format = DurationArgument.format(milliseconds:)
            lines.append("latency       p50 \(format(latency.p50))  p90 \(format(latency.p90))  p99 \(format(latency.p99))  max \(format(latency.max))")
        } else {
            lines.append("latency       - (no succeeded fetches)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func json(_ statistics: HistoryStatistics) -> String {
        var json = JSONWriter()
        json.beginObject()
        json.key("total")
        json.integer(statistics.total)
        json.key("counts")
        json.beginObject()
        for status in statuses {
            json.key(status.rawValue)
            json.integer(statistics.counts[status, default: 0])
        }
        json.endObject()
        json.key("successRate")
        if let rate = statistics.successRate { json.fragment(Self.decimal(rate, places: 6)) } else { json.null() }
        json.key("latencyMs")
        if let latency = statistics.latency {
            json.beginObject()
            for (name, milliseconds) in [("p50", latency.p50), ("p90", latency.p90), ("p99", latency.p99), ("max", latency.max)] {
                json.key(name)
                json.integer(milliseconds)
            }
            json.endObject()
        } else {
            json.null()
        }
        json.endObject()
        json.newline()
        return json.text
    }

    /// `value` rounded to `places` decimals, as `printf("%.*f")` writes it.
    static func decimal(_ value: Double, places: Int) -> String {
        var scale: Int64 = 1
        for _ in 0..<places { scale *= 10 }
        let scaled = Int64((value * Double(scale)).rounded())
        let fraction = String(scaled % scale)
        return "\(scaled / scale)." + String(repeating: "0", count: places - fraction.count) + fraction
    }
}
