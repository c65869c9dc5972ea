import ArgumentParser
import FetchHistory
import FoundationEssentials

struct DeleteCommand: HistoryCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete the named fetches, or those the filters select: all of them, or none.",
        discussion: """
            Each fetch is named by its id or a prefix only it has, as `show` takes them. If any is \
            unknown, ambiguous or still running in a live process, nothing is deleted. Instead of \
            ids, list's filters select the fetches (at least one filter; a fetch still running in a \
            live process is kept), and --dry-run says what would go. Sessions left with no fetch are \
            deleted too.

            Examples:
              fetch-history delete 3f2a1b9c
              fetch-history delete 3f2a1b9c 0e5d77a1 9b0c
              fetch-history delete --outcome failed --source 127.0.0.1 --since 1d --dry-run
            """
    )

    @OptionGroup var database: DatabaseOptions

    @Argument(help: ArgumentHelp("The fetches' ids, or prefixes that only they have.", valueName: "id"), completion: .fetchIDs)
    var ids: [String] = []

    @OptionGroup var filters: FilterOptions

    @Flag(help: "Print what would be deleted, and delete nothing.")
    var dryRun = false

    @OptionGroup var commitPause: CommitPauseOption

    func validate() throws {
        try filters.validateFilters()
        switch (ids.isEmpty, filters.isEmpty) {
        case (true, true): throw ValidationError("say which fetches to delete: their ids, or filters such as --outcome failed --since 1d")
        case (false, false): throw ValidationError("name fetches by their ids or select them with filters; not both")
        default: break
        }
    }

    @MainActor func run() async throws {
        if !filters.isEmpty { return try await deleteSelected() }
        if dryRun {
            let summary = try await database.reading { history in
                var fetches: [Fetch] = []
                for id in ids { fetches.append(try await history.fetch(named: id)) }
                return try await history.fetchesToDelete(.fetches(fetches.map(\.id)))
            }
            let output = OutputStream.standardOutput()
            try output.write(RetentionReport.deleted(summary, dryRun: true))
            return try output.flush()
        }
        try await database.changing("delete", beforeCommit: commitPause.beforeCommit) { history in
            var fetches: [Fetch] = []
            for id in ids { fetches.append(try await history.fetch(named: id)) }
            // All or none: a fetch deleted or started meanwhile refuses the whole deletion.
            let summary = try await history.deleteFetches(.fetches(fetches.map(\.id)))
            let output = OutputStream.standardOutput()
            var seen = Set<String>()
            for fetch in fetches where seen.insert(fetch.id.lowercased).inserted {
                try output.write("deleted \(fetch.id.lowercased)  \(fetch.startedAt.localDescription())  \(fetch.status.rawValue)\n")
            }
            try output.write(RetentionReport.deleted(summary, dryRun: false))
            try output.flush()
            // The deletion is committed and said: giving the space back comes after.
            if let space = try await history.reclaimSpace() { try output.write(RetentionReport.space(space)) }
            try output.flush()
        }
    }

    /// Deletes the fetches the filters select, but those still running in
    /// a live process (kept, as `prune` keeps them), or says what would go.
    @MainActor private func deleteSelected() async throws {
        let output = OutputStream.standardOutput()
        if dryRun {
            let summary = try await database.reading { history in
                try await history.fetchesToDelete(.fetches(try await selected(in: history).ids))
            }
            try output.write(RetentionReport.deleted(summary, dryRun: true))
            return try output.flush()
        }
        try await database.changing("delete", beforeCommit: commitPause.beforeCommit) { history in
            let (ids, running) = try await selected(in: history)
            var summary = try await history.deleteFetches(.fetches(ids))
            summary.keptRunning += running
            try output.write(RetentionReport.deleted(summary, dryRun: false))
            try output.flush()
            if let space = try await history.reclaimSpace() { try output.write(RetentionReport.space(space)) }
            try output.flush()
        }
    }

    /// The ids of the fetches the filters select that may be deleted, and
    /// how many others are still running.
    @MainActor private func selected(in history: some HistoryReader) async throws -> (ids: [UUID], running: Int) {
        let fetches = try await history.fetches(matching: try await filters.filter(in: history), limit: nil)
        let running = fetches.filter { $0.status == .running }
        return (fetches.filter { $0.status != .running }.map(\.id), running.count)
    }
}
