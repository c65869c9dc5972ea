import FetchHistoryModel
import FoundationEssentials

/// Where the page can point a reader at a fetch: its row in the failures
/// list, else its row in the table of every fetch (a page of up to
/// `HTMLReport.detailLimit` fetches), else nowhere on the page: then its
/// whole id, which `fetch-history show ID` takes (a short one can be
/// ambiguous in a large history).
struct FetchReferences {
    /// The fetches the failures list has a row for.
    let listed: Set<UUID>
    /// Whether the page has the table of every fetch.
    let detailed: Bool

    /// The id of the fetch's row on the page, if it has one.
    func anchor(of fetch: Fetch) -> String? {
        if listed.contains(fetch.id) { return "failure-\(fetch.id.uuidString.lowercased())" }
        return detailed ? "f-\(fetch.id.uuidString.lowercased())" : nil
    }

    /// A link to the fetch's row, showing its short id; its whole id where the page has no row.
    func html(_ fetch: Fetch) -> String {
        let id = fetch.id.uuidString.lowercased()
        guard let anchor = anchor(of: fetch) else { return "<code class=\"fetch-id\">\(id)</code>" }
        return "<a href=\"#\(anchor)\" title=\"fetch \(id)\"><code>\(fetch.id.shortText)</code></a>"
    }

    /// Whether any of `fetches` is shown by its whole id: the section then says what to do with it.
    func anyUnlinked(_ fetches: [Fetch]) -> Bool {
        fetches.contains { anchor(of: $0) == nil }
    }
}

/// The failures list: the problems of fetches that failed or timed out,
/// most fetches first, at most `limit` of them, each with its latest
/// failures (`ProblemTallies.listed`).
struct FailureGroups {
    static let limit = 50

    /// Indexes of the problems listed, in order, each with its number in the Problems table
    /// (its rank), which names its group's anchor: `problem-N`.
    let groups: [(problem: Int, number: Int)]
    /// The number of each problem listed, by its index.
    let groupNumbers: [Int: Int]
    /// The fetches listed.
    let listed: Set<UUID>
    /// Problems with failures past `limit`, and their failures.
    let unlisted: (problems: Int, fetches: Int)
    /// Problems with failures, listed or not.
    let problemCount: Int

    init(problems: ProblemTallies, ranked: [Int]) {
        let failing = ranked.enumerated().filter { !problems.tallies[$0.element].latestFailures.isEmpty }
        groups = failing.prefix(Self.limit).map { ($0.element, $0.offset + 1) }
        groupNumbers = Dictionary(uniqueKeysWithValues: groups.map { ($0.problem, $0.number) })
        listed = Set(groups.flatMap { problems.tallies[$0.problem].latestFailures.map(\.id) })
        let rest = failing.dropFirst(Self.limit).map { problems.tallies[$0.element].counts }
        unlisted = (rest.count, rest.reduce(0) { $0 + $1[.failed] + $1[.timedOut] })
        problemCount = failing.count
    }
}

/// What the Problems section shows, gathered by `HTMLReport`.
struct ProblemsSection {
    /// Problems shown in the table; the rest are counted under it.
    static let shown = 50
    /// Sources and hosts named per problem; the rest are counted.
    static let named = 3

    let tallies: [ProblemTally]
    let ranked: [Int]
    let listedGroups: [Int: Int]
    let sources: [String]
    let hosts: [String]
    /// The report's time span: the sparklines' scale.
    let start: Timestamp
    let end: Timestamp
}

