import ArgumentParser
import FetchHistory

/// `--since T` and `--until T`, for the commands that pick fetches (every
/// filter) or sessions (`sessions`) by when they started: one declaration,
/// each command's help naming what it picks.
struct TimeRangeOptions<Subject: TimeRangeSubject>: ParsableArguments {
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Only \(Subject.plural) started at or after T: 2026-11-22, 2026-11-22T10:00:00Z, now, today, yesterday, or 15m/2h/7d ago.",
            valueName: "T"
        ),
        transform: TimeArgument.init(parsing:)
    )
    var since: TimeArgument?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Only \(Subject.plural) started before T (same forms as --since).", valueName: "T"),
        transform: TimeArgument.init(parsing:)
    )
    var until: TimeArgument?

    /// Refuses a range no fetch could start in. Called by the command, not
    /// as this group's `validate()`, for the reason `FilterOptions.validateFilters`
    /// gives.
    func validateRange() throws {
        try TimeArgument.validateRange(since: since, until: until)
    }
}

/// What a time range picks, as its help names it.
protocol TimeRangeSubject {
    static var plural: String { get }
}

enum Fetches: TimeRangeSubject {
    static let plural = "fetches"
}

enum Sessions: TimeRangeSubject {
    static let plural = "sessions"
}
