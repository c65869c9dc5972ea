import ArgumentParser
import FetchHistory

struct PushCommand: HistoryCommand {
    static let configuration = CommandConfiguration(
        commandName: "push",
        abstract: "Send a team history on PostgreSQL every ended fetch of the local history it lacks.",
        discussion: """
            The local history is the one every command uses (-d/--database, $FETCH_HISTORY_DB, the \
            default file); the team history is --to, else $FETCH_HISTORY_REMOTE. Each fetch goes with \
            its session (host, process, start); the server stamps it with the role that pushed it. A \
            fetch still running goes once it ends; one whose recorder died goes as interrupted.

            A push cut off anywhere (network, server restart, Ctrl-C, kill) is simply run again: the \
            local file remembers how far the server has committed, and the server skips what it has, \
            so every fetch arrives exactly once. Exit 0 when everything that should move has moved.

            Examples:
              fetch-history push --to postgres://ci@db.example/team
              FETCH_HISTORY_REMOTE=postgres:///team?host=/run/postgresql fetch-history push
              fetch-history push -d probe.sqlite --to "$TEAM" --format json
            """
    )

    @OptionGroup var database: DatabaseOptions

    @Option(help: ArgumentHelp("The team history: a postgres:// URL (default: $FETCH_HISTORY_REMOTE).", valueName: "url"))
    var to: String?

    @Option(help: "text or json.")
    var format = TextFormat.text

    func validate() throws {
        _ = try RemoteOption.url(to, option: "--to")
    }

    @MainActor func run() async throws {
        let url = try RemoteOption.url(to, option: "--to")
        let path = try database.path(for: "push")
        let store: HistoryStore
        do {
            store = try HistoryStore(path: path, access: .readWrite)
        } catch .cannotOpen(_, reason: .missing) {
            throw DatabaseFileError.noHistoryToChange(path: path, verb: "push")
        }
        let (summary, server) = try await DatabaseOptions.withTeam(url) { team in (try await store.push(to: team), team.displayName) }
        try TransferReport.write(summary, pushed: true, server: server, format: format)
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
