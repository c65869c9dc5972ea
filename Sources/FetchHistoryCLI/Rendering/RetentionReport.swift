import FetchHistory

/// The sentences `prune` and `delete` print about what they deleted and
/// the space it gave back.
enum RetentionReport {
    /// `deleted 3 fetches (started 2026-11-20 10:00:00 to 2026-11-21 09:00:00) and 1 session`.
    static func deleted(_ summary: RetentionSummary, dryRun: Bool) -> String {
        var line = (dryRun ? "would delete " : "deleted ") + count(summary.fetches, "fetch", "fetches")
        if let oldest = summary.oldest?.localDescription(), let newest = summary.newest?.localDescription() {
            line += " (started \(oldest)" + (oldest == newest ? ")" : " to \(newest))")
        }
        line += " and " + count(summary.sessions, "session", "sessions") + " left empty\n"
        if summary.keptRunning > 0 {
            line += "kept " + count(summary.keptRunning, "fetch", "fetches") + " still running in a live process\n"
        }
        return line
    }

    /// What became of the free space: the deletion is committed by then,
    /// so a rewrite kept out by another process's lock is not a failure of
    /// the command, only space not yet given back:
    /// `file 212.3 MB → 21.4 MB (rewritten: 90% was free)`, or why it was not rewritten.
    static func space(_ space: ReclaimedSpace) -> String {
        switch space.outcome {
        case .rewritten:
            "file \(megabytes(space.before.bytes)) → \(megabytes(space.after.bytes)) (rewritten: \(percent(space.before.freeFraction)) was free)\n"
        case .belowThreshold(let threshold):
            "file \(megabytes(space.after.bytes)), \(megabytes(space.after.freeBytes)) of it free for new fetches "
                + "(rewritten only when \(percent(threshold)) or more is free)\n"
        case .locked:
            "file \(megabytes(space.before.bytes)) not rewritten: another process kept it locked; "
                + "its \(megabytes(space.before.freeBytes)) of free space will be reused by new fetches\n"
        }
    }

    static func count(_ number: Int, _ one: String, _ many: String) -> String {
        "\(number) \(number == 1 ? one : many)"
    }

    /// `212.3 MB`, or `48 kB` below a megabyte.
    static func megabytes(_ bytes: Int) -> String {
        bytes < 1_000_000 ? "\((bytes + 500) / 1_000) kB" : StatsCommand.decimal(Double(bytes) / 1_000_000, places: 1) + " MB"
    }

    static func percent(_ fraction: Double) -> String {
        "\(Int((fraction * 100).rounded()))%"
    }
}
