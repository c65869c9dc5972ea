import ArgumentParser
import FetchHistory
import FoundationEssentials

/// The filters `list`, `export` and `stats` share.
struct FilterOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Only fetches with this outcome: \(FetchStatus.allCases.map(\.rawValue).joined(separator: ", ")).",
            valueName: "outcome"
        ),
        completion: .list(FetchStatus.allCases.map(\.rawValue)),
        transform: FilterOptions.status
    )
    var outcome: FetchStatus?

    @Option(
        help: ArgumentHelp(
            "Only fetches from this source: exact, a host, or a URL prefix.",
            discussion: """
                Text with :// is a URL prefix (http://127.0.0.1:8080/ matches every source starting with it); \
                other text is the exact source (random) or a host, with or without a port (127.0.0.1, \
                example.com:8443), matching every http:// and https:// URL on it. Case-sensitive. \
                Example: --source 127.0.0.1
                """,
            valueName: "source"
        )
    )
    var source: String?

    @Option(
        help: ArgumentHelp(
            "Only fetches whose error, source or value contains TEXT, ignoring case.",
            discussion: """
                The value is searched as shown: an integer in decimal, anything else as its JSON text. \
                Case is ignored beyond ASCII (ÉCHEC finds échec, STRASSE finds straße); every character \
                of TEXT is literal (% _ \\ * are not wildcards). Example: --grep 'connection refused'
                """,
            valueName: "TEXT"
        )
    )
    var grep: String?

    @Option(
        help: ArgumentHelp(
            "Only fetches recorded on a host matching PATTERN, where * is any run of characters.",
            discussion: "Every other character is literal; case-sensitive. Example: --host 'ci-*'",
            valueName: "PATTERN"
        )
    )
    var host: String?

    @Option(help: ArgumentHelp("Only fetches of this session (an id or unique id prefix).", valueName: "id"))
    var session: String?

    @Option(
        help: ArgumentHelp("Only fetches started at or after T: 2026-11-22, 2026-11-22T10:00:00Z, or 15m/2h/7d ago.", valueName: "T"),
        transform: TimeArgument.init(parsing:)
    )
    var since: TimeArgument?

    @Option(
        help: ArgumentHelp("Only fetches started before T (same forms as --since).", valueName: "T"),
        transform: TimeArgument.init(parsing:)
    )
    var until: TimeArgument?

    func validate() throws {
        // An empty value is usually an unset variable (`--grep "$WORD"`):
        // it would match everything (or, for a source, nothing) silently.
        if grep?.isEmpty == true { throw ValidationError("--grep is empty; give the text to search for") }
        if source?.isEmpty == true { throw ValidationError("--source is empty; give a source, a host or a URL prefix") }
        if host?.isEmpty == true { throw ValidationError("--host is empty; give a host name or a pattern such as 'ci-*'") }
    }

    static func status(_ text: String) throws -> FetchStatus {
        guard let status = FetchStatus(rawValue: text) else {
            throw ValidationError("'\(text.prefix(40))\(text.count > 40 ? "…" : "")' is not an outcome; use one of \(FetchStatus.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return status
    }

    /// The filter, with a session prefix resolved to its session's id in
    /// `history`. `--source` is matched by the history, which also matches
    /// sources first recorded later (what a follower needs).
    @MainActor func filter(in history: some HistoryReader) async throws -> HistoryFilter {
        var sessionID: UUID?
        if let session { sessionID = try await history.session(named: session).id }
        return HistoryFilter(
            status: outcome, sessionID: sessionID, since: since?.timestamp, until: until?.timestamp, containing: grep,
            sourceMatching: source, host: host.map(HostPattern.init)
        )
    }
}
