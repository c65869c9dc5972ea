import ArgumentParser
import FetchHistory

struct ListCommand: HistoryCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List recorded fetches, newest first.",
        discussion: """
            --format tsv prints one line per fetch with the export's first columns (id, session, source, \
            outcome, cancelReason, value, error, startedAt, endedAt, durationMs, status, bytes), tab-separated; \
            an empty cell is a missing value. In a cell a backslash is written \\\\, a tab \\t, a newline \\n, \
            a carriage return \\r and any other control character \\xHH. --format csv gives the same \
            columns as RFC 4180 has them (quoted when they hold a comma, a quote or a line break; CRLF \
            line ends). --fields id,outcome,durationMs gives those fields only, in that order, in json, \
            jsonl, tsv and csv.

            --sort duration lists the longest first (of equal durations, the newest first); fetches \
            with no duration (running, interrupted) come after every other, newest first.

            --follow prints the newest --limit fetches oldest first, then each fetch that ends afterwards, \
            recorded by any process, until Ctrl-C (exit 0). Idle, it sleeps on inotify and uses no processor time.

            Examples:
              fetch-history list
              fetch-history list --limit 0 --outcome timed-out
              fetch-history list --outcome failed,timed-out --since yesterday --until today
              fetch-history list --status 5xx --min-duration 2s
              fetch-history list -n 20 --offset 20
              fetch-history list --since 2026-11-22 --until 2026-11-23 --format jsonl
              fetch-history list --source random --since 2h
              fetch-history list --source 127.0.0.1 --grep refused
              fetch-history list --grep 'ÉCHEC' --limit 0
              fetch-history list --format tsv --no-header | cut -f 4 | sort | uniq -c
              fetch-history list --limit 0 --format csv --fields id,outcome,durationMs > fetches.csv
              fetch-history list --follow --format jsonl --outcome failed
              fetch-history list --sort duration --since 1d
              fetch-history list --problem 'HTTP 503' --since today
            """
    )

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var filters: FilterOptions

    // Unconditional: `--limit -1` is a value to refuse with a reason, not a
    // missing value followed by an unknown option.
    @Option(name: [.customShort("n", allowingJoined: true), .long], parsing: .unconditional, help: "Show at most this many fetches; 0 shows all.")
    var limit = 20

    @Option(parsing: .unconditional, help: ArgumentHelp("Skip the newest N fetches that match, then show --limit more.", valueName: "N"))
    var offset = 0

    @Option(help: "table (aligned text), json (one array), jsonl (one object per line), tsv (tab-separated, see above) or csv (RFC 4180).")
    var format = ListFormat.table

    @OptionGroup var header: HeaderOption
    @OptionGroup var fields: FieldsOption

    @Option(help: ArgumentHelp(
        "started (newest first, the default) or duration (longest first; fetches with no duration last).",
        valueName: "order"
    ))
    var sort = ListSort.started

    @Flag(name: [.customShort("f"), .long], help: "Then print each fetch as it ends, recorded by any process, until Ctrl-C.")
    var follow = false

    @OptionGroup var looks: FollowLooksOption

    func validate() throws {
        try filters.validateFilters()
        try OptionBounds.require(limit, atLeast: 0, option: "--limit")
        try OptionBounds.require(offset, atLeast: 0, option: "--offset")
        try header.validate(for: format)
        try fields.validate(for: format)
        if follow, filters.outcomes?.contains(.running) == true {
            throw ValidationError("--follow prints fetches as they end, so none would ever show as running; leave out --outcome running")
        }
        // A follower prints what ends from now on, after the newest: skipping those has no meaning.
        if follow, offset > 0 { throw ValidationError("--offset and --follow cannot be used together; choose one") }
        // A follower prints fetches as they end: no other order can go on.
        if follow, sort != .started { throw ValidationError("--sort \(sort.rawValue) and --follow cannot be used together; a follower lists by start") }
    }

    @MainActor func run() async throws {
        // Before the store is opened: the watch blocks Ctrl-C while no
        // other thread exists, and sees every write after the listing's snapshot.
        var watch: HistoryWatch?
        if follow, case .file(let path) = try database.location() {
            watch = try HistoryWatch(databasePath: path, takingFirstLooks: looks.takingFirstLooks)
        }
        try await database.reading { history in
            // A server announces its changes: listening starts before the listing.
            if follow, let announcer = history as? any ChangeAnnouncer { watch = try await HistoryWatch(announcedBy: announcer) }
            try await list(history, watch: watch)
        }
    }

    @MainActor private func list(_ history: any HistoryReader, watch: HistoryWatch?) async throws {
        let filter = try await filters.filter(in: history)
        let limit = limit == 0 ? nil : limit
        // A follower needs where the history stood when it listed; a listing alone does not.
        let fetches: [Fetch]
        var cursor: HistoryCursor?
        if follow {
            let listing = try await history.listing(matching: filter, limit: limit)
            (fetches, cursor) = (listing.fetches, listing.cursor)
        } else {
            // The history reads past the skipped fetches as SQL's OFFSET would, so they are dropped here.
            let through = limit.map { $0 > Int.max - offset ? Int.max : $0 + offset }
            fetches = Array(try await history.fetches(matching: filter, order: sort.order, limit: through).dropFirst(offset))
        }
        var printer = FetchPrinter(
            output: OutputStream.standardOutput(), format: format, header: !header.noHeader, color: Terminal.wantsColor(database.color),
            fitting: fetches, fields: try self.fields.keys()
        )
        if fetches.isEmpty, format == .table, !follow {
            // On a first run the hint about the history is the one line.
            if !database.isFirstRun { StandardError.write("no fetches match\n") }
            return
        }
        try printer.begin()
        // Followed, the newest come last: the ones that end next go below them.
        for fetch in follow ? fetches.reversed() : fetches { try printer.write(fetch) }
        if let watch, var cursor {
            try printer.flush()
            try await Self.follow(history, filter: filter, from: &cursor, watch: watch, printer: &printer)
        }
        try printer.end()
    }

    /// Prints each fetch matching `filter` as it ends, until Ctrl-C.
    @MainActor private static func follow(
        _ history: any HistoryReader, filter: HistoryFilter, from cursor: inout HistoryCursor, watch: HistoryWatch,
        printer: inout FetchPrinter
    ) async throws {
        while true {
            switch try watch.next() {
            case .interrupted: return
            case .outputClosed: throw OutputClosed()
            case .changed:
                for fetch in try await history.fetchesEnded(after: &cursor, matching: filter) { try printer.write(fetch) }
                try printer.flush()
            }
        }
    }
}

/// The order `list --sort` names.
enum ListSort: String, ExpressibleByArgument, CaseIterable {
    case started, duration

    var order: FetchOrder {
        switch self {
        case .started: .newestFirst
        case .duration: .longestFirst
        }
    }
}
