import FetchHistoryModel
import FoundationEssentials

/// The report's HTML, section by section. Every recorded text goes through
/// `HTMLText.escaped`; the page's Content-Security-Policy allows no request
/// at all, inline style, and only the script carrying this page's nonce, so
/// even markup that slipped through escaping could neither load nor run
/// anything.
struct HTMLPage {
    var body = ""
    private let nonce: String

    init(nonce: String) {
        self.nonce = nonce
    }

    mutating func heading(_ total: Int, scope: String, generatedAt: Timestamp) {
        body += "<header><h1>Fetch history</h1>\n<p class=\"muted\">"
        body += scope.isEmpty ? "Every fetch recorded" : "Fetches matching \(HTMLText.escaped(scope))"
        body += " · written \(ReportFormat.time(generatedAt)) UTC by fetch-history · times are UTC</p></header>\n"
    }

    mutating func paragraph(_ html: String, id: String) {
        body += "<p id=\"\(id)\">\(html)</p>\n"
    }

    mutating func summary(_ statistics: HistoryStatistics, first: Timestamp, last: Timestamp, hosts: [String], sources: [String]) {
        body += "<section id=\"summary\"><h2>Summary</h2>\n<div class=\"cards\">\n"
        card("Fetches", ReportFormat.count(statistics.total))
        card("Success rate", statistics.successRate.map(ReportFormat.percent) ?? "–", note: "succeeded of succeeded, failed and timed out")
        if let latency = statistics.latency {
            card("p50 · p90 · p99", [latency.p50, latency.p90, latency.p99].map(ReportFormat.duration).joined(separator: " · "), note: "of succeeded fetches")
        }
        card("From", ReportFormat.time(first), note: "to \(ReportFormat.time(last)) UTC")
        body += "</div>\n<table class=\"outcomes\"><caption>By outcome</caption><tr>"
        for status in HistoryStatistics.statusOrder where statistics.counts[status, default: 0] > 0 {
            body += "<th scope=\"col\">\(Self.badge(status))</th>"
        }
        body += "</tr><tr>"
        for status in HistoryStatistics.statusOrder where statistics.counts[status, default: 0] > 0 {
            body += "<td>\(ReportFormat.count(statistics.counts[status]!))</td>"
        }
        body += "</tr></table>\n"
        let hostNames = hosts.sorted().map { $0.isEmpty ? "(not known)" : $0 }
        body += "<p><strong>\(hostNames.count == 1 ? "Host" : "Hosts")</strong>: \(Self.list(hostNames))</p>\n"
        body += "<p><strong>\(sources.count == 1 ? "Source" : "Sources")</strong>: \(Self.list(sources))</p>\n"
        body += "</section>\n"
    }

    private mutating func card(_ title: String, _ value: String, note: String? = nil) {
        body += "<div class=\"card\"><div class=\"muted\">\(title)</div><div class=\"big\">\(HTMLText.escaped(value))</div>"
        if let note { body += "<div class=\"muted small\">\(HTMLText.escaped(note))</div>" }
        body += "</div>\n"
    }

    static func list(_ names: [String]) -> String {
        let shown = names.prefix(10).map { "<code>\(HTMLText.escaped(ReportFormat.shortened($0, limit: ReportFormat.sourceLimit)))</code>" }.joined(separator: ", ")
        return names.count > 10 ? shown + " and \(names.count - 10) more" : shown
    }

    /// An outcome's word beside its shape in the legend's colour.
    static func badge(_ status: FetchStatus) -> String {
        "<span class=\"badge\">\(swatch(status)) \(ReportFormat.word(status))</span>"
    }

    /// An outcome's shape in the legend's colour, for the eye only: the word is beside it.
    static func swatch(_ status: FetchStatus) -> String {
        // Drawn as the timeline draws the status: fetches that never ended at half height.
        let short = status == .interrupted || status == .running
        return "<svg width=\"18\" height=\"10\" aria-hidden=\"true\"><rect class=\"bar \(ReportFormat.className(status))\" x=\"1\" y=\"\(short ? 3 : 1)\" width=\"16\" height=\"\(short ? 4 : 8)\"/></svg>"
    }