extension HTMLPage {
    /// Each problem: its count and share, the sources and hosts it hit, first and last seen, a
    /// sparkline of when, and example fetches; most fetches first.
    mutating func problems(_ section: ProblemsSection, references: FetchReferences) {
        body += "<section id=\"problems\"><h2>Problems</h2>\n"
        let tallies = section.tallies
        let total = tallies.reduce(0) { $0 + $1.total }
        guard total > 0 else {
            body += "<p>None: every fetch succeeded (or is still running).</p></section>\n"
            return
        }
        let shown = section.ranked.prefix(ProblemsSection.shown)
        let examples = shown.flatMap { [tallies[$0].first, tallies[$0].last] }
        body += "<p class=\"note\">\(ReportFormat.count(total)) \(total == 1 ? "fetch" : "fetches") did not succeed, "
        body += "\(tallies.count == 1 ? "with one problem" : "with \(ReportFormat.count(tallies.count)) problems"), most first. "
        body += "A problem is what went wrong: an HTTP status, timed out, cancelled, interrupted, or the error with what varies "
        body += "(numbers, ids, quoted text, URLs, addresses) masked. "
        body += "Each sparkline spans the report, \(ReportFormat.time(section.start)) to \(ReportFormat.time(section.end)) UTC"
        body += references.anyUnlinked(examples) ? "; an example not on this page is given by its id, for <code>fetch-history show ID</code>.</p>\n" : ".</p>\n"
        body += "<table class=\"problems\"><thead><tr><th scope=\"col\">Problem</th><th scope=\"col\" aria-sort=\"descending\">Fetches</th>"
        body += "<th scope=\"col\">Sources</th><th scope=\"col\">Hosts</th><th scope=\"col\">First seen (UTC)</th><th scope=\"col\">Last seen (UTC)</th>"
        body += "<th scope=\"col\">When</th><th scope=\"col\">Examples</th></tr></thead><tbody>\n"
        for index in shown {
            let tally = tallies[index]
            let key = "<code>\(HTMLText.escaped(ReportFormat.shortened(tally.key)))</code>"
            body += "<tr><td class=\"text\">\(Self.swatch(tally.mainStatus)) "
            body += section.listedGroups[index].map { "<a href=\"#problem-\($0)\">\(key)</a>" } ?? key
            body += "</td><td>\(ReportFormat.count(tally.total)) <span class=\"muted small\">\(ReportFormat.percent(Double(tally.total) / Double(total)))</span></td>"
            body += "<td class=\"source\">\(Self.named(tally.sources, section.sources, unknown: "(not known)"))</td>"
            body += "<td class=\"source\">\(Self.named(tally.hosts, section.hosts, unknown: "(not known)"))</td>"
            body += "<td class=\"when\">\(ReportFormat.time(tally.first.startedAt))</td><td class=\"when\">\(ReportFormat.time(tally.last.startedAt))</td>"
            body += "<td>\(Sparkline.svg(tally.steps, from: section.start, to: section.end))</td>"
            body += "<td class=\"examples\">\(references.html(tally.first)) first"
            if tally.last.id != tally.first.id { body += ", \(references.html(tally.last)) latest" }
            body += "</td></tr>\n"
        }
        body += "</tbody></table>\n"
        let rest = section.ranked.dropFirst(ProblemsSection.shown)
        if !rest.isEmpty {
            let fetches = rest.reduce(0) { $0 + tallies[$1].total }
            body += "<p class=\"note\">\(ReportFormat.count(rest.count)) more \(rest.count == 1 ? "problem" : "problems"), \(ReportFormat.count(fetches)) \(fetches == 1 ? "fetch" : "fetches"), are not shown.</p>\n"
        }
        body += "</section>\n"
    }

    /// `random (2,130), https://… (12) and 3 more`.
    private static func named(_ counts: [Int: Int], _ names: [String], unknown: String) -> String {
        let (top, others) = ProblemTally.top(counts, ProblemsSection.named)
        let listed = top.map { entry in
            let name = names[entry.index].isEmpty ? unknown : ReportFormat.shortened(names[entry.index], limit: ReportFormat.sourceLimit)
            return "<code>\(HTMLText.escaped(name))</code> (\(ReportFormat.count(entry.count)))"
        }
        return listed.joined(separator: ", ") + (others > 0 ? " and \(ReportFormat.count(others)) more" : "")
    }

    /// The longest fetches, longest first, whatever their outcome.
    mutating func slowest(_ fetches: [Fetch], references: FetchReferences) {
        body += "<section id=\"slowest\"><h2>Slowest fetches</h2>\n"
        guard !fetches.isEmpty else {
            body += "<p>None: no fetch has ended.</p></section>\n"
            return
        }
        body += "<p class=\"note\">The \(fetches.count == 1 ? "one" : "\(fetches.count)") longest, longest first, whatever their outcome"
        body += references.anyUnlinked(fetches) ? "; a fetch not on this page is given by its id, for <code>fetch-history show ID</code>.</p>\n" : ".</p>\n"
        body += "<table><thead><tr><th scope=\"col\" aria-sort=\"descending\">Duration</th><th scope=\"col\">Started (UTC)</th><th scope=\"col\">Fetch</th>"
        body += "<th scope=\"col\">Outcome</th><th scope=\"col\">Source</th><th scope=\"col\">Value or problem</th><th scope=\"col\">Host</th></tr></thead><tbody>\n"
        for fetch in fetches {
            let text = fetch.value?.json ?? Problem(of: fetch)?.key ?? ""
            body += "<tr><td>\(fetch.durationMilliseconds.map(ReportFormat.duration) ?? "")</td><td class=\"when\">\(ReportFormat.time(fetch.startedAt))</td>"
            body += "<td class=\"id\">\(references.html(fetch))</td><td>\(Self.badge(fetch.status))</td>"
            body += "<td class=\"source\"><code>\(HTMLText.escaped(ReportFormat.shortened(fetch.source, limit: ReportFormat.sourceLimit)))</code></td>"
            body += "<td class=\"text\">\(HTMLText.escaped(ReportFormat.shortened(text)))</td><td>\(HTMLText.escaped(fetch.host))</td></tr>\n"
        }
        body += "</tbody></table></section>\n"
    }

