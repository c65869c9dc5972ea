import ArgumentParser
import FetchHistory

struct DeleteCommand: HistoryCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete the named fetches: all of them, or none.",
        discussion: """
            Each fetch is named by its id or a prefix only it has, as `show` takes them. If any is \
            unknown, ambiguous or still running in a live process, nothing is deleted. Sessions left \
            with no fetch are deleted too.

            Examples:
              fetch-history delete 3f2a1b9c
              fetch-history delete 3f2a1b9c 0e5d77a1 9b0c
            """
    )

    @OptionGroup var database: DatabaseOptions

    @Argument(help: ArgumentHelp("The fetches' ids, or prefixes that only they have.", valueName: "id"), completion: .fetchIDs)
    var ids: [String]

    @OptionGroup var commitPause: CommitPauseOption

    func validate() throws {
        if ids.isEmpty { throw ValidationError("name at least one fetch to delete") }
    }

    @MainActor func run() async throws {
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
}
