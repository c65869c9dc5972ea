import ArgumentParser
import FetchHistory

struct PruneCommand: HistoryCommand {
    static let configuration = CommandConfiguration(
        commandName: "prune",
        abstract: "Delete old fetches: those started before T, or all but the newest N.",
        discussion: """
            A fetch still running in a live process is never deleted. Sessions left with no fetch \
            are deleted too. It is one transaction: killed or failing midway, it deletes nothing. \
            Afterwards, if a quarter or more of the file is free, the file is rewritten (VACUUM) \
            to give the space back; otherwise new fetches reuse the free space.

            Examples:
              fetch-history prune --before 30d
              fetch-history prune --before 2026-11-01 --dry-run
              fetch-history prune --keep 10000
              fetch-history prune --keep 100 --dry-run
            """
    )

    @OptionGroup var database: DatabaseOptions

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Delete fetches started before T: 2026-11-22, 2026-11-22T10:00:00Z, today, yesterday, or 15m/2h/30d ago.",
            valueName: "T"
        ),
        transform: TimeArgument.init(parsing:)
    )
    var before: TimeArgument?

    // Unconditional: `--keep -1` is a value to refuse with a reason, not a missing value.
    @Option(parsing: .unconditional, help: ArgumentHelp("Keep the newest N fetches (as list shows them) and delete the rest.", valueName: "N"))
    var keep: Int?

    @Flag(help: "Print what would be deleted, and delete nothing.")
    var dryRun = false

    @OptionGroup var commitPause: CommitPauseOption

    func validate() throws {
        switch (before, keep) {
        case (nil, nil): throw ValidationError("say which fetches to delete: --before T or --keep N")
        case (_?, _?): throw ValidationError("--before and --keep cannot be used together; choose one")
        case (nil, let keep?): try OptionBounds.require(keep, atLeast: 0, option: "--keep")
        case (let before?, nil): try TimeArgument.refuseNegative(before, option: "--before")
        }
    }

    @MainActor func run() async throws {
        let rule: RetentionRule = if let before { .startedBefore(before.timestamp) } else { .keepingNewest(keep ?? 0) }
        let output = OutputStream.standardOutput()
        if dryRun {
            let summary = try await database.reading { history in try await history.fetchesToDelete(rule) }
            try output.write(RetentionReport.deleted(summary, dryRun: true))
            try output.flush()
            return
        }
        try await database.changing("prune", beforeCommit: commitPause.beforeCommit) { history in
            try output.write(RetentionReport.deleted(try await history.deleteFetches(rule), dryRun: false))
            try output.flush()
            // The deletion is committed and said: giving the space back comes after.
            if let space = try await history.reclaimSpace() { try output.write(RetentionReport.space(space)) }
            try output.flush()
        }
    }
}
