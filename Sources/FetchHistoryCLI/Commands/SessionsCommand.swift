import ArgumentParser
import FetchHistory

struct SessionsCommand: HistoryCommand {
    static let configuration = CommandConfiguration(
        commandName: "sessions",
        abstract: "List the sessions that recorded fetches, newest first, with how their fetches went.",
        discussion: """
            A session is one run of the view state: one `fetch` invocation, one screen's lifetime. \
            Its id (or a prefix only it has) is what `replay` and `--session` take.

            Examples:
              fetch-history sessions
              fetch-history sessions --limit 0
              fetch-history sessions --since yesterday --host 'ci-*'
              fetch-history sessions --source 127.0.0.1 -n 5
              fetch-history sessions --limit 5 --format json
              fetch-history sessions --format jsonl
              fetch-history sessions --format tsv --no-header | cut -f1
            """
    )

    @OptionGroup var database: DatabaseOptions

    // Unconditional: `--limit -1` is a value to refuse with a reason, not a
    // missing value.
    @Option(name: [.customShort("n", allowingJoined: true), .long], parsing: .unconditional, help: "Show at most this many sessions; 0 shows all.")
    var limit = 20

    @OptionGroup var range: TimeRangeOptions<Sessions>

    @Option(help: ArgumentHelp("Only sessions of this source: exact, a host, or a URL prefix (as list --source).", valueName: "source"), completion: .sources)
    var source: String?

    @Option(help: ArgumentHelp("Only sessions recorded on a host matching PATTERN (* is any run of characters).", valueName: "PATTERN"))
    var host: String?

    @Option(
        help: ArgumentHelp(
            "Only sessions with a fetch of one of these outcomes: \(FetchStatus.allCases.map(\.rawValue).joined(separator: ", ")).",
            discussion: "Several outcomes are separated by commas or given as repeated options, as list's --outcome.",
            valueName: "outcome"
        ),
        completion: .list(FetchStatus.allCases.map(\.rawValue)),
        transform: FilterOptions.statuses
    )
    var outcome: [[FetchStatus]] = []

    @Option(help: ArgumentHelp(
        "table (aligned text), json (one array), jsonl (one object per line) or tsv (tab-separated: full id, start, "
            + "source, host, fetches, then a count per outcome; escapes as in list --format tsv)."
    ))
    var format = ListFormat.table

    @OptionGroup var header: HeaderOption

    func validate() throws {
        try OptionBounds.require(limit, atLeast: 0, option: "--limit")
        try header.validate(for: format)
        try FilterOptions.refuseEmpty(source: source, host: host)
        try range.validateRange()
    }

    @MainActor func run() async throws {
        let filter = SessionFilter(
            since: range.since?.timestamp, until: range.until?.timestamp, sourceMatching: source, host: host.map(HostPattern.init),
            outcomes: outcome.isEmpty ? nil : Set(outcome.joined())
        )
        let summaries = try await database.reading { history in
            try await history.sessionSummaries(matching: filter, limit: limit == 0 ? nil : limit)
        }
        let output = OutputStream.standardOutput()
        switch format {
        case .table:
            if summaries.isEmpty {
                // On a first run the hint about the history is the one line.
                if !database.isFirstRun { StandardError.write(filter == .all ? "no sessions recorded\n" : "no sessions match\n") }
            } else {
                try output.write(Self.table(summaries, header: !header.noHeader))
            }
        case .tsv:
            try output.write(Self.tsv(summaries, header: !header.noHeader))
        case .csv:
            try output.write(Self.csv(summaries, header: !header.noHeader))
        case .json, .jsonl:
            try output.write(Self.json(summaries, lines: format == .jsonl))
        }
        try output.flush()
    }

    static let statuses = HistoryStatistics.statusOrder

    /// `3 succeeded, 1 failed`: the statuses the session has, in `statuses` order.
    static func outcomes(_ summary: SessionSummary) -> String {
        let parts = statuses.compactMap { status in summary.counts[status].map { "\($0) \(status.rawValue)" } }
        return parts.isEmpty ? "-" : parts.joined(separator: ", ")
    }

    /// Aligned columns, as wide as their widest cell and fitted to `width`:
    /// at most `--limit` rows are held. On a narrow screen STARTED drops
    /// what every session shares with today, HOST goes when there is one,
    /// and SOURCE and OUTCOMES are cut.
    static func table(_ summaries: [SessionSummary], header showsHeader: Bool = true, width: Int? = Terminal.width) -> String {
        let hosts = Set(summaries.map(\.session.process.host))
        let starts = summaries.map(\.session.startedAt)
        let cells = { (dates: LocalTimePrecision) in
            summaries.map { summary in
                [
                    String(summary.session.id.lowercased.prefix(8)), dates.describe(summary.session.startedAt, in: nil),
                    String(summary.total), summary.session.source.terminalSafe,
                    summary.session.process.host.isEmpty ? "-" : summary.session.process.host.terminalSafe,
                    outcomes(summary),
                ]
            }
        }
        var table = TextTable(
            columns: [
                TextTable.Column(header: "SESSION"), TextTable.Column(header: "STARTED"),
                TextTable.Column(header: "FETCHES", isRightAligned: true), TextTable.Column(header: "SOURCE", cut: .url),
                TextTable.Column(header: "HOST", cut: .end, dropOrder: hosts.count > 1 ? 1 : 0),
                TextTable.Column(header: "OUTCOMES", cut: .words),
            ],
            rows: cells(.dateAndTime)
        )
        if let width, !table.fitsWhole(width, header: showsHeader) {
            table.rows = cells(.sharedWithToday(starts, in: nil))
        }
        return table.lines(width: width, header: showsHeader).map { $0 + "\n" }.joined()
    }

    /// One line per session: the full id, ISO 8601 start, source, host, the
    /// number of fetches, then one count per status (0 when none).
    static func tsv(_ summaries: [SessionSummary], header: Bool) -> String {
        lines(summaries, header: header).map(TSV.line).joined()
    }

    /// The TSV's columns and cells as CSV (RFC 4180).
    static func csv(_ summaries: [SessionSummary], header: Bool) -> String {
        lines(summaries, header: header).map(CSV.line).joined()
    }

    /// The cells of the TSV and CSV lines, the header's first when asked for.
    private static func lines(_ summaries: [SessionSummary], header: Bool) -> [[String?]] {
        let names: [String?] = ["id", "startedAt", "source", "host", "fetches"] + statuses.map(\.rawValue)
        return (header ? [names] : []) + summaries.map { summary in
            [
                summary.session.id.lowercased, summary.session.startedAt.iso8601, summary.session.source,
                summary.session.process.host, String(summary.total),
            ] + statuses.map { String(summary.counts[$0, default: 0]) }
        }
    }

    /// One object per session: `counts` has every status, 0 when none.
    static func json(_ summaries: [SessionSummary], lines: Bool) -> String {
        var json = JSONWriter()
        if !lines { json.beginArray(elementsOnOwnLines: true) }
        for summary in summaries {
            json.beginObject()
            json.sessionMembers(summary.session)
            json.key("fetches")
            json.integer(summary.total)
            json.key("counts")
            json.beginObject()
            for status in statuses {
                json.key(status.rawValue)
                json.integer(summary.counts[status, default: 0])
            }
            json.endObject()
            json.endObject()
            if lines { json.newline() }
        }
        if !lines {
            json.endArray()
            json.newline()
        }
        return json.text
    }
}