    mutating func timeline(_ timeline: Timeline) {
        body += "<section id=\"timeline\"><h2>Timeline</h2>\n"
        if let note = timeline.note { body += "<p class=\"note\" id=\"aggregated\">\(HTMLText.escaped(note))</p>\n" }
        body += "<p class=\"legend\">"
        for status in HistoryStatistics.statusOrder { body += Self.badge(status) + " " }
        if !timeline.aggregated {
            body += "<span class=\"badge\">▾ tapped</span> <span class=\"badge\">× cancelled</span> <span class=\"badge\">┆ timeout deadline</span> <span class=\"badge\">≷ interrupted end</span> <span class=\"badge\">› still running</span>"
        } else {
            body += "<span class=\"badge\">▁ some failed or timed out</span>"
        }
        body += "</p>\n<div id=\"details\" class=\"details\" role=\"status\" aria-live=\"polite\" hidden>Point at or focus a \(timeline.aggregated ? "slice" : "fetch") to see its details.</div>\n"
        // A bar or slice is a stop for Tab, up to thousands of them: the way past, for the keyboard.
        body += "<a class=\"skip\" href=\"#latency\">Skip the timeline</a>\n"
        body += "<div class=\"scroll\">" + timeline.svg() + "</div></section>\n"
    }

    mutating func latency(_ statistics: HistoryStatistics) {
        body += "<section id=\"latency\"><h2>Latency of succeeded fetches</h2>\n"
        // Up to the bucket after the slowest fetch: the empty ones past it say nothing.
        let last = statistics.histogram.lastIndex { $0.count > 0 } ?? 0
        let buckets = Array(statistics.histogram.prefix(last + 2))
        let busiest = max(1, buckets.map(\.count).max() ?? 1)
        guard buckets.contains(where: { $0.count > 0 }) else {
            body += "<p>No fetch succeeded, so there is no latency to show.</p></section>\n"
            return
        }
        let width = 80.0, height = 160.0
        body += "<svg class=\"histogram\" viewBox=\"0 0 \(Int(width) * buckets.count + 40) \(Int(height) + 40)\" width=\"\(min(1160, Int(width) * buckets.count + 40))\" role=\"img\" aria-label=\"Latency histogram of succeeded fetches: \(Self.histogramWords(buckets))\">\n"
        for (index, bucket) in buckets.enumerated() {
            let barHeight = bucket.count == 0 ? 0 : max(2, height * Double(bucket.count) / Double(busiest))
            let x = Double(index) * width
            let range = Self.range(of: bucket)
            // Under the bar only where it starts: the range is in its tooltip.
            let label = bucket.toMilliseconds == nil ? "≥ \(ReportFormat.shortDuration(bucket.fromMilliseconds))" : ReportFormat.shortDuration(bucket.fromMilliseconds)
            body += "<g><title>\(range): \(ReportFormat.count(bucket.count))</title>"
            body += "<rect class=\"bar o-succeeded\" x=\"\(Int(x) + 6)\" y=\"\(Int(height - barHeight) + 14)\" width=\"\(Int(width) - 12)\" height=\"\(Int(barHeight))\"/>"
            body += "<text class=\"count\" x=\"\(Int(x + width / 2))\" y=\"\(Int(height - barHeight) + 10)\" text-anchor=\"middle\">\(ReportFormat.count(bucket.count))</text>"
            body += "<text class=\"axis\" x=\"\(Int(x))\" y=\"\(Int(height) + 30)\" text-anchor=\"\(index == 0 ? "start" : "middle")\">\(label)</text></g>\n"
        }
        body += "</svg></section>\n"
    }

    /// `100 ms–250 ms`, or `≥ 10.00 s` for the last bucket.
    private static func range(of bucket: LatencyBucket) -> String {
        bucket.toMilliseconds.map { "\(ReportFormat.duration(bucket.fromMilliseconds))–\(ReportFormat.duration($0))" }
            ?? "≥ \(ReportFormat.duration(bucket.fromMilliseconds))"
    }

    /// What the histogram shows, for a reader who cannot see it: each bucket that holds fetches and how many.
    private static func histogramWords(_ buckets: [LatencyBucket]) -> String {
        buckets.filter { $0.count > 0 }.map { "\(range(of: $0)): \(ReportFormat.count($0.count))" }.joined(separator: "; ")
    }