    /// The failures and timeouts, grouped by problem, most first, each problem's latest listed.
    /// - Parameter scope: the report's filters as typed, which the command that lists them all needs too.
    mutating func failures(_ groups: FailureGroups, tallies: [ProblemTally], total: Int, scope: String) {
        body += "<section id=\"failures\"><h2>Failures and timeouts</h2>\n"
        guard total > 0 else {
            body += "<p>None: no fetch failed or timed out.</p></section>\n"
            return
        }
        let filters = scope.isEmpty ? "" : " with this report's other filters (<code>\(HTMLText.escaped(scope))</code>)"
        body += "<p class=\"note\">\(ReportFormat.count(total)) \(total == 1 ? "fetch" : "fetches") by problem, most first, "
        body += "the latest \(ProblemTallies.listed) of each; <code>fetch-history list --outcome failed,timed-out</code>\(filters) lists them all.</p>\n"
        for (problem, number) in groups.groups {
            let tally = tallies[problem]
            let failed = tally.counts[.failed] + tally.counts[.timedOut]
            let listed = tally.latestFailures
            body += "<h3 id=\"problem-\(number)\">\(Self.swatch(tally.mainStatus)) <code>\(HTMLText.escaped(ReportFormat.shortened(tally.key)))</code>"
            body += " <span class=\"muted\">· \(ReportFormat.count(failed)) \(failed == 1 ? "fetch" : "fetches")"
            body += failed > listed.count ? ", the latest \(listed.count)</span></h3>\n" : "</span></h3>\n"
            body += "<table><thead><tr><th scope=\"col\">Started (UTC)</th><th scope=\"col\">Fetch</th><th scope=\"col\">Outcome</th><th scope=\"col\">Source</th><th scope=\"col\">Error</th><th scope=\"col\">HTTP</th><th scope=\"col\">Host</th></tr></thead><tbody>\n"
            for fetch in listed.reversed() {
                let error = fetch.errorMessage ?? fetch.script?.timeoutMilliseconds.map { "timed out after \(ReportFormat.duration($0))" } ?? "timed out"
                body += "<tr id=\"failure-\(fetch.id.uuidString.lowercased())\"><td class=\"when\">\(ReportFormat.time(fetch.startedAt))</td>"
                body += "<td class=\"id\"><code title=\"\(fetch.id.uuidString.lowercased())\">\(fetch.id.shortText)</code></td><td>\(Self.badge(fetch.status))</td>"
                body += "<td class=\"source\"><code>\(HTMLText.escaped(ReportFormat.shortened(fetch.source, limit: ReportFormat.sourceLimit)))</code></td><td class=\"text\">\(HTMLText.escaped(ReportFormat.shortened(error)))</td>"
                body += "<td>\(fetch.response.map { String($0.status) } ?? "")</td><td>\(HTMLText.escaped(fetch.host))</td></tr>\n"
            }
            body += "</tbody></table>\n"
        }
        if groups.unlisted.problems > 0 {
            let (problems, fetches) = groups.unlisted
            body += "<p class=\"note\">\(ReportFormat.count(problems)) more \(problems == 1 ? "problem" : "problems") with \(ReportFormat.count(fetches)) "
            body += "\(fetches == 1 ? "failure" : "failures") are not listed here; Problems above counts them.</p>\n"
        }
        body += "</section>\n"
    }
}

/// A problem's occurrences over the report's time span as a row of small
/// bars, drawn inline: no script, no request. Its label says in words where
/// it peaked, for a reader who cannot see it.
enum Sparkline {
    static let stepWidth = 3
    static let height = 20

    /// - Parameter steps: counts in equal parts of `start`…`end`, oldest first.
    static func svg(_ steps: [Int], from start: Timestamp, to end: Timestamp) -> String {
        let busiest = steps.max() ?? 0
        guard busiest > 0, let peak = steps.firstIndex(of: busiest) else { return "" }
        let (from, length) = (Double(start.millisecondsSince1970), Double(end.millisecondsSince1970) - Double(start.millisecondsSince1970) + 1)
        func time(_ step: Int) -> String {
            let milliseconds = min(max(from + length * Double(step) / Double(steps.count), -9.2e18), 9.2e18)
            return ReportFormat.time(Timestamp(millisecondsSince1970: Int64(milliseconds)))
        }
        let words = "When, in \(steps.count) equal steps of the report's span: most (\(ReportFormat.count(busiest))) from \(time(peak)) to \(time(peak + 1)) UTC"
        var path = ""
        for (step, count) in steps.enumerated() where count > 0 {
            let bar = max(2, Int((Double(height - 2) * Double(count) / Double(busiest)).rounded()))
            path += "M\(step * stepWidth) \(height)v-\(bar)h\(stepWidth - 1)v\(bar)z"
        }
        let width = steps.count * stepWidth
        return "<svg class=\"spark\" width=\"\(width)\" height=\"\(height)\" viewBox=\"0 0 \(width) \(height)\" role=\"img\" aria-label=\"\(words)\">"
            + "<title>\(words)</title><line class=\"spark-base\" x1=\"0\" x2=\"\(width)\" y1=\"\(Double(height) - 0.5)\" y2=\"\(Double(height) - 0.5)\"/><path d=\"\(path)\"/></svg>"
    }
}
