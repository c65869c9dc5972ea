import ArgumentParser
import FetchHistory
import FoundationEssentials

/// The filters `list`, `export`, `report` and `stats` share. Each of those commands
/// calls `validateFilters()` from its own `validate()`.
struct FilterOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Only fetches with one of these outcomes: \(FetchStatus.allCases.map(\.rawValue).joined(separator: ", ")).",
            discussion: """
                Several outcomes are separated by commas or given as repeated options, in any case. \
                Example: --outcome failed,timed-out
                """,
            valueName: "outcome"
        ),
        completion: .list(FetchStatus.allCases.map(\.rawValue)),
        transform: FilterOptions.statuses
    )
    var outcome: [[FetchStatus]] = []

    @Option(
        parsing: .unconditionalSingleValue,
        help: ArgumentHelp(
            "Only fetches whose HTTP status is this code (404) or in this class (4xx).",
            discussion: """
                Several are separated by commas or given as repeated options. A fetch with no HTTP status \
                (the random source, or no answer from the server) never matches. Example: --status 429,5xx
                """,
            valueName: "status"
        ),
        transform: FilterOptions.httpStatuses
    )
    var status: [[HTTPStatusPattern]] = []

    @Option(
        name: .customLong("min-duration"), parsing: .unconditional,
        help: ArgumentHelp("Only fetches that ended and took at least this long, e.g. 250ms, 2s.", valueName: "duration"),
        transform: DurationArgument.init(parsing:)
    )
    var minDuration: DurationArgument?

    @Option(
        name: .customLong("max-duration"), parsing: .unconditional,
        help: ArgumentHelp("Only fetches that ended and took at most this long.", valueName: "duration"),
        transform: DurationArgument.init(parsing:)
    )
    var maxDuration: DurationArgument?

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
        ),
        completion: .sources
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

    @Option(help: ArgumentHelp("Only fetches of this session (an id or unique id prefix).", valueName: "id"), completion: .sessionIDs)
    var session: String?

    @Option(
        help: ArgumentHelp(
            "Only fetches whose problem is KEY, as stats --by problem names it: 'HTTP 503', 'timed out'.",
            discussion: """
                Repeated, any of them. A key is an outcome (timed out, cancelled, interrupted), HTTP and a status \
                outside 2xx, or an error with what varies masked (connection refused by <ip>); fetches that \
                succeeded or are running have none. Example: --problem 'HTTP 503'
                """,
            valueName: "KEY"
        )
    )
    var problem: [String] = []

    @OptionGroup var range: TimeRangeOptions<Fetches>

    /// The outcomes asked for, nil when --outcome was not given.
    var outcomes: Set<FetchStatus>? {
        outcome.isEmpty ? nil : Set(outcome.joined())
    }

    /// Refuses what no fetch could match. Called by the command, not as
    /// this group's `validate()`: argument-parser runs that while it decodes
    /// the command, and a refusal there makes it look for a help flag among
    /// the words, where it finds the `h` of a value such as `-1h` and prints
    /// the help instead.
    func validateFilters() throws {
        // An empty value is usually an unset variable (`--grep "$WORD"`):
        // it would match everything (or, for a source, nothing) silently.
        if grep?.isEmpty == true { throw ValidationError("--grep is empty; give the text to search for") }
        try Self.refuseEmpty(source: source, host: host)
        if problem.contains(where: \.isEmpty) {
            throw ValidationError("--problem is empty; give a problem's key as stats --by problem prints it, such as 'HTTP 503'")
        }
        try range.validateRange()
        try DurationArgument.refuseNegative(minDuration, option: "--min-duration")
        try DurationArgument.refuseNegative(maxDuration, option: "--max-duration")
        if let minDuration, let maxDuration, minDuration.duration > maxDuration.duration {
            throw ValidationError(
                "no fetch can match: --min-duration \(minDuration) is longer than --max-duration \(maxDuration)"
            )
        }
    }

    /// Refuses an empty --source or --host, which every command that takes them refuses alike.
    static func refuseEmpty(source: String?, host: String?) throws {
        if source?.isEmpty == true { throw ValidationError("--source is empty; give a source, a host or a URL prefix") }
        if host?.isEmpty == true { throw ValidationError("--host is empty; give a host name or a pattern such as 'ci-*'") }
    }

    /// The outcomes of one --outcome: one or several, separated by commas, in any case.
    static func statuses(_ text: String) throws -> [FetchStatus] {
        try text.split(separator: ",", omittingEmptySubsequences: false).map { word in
            guard let status = FetchStatus(rawValue: word.lowercased()) else {
                let shown = String(word.prefix(40)).terminalSafe + (word.count > 40 ? "…" : "")
                throw ValidationError("'\(shown)' is not an outcome; use one of \(FetchStatus.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return status
        }
    }

    /// The HTTP statuses of one --status: codes and classes, separated by commas.
    static func httpStatuses(_ text: String) throws -> [HTTPStatusPattern] {
        try text.split(separator: ",", omittingEmptySubsequences: false).map { word in
            guard let pattern = HTTPStatusPattern(String(word)) else {
                let shown = String(word.prefix(40)).terminalSafe + (word.count > 40 ? "…" : "")
                throw ValidationError("'\(shown)' is not an HTTP status; use a code from 100 to 599 (404) or a class (4xx)")
            }
            return pattern
        }
    }

    /// Whether any filter was given: `delete` refuses to select every fetch by none.
    var isEmpty: Bool {
        outcome.isEmpty && status.isEmpty && minDuration == nil && maxDuration == nil && source == nil && grep == nil
            && host == nil && session == nil && range.since == nil && range.until == nil && problem.isEmpty
    }

    /// The filter, with a session prefix resolved to its session's id in
    /// `history`. `--source` is matched by the history, which also matches
    /// sources first recorded later (what a follower needs).
    @MainActor func filter(in history: some HistoryReader) async throws -> HistoryFilter {
        var sessionID: UUID?
        if let session { sessionID = try await history.session(named: session).id }
        return HistoryFilter(
            sessionID: sessionID, since: range.since?.timestamp, until: range.until?.timestamp, containing: grep,
            sourceMatching: source, host: host.map(HostPattern.init), statuses: outcomes,
            httpStatuses: status.isEmpty ? nil : Array(status.joined()),
            minimumDuration: minDuration?.duration, maximumDuration: maxDuration?.duration,
            problems: problem.isEmpty ? nil : problem
        )
    }
}
