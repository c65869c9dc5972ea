import ArgumentParser
import FetchHistory

struct PushCommand: HistoryCommand {
    static let configuration = CommandConfiguration(
        commandName: "push",
        abstract: "Send a team history on PostgreSQL, or a collector of OpenTelemetry spans, every ended fetch it lacks.",
        discussion: """
            The local history is the one every command uses (-d/--database, $FETCH_HISTORY_DB, the \
            default file). --to, else $FETCH_HISTORY_REMOTE, is a team history's postgres:// URL or an \
            OTLP/HTTP collector's http(s):// URL; without either, the collector \
            $OTEL_EXPORTER_OTLP_TRACES_ENDPOINT or $OTEL_EXPORTER_OTLP_ENDPOINT names. A fetch still \
            running goes once it ends; one whose recorder died goes as interrupted.

            To a team history, each fetch goes with its session (host, process, start); the server \
            stamps it with the role that pushed it. To a collector, each fetch is a span (as export \
            --format otlp writes it), POSTed to the URL with /v1/traces added, 1,000 a request, with \
            the headers of $OTEL_EXPORTER_OTLP_HEADERS (name=value,…; never printed).

            A push cut off anywhere (network, server restart, Ctrl-C, kill) is simply run again: the \
            local file remembers, for each destination, how far it has taken the fetches, so every \
            fetch is sent once (a team history also skips what it has). Exit 0 when everything that \
            should move has moved; 1 when a collector refused spans or could not be reached.

            Examples:
              fetch-history push --to postgres://ci@db.example/team
              FETCH_HISTORY_REMOTE=postgres:///team?host=/run/postgresql fetch-history push
              fetch-history push -d probe.sqlite --to "$TEAM" --format json
              fetch-history push --to http://collector.example:4318
              OTEL_EXPORTER_OTLP_ENDPOINT=https://otlp.example fetch-history push
            """
    )

    @OptionGroup var database: DatabaseOptions

    @Option(help: ArgumentHelp(
        "A team history's postgres:// URL or a collector's http(s):// URL (default: $FETCH_HISTORY_REMOTE, "
            + "else $OTEL_EXPORTER_OTLP_ENDPOINT).",
        valueName: "url"
    ))
    var to: String?

    @Option(help: "text or json.")
    var format = TextFormat.text

    func validate() throws {
        _ = try RemoteOption.pushTarget(to)
    }

    @MainActor func run() async throws {
        let target = try RemoteOption.pushTarget(to)
        let path = try database.path(for: "push")
        let store: HistoryStore
        do {
            store = try HistoryStore(path: path, access: .readWrite)
        } catch .cannotOpen(_, reason: .missing) {
            throw DatabaseFileError.noHistoryToChange(path: path, verb: "push")
        }
        switch target {
        case .team(let url):
            let (summary, server) = try await DatabaseOptions.withTeam(url) { team in (try await store.push(to: team), team.displayName) }
            try TransferReport.write(summary, pushed: true, server: server, format: format)
        case .collector(let endpoint):
            let collector = try FetchHistoryCommand.collectors.collector(at: endpoint)
            let summary = try await store.push(to: collector)
            try TransferReport.write(summary, toCollector: collector.displayName, format: format)
            if summary.new < summary.sent { throw SpansRejected(count: summary.sent - summary.new, collector: collector.displayName) }
        }
    }
}

/// The collector took the requests but rejected some of their spans
/// (OTLP's partial success); they are not sent again.
struct SpansRejected: Error, CustomStringConvertible {
    var count: Int
    var collector: String

    var description: String {
        "the collector at \(collector) rejected \(RetentionReport.count(count, "span", "spans")) (OTLP partial success); "
            + "they are remembered as sent and not sent again"
    }
}

struct PullCommand: HistoryCommand {
    static let configuration = CommandConfiguration(
        commandName: "pull",
        abstract: "Bring a team history's fetches that match into the local history, to use them offline.",
        discussion: """
            The team history is --from, else $FETCH_HISTORY_REMOTE; the local history is the one every \
            command uses, made if it is missing. Every filter is optional; the fetches the local history \
            has are skipped, and the whole pull is one transaction: all or nothing.

            Examples:
              fetch-history pull --from postgres://dev@db.example/team --since 7d --host probe-3
              fetch-history pull --source 127.0.0.1 --since 2026-11-20 --until 2026-11-21
            """
    )

    @OptionGroup var database: DatabaseOptions

    @Option(help: ArgumentHelp("The team history: a postgres:// URL (default: $FETCH_HISTORY_REMOTE).", valueName: "url"))
    var from: String?

    @OptionGroup var range: TimeRangeOptions<Fetches>

    @Option(help: ArgumentHelp("Only fetches recorded on a host matching PATTERN (* is any run of characters).", valueName: "PATTERN"))
    var host: String?

    @Option(help: ArgumentHelp("Only fetches from this source: exact, a host, or a URL prefix (as list --source).", valueName: "source"))
    var source: String?

    @Option(help: "text or json.")
    var format = TextFormat.text

    func validate() throws {
        _ = try RemoteOption.url(from, option: "--from")
        try FilterOptions.refuseEmpty(source: source, host: host)
        try range.validateRange()
    }

    @MainActor func run() async throws {
        let url = try RemoteOption.url(from, option: "--from")
        let filter = HistoryFilter(
            since: range.since?.timestamp, until: range.until?.timestamp, sourceMatching: source, host: host.map(HostPattern.init)
        )
        // The file is checked before the server is reached, as before.
        _ = try database.path(for: "pull")
        // On a terminal, a live line once it has run a second.
        let progress = TransferProgress("pulling")
        defer { progress.stop() }
        let (summary, server) = try await DatabaseOptions.withTeam(url) { team in
            // Into a new (or empty) history, a file built beside it; into
            // one that holds fetches, one transaction in it.
            if let summary = try await database.pullingNew(from: team, matching: filter, read: progress.counted) {
                return (summary, team.displayName)
            }
            let store = try database.openForWriting(for: "pull")
            return (try await store.pull(from: team, matching: filter, read: progress.counted), team.displayName)
        }
        progress.stop()
        try TransferReport.write(summary, pushed: false, server: server, format: format)
    }
}