    /// The sources, ranked by the caller (worst first); those with the highest failure rate, when
    /// any failed, marked in words and by a border, not by colour alone.
    mutating func sources(_ sources: [HTMLReport.SourceTally]) {
        body += "<section id=\"sources\"><h2>By source</h2>\n"
        let worst = sources.compactMap(\.failureRate).max() ?? 0
        if sources.count > 1 {
            body += "<p class=\"note\">Worst first: by failure rate (failed and timed out of the fetches the source decided).</p>\n"
        }
        body += "<table><thead><tr><th scope=\"col\">Source</th><th scope=\"col\">Fetches</th>"
        let statuses = HistoryStatistics.statusOrder.filter { status in sources.contains { $0.counts[status] > 0 } }
        for status in statuses { body += "<th scope=\"col\">\(ReportFormat.word(status))</th>" }
        body += "<th scope=\"col\" aria-sort=\"descending\">Failure rate</th><th scope=\"col\">Success rate</th><th scope=\"col\">p50</th><th scope=\"col\">p90</th><th scope=\"col\">p99</th></tr></thead><tbody>\n"
        for tally in sources {
            let source = tally.source
            let isWorst = worst > 0 && sources.count > 1 && tally.failureRate == worst
            body += isWorst ? "<tr class=\"worst\">" : "<tr>"
            body += "<td class=\"source\">\(isWorst ? "<strong class=\"flag\">⚠ worst</strong> " : "")<code>\(HTMLText.escaped(ReportFormat.shortened(source, limit: ReportFormat.sourceLimit)))</code></td><td>\(ReportFormat.count(tally.counts.total))</td>"
            for status in statuses { body += "<td>\(ReportFormat.count(tally.counts[status]))</td>" }
            let statistics = HistoryStatistics(total: 0, counts: tally.counts.dictionary, latency: nil)
            body += "<td>\(tally.failureRate.map(ReportFormat.percent) ?? "–")</td><td>\(statistics.successRate.map(ReportFormat.percent) ?? "–")</td>"
            var durations = tally.durations
            if let latency = HistoryStatistics.Latency(selectingFrom: &durations) {
                body += [latency.p50, latency.p90, latency.p99].map { "<td>\(ReportFormat.duration($0))</td>" }.joined()
            } else {
                body += "<td>–</td><td>–</td><td>–</td>"
            }
            body += "</tr>\n"
        }
        body += "</tbody></table></section>\n"
    }

    mutating func fetchTable(_ fetches: [Fetch]) {
        body += "<section id=\"fetches\"><h2>Every fetch</h2>\n<table><thead><tr><th scope=\"col\">Started (UTC)</th><th scope=\"col\">Fetch</th><th scope=\"col\">Session</th><th scope=\"col\">Outcome</th><th scope=\"col\">Duration</th><th scope=\"col\">Value or error</th><th scope=\"col\">HTTP</th><th scope=\"col\">Bytes</th><th scope=\"col\">Source</th></tr></thead><tbody>\n"
        for fetch in fetches {
            let text = fetch.value?.json ?? fetch.errorMessage ?? ""
            body += "<tr id=\"f-\(fetch.id.uuidString.lowercased())\"><td class=\"when\">\(ReportFormat.time(fetch.startedAt))</td>"
            body += "<td class=\"id\"><code title=\"\(fetch.id.uuidString.lowercased())\">\(fetch.id.shortText)</code></td><td class=\"id\"><code>\(fetch.sessionID.shortText)</code></td>"
            body += "<td>\(Self.badge(fetch.status))\(fetch.cancelReason.map { " (\($0.rawValue))" } ?? "")</td>"
            body += "<td>\(fetch.durationMilliseconds.map(ReportFormat.duration) ?? "")</td><td class=\"text\">\(HTMLText.escaped(ReportFormat.shortened(text)))</td>"
            body += "<td>\(fetch.response.map { String($0.status) } ?? "")</td><td>\(fetch.response.map { String($0.bytes) } ?? "")</td>"
            body += "<td class=\"source\"><code>\(HTMLText.escaped(ReportFormat.shortened(fetch.source, limit: ReportFormat.sourceLimit)))</code></td></tr>\n"
        }
        body += "</tbody></table></section>\n"
    }

    func finish() -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src 'nonce-\(nonce)'; base-uri 'none'; form-action 'none'">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="color-scheme" content="light dark">
        <title>Fetch history report</title>
        <style>\(Self.style)</style>
        </head>
        <body>
        \(body)<script nonce="\(nonce)">\(Self.script)</script>
        </body>
        </html>

        """
    }

    /// Shows the details panel, hidden until a script can fill it, and a
    /// bar's details in it on hover and on keyboard focus; without scripts,
    /// each bar's `<title>` and its link to its row remain.
    static let script = """
        (function () {
          var panel = document.getElementById('details');
          if (panel) panel.hidden = false;
          function show(event) {
            var target = event.target.closest ? event.target.closest('[data-fetch]') : null;
            if (target && panel) panel.textContent = target.getAttribute('data-details');
          }
          document.addEventListener('mouseover', show);
          document.addEventListener('focusin', show);
        })();
        """

    /// Light and dark by the reader's setting; text colours pass WCAG AA
    /// (4.5:1) on their background in both.
    static let style = """
        :root { color-scheme: light dark; --bg: #ffffff; --fg: #1f2328; --muted: #57606a; --line: #d0d7de; --panel: #f6f8fa;
          --succeeded: #1a7f37; --failed: #cf222e; --cancelled: #6e7781; --timed-out: #9a6700; --interrupted: #8250df; --running: #0969da; }
        @media (prefers-color-scheme: dark) { :root { --bg: #0d1117; --fg: #e6edf3; --muted: #9198a1; --line: #30363d; --panel: #161b22;
          --succeeded: #3fb950; --failed: #f85149; --cancelled: #8b949e; --timed-out: #d29922; --interrupted: #a371f7; --running: #58a6ff; } }
        body { background: var(--bg); color: var(--fg); font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 0 auto; padding: 16px 24px; max-width: 1240px; }
        h1 { font-size: 22px; margin: 0 0 4px; } h2 { font-size: 17px; margin: 28px 0 8px; border-bottom: 1px solid var(--line); padding-bottom: 4px; }
        .muted { color: var(--muted); } .small { font-size: 12px; } .note { color: var(--muted); }
        .cards { display: flex; flex-wrap: wrap; gap: 12px; } .card { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: 8px 14px; min-width: 160px; }
        .big { font-size: 20px; font-weight: 600; }
        table { border-collapse: collapse; margin: 8px 0; } caption { text-align: left; color: var(--muted); }
        th, td { border-bottom: 1px solid var(--line); padding: 3px 10px; text-align: left; vertical-align: top; white-space: nowrap; }
        td.text { max-width: 420px; overflow-wrap: anywhere; white-space: pre-wrap; } td.source { white-space: normal; } td.id code { overflow-wrap: normal; }
        code { font: 12px ui-monospace, SFMono-Regular, Menlo, monospace; overflow-wrap: anywhere; }
        .scroll { overflow-x: auto; } svg text { fill: var(--fg); font-size: 11px; } svg text.axis { fill: var(--muted); }
        svg text.group { font-weight: 600; } .lane-line, .tick { stroke: var(--line); stroke-width: 1; }
        .bar, .slice { stroke-width: 1; } .o-succeeded { fill: var(--succeeded); stroke: var(--succeeded); }
        .o-failed { fill: url(#hatch); stroke: var(--failed); } .hatch-ground { fill: var(--bg); } .hatch-line { stroke: var(--failed); stroke-width: 3; }
        .o-cancelled { fill: none; stroke: var(--cancelled); stroke-width: 1.5; } .o-timed-out { fill: var(--timed-out); stroke: var(--fg); stroke-dasharray: 3 2; }
        .o-interrupted { fill: var(--interrupted); stroke: var(--interrupted); } .o-running { fill: var(--running); stroke: var(--running); }
        .mark { fill: none; stroke: var(--fg); stroke-width: 1.5; } .mark.tap { fill: var(--muted); stroke: none; } .mark.deadline { stroke: var(--timed-out); stroke-dasharray: 2 2; stroke-width: 2; }
        .mark.some-failed { stroke: var(--failed); stroke-width: 2; } .gap-band { fill: var(--panel); stroke: var(--line); stroke-dasharray: 4 3; }
        a.fetch:focus, g[data-fetch]:focus { outline: 2px solid var(--fg); } a.fetch:hover rect, a.fetch:focus rect { stroke: var(--fg); stroke-width: 2; }
        .details { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: 6px 10px; white-space: pre-wrap; font: 12px ui-monospace, monospace; min-height: 3.2em; margin: 8px 0; overflow-wrap: anywhere; }
        .skip { position: absolute; left: -10000px; } .skip:focus { position: static; display: inline-block; margin: 4px 0; }
        .legend .badge { margin-right: 12px; white-space: nowrap; } tr:target { background: var(--panel); outline: 2px solid var(--fg); }
        h3 { font-size: 15px; margin: 18px 0 4px; } h3:target { outline: 2px solid var(--fg); } td.examples { white-space: normal; min-width: 150px; }
        table.problems td.text { min-width: 13em; } table.problems td.source { min-width: 14em; } .spark path { fill: var(--fg); } .spark-base { stroke: var(--line); stroke-width: 1; }
        tr.worst td { background: var(--panel); } tr.worst td:first-child { border-left: 4px solid var(--fg); } .flag { white-space: nowrap; }
        """
}
