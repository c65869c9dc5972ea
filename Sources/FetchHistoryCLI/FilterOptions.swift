import ArgumentParser
import FetchHistory
import FoundationEssentials

/// The filters `list` and `export` share.
struct FilterOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Only fetches with this outcome: \(FetchStatus.allCases.map(\.rawValue).joined(separator: ", ")).",
            valueName: "outcome"
        ),
        transform: FilterOptions.status
    )
    var outcome: FetchStatus?

    @Option(help: ArgumentHelp("Only fetches from this source (exactly as listed).", valueName: "source"))
    var source: String?

    @Option(help: ArgumentHelp("Only fetches of this session (an id or unique id prefix).", valueName: "id"))
    var session: String?

    @Option(help: ArgumentHelp("Only fetches started at or after T: 2026-11-22, 2026-11-22T10:00:00Z, or 15m/2h/7d ago.", valueName: "T"))
    var since: TimeArgument?

    @Option(help: ArgumentHelp("Only fetches started before T (same forms as --since).", valueName: "T"))
    var until: TimeArgument?

    static func status(_ text: String) throws -> FetchStatus {
        guard let status = FetchStatus(rawValue: text) else {
            throw ValidationError("'\(text.prefix(40))\(text.count > 40 ? "…" : "")' is not an outcome; use one of \(FetchStatus.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return status
    }

    /// The filter, resolving a session prefix to its id in `db`.
    func filter(in db: Database) throws -> HistoryFilter {
        HistoryFilter(
            status: outcome, source: source, sessionID: try session.map { try db.session(idPrefix: $0).id },
            since: since?.timestamp, until: until?.timestamp
        )
    }
}
