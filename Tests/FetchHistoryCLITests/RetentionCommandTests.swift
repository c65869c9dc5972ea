import FetchHistory
import Foundation
import Testing

@Suite("prune and delete remove fetches all or nothing, never a live one")
struct RetentionCommandTests {
    /// The ids of the standard fixture's fetches, by number.
    static func ids(_ numbers: ClosedRange<Int>) -> [String] { numbers.map(Ids.fetch) }

    /// The session ids `sessions --format jsonl` lists.
    static func sessionIDs(_ sandbox: Sandbox) async throws -> [String] {
        let result = try await sandbox.run("sessions", "--limit", "0", "--format", "jsonl")
        #expect(result.status == 0, "\(result)")
        return try result.lines.map { line in
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            return try #require(object["id"] as? String)
        }
    }

    @Test func pruneBeforeDeletesTheFetchesStartedEarlierAndTheSessionsItEmpties() async throws {
        // Given the standard history: fetches 1–4 started before day 1, session 1 holds 1–3, session 2 holds 4–7
        let sandbox = try Sandbox()
        try await sandbox.importRecords(Fixtures.standard)
        let before = try await sandbox.exportedRecords()

        // When fetches started before day 1 are pruned
        let result = try await sandbox.run("prune", "--before", ISO.format(Fixtures.day0 + Fixtures.day))

        // Then fetches 1–4 and session 1 are gone, and every other record is as it was
        #expect(result.status == 0, "\(result)")
        #expect(result.lines.first == "deleted 4 fetches (started 2026-11-20 10:00:00 to 2026-11-21 09:00:00) and 1 session left empty", "\(result)")
        let after = try await sandbox.exportedRecords()
        #expect(after == before.filter { !Self.ids(1...4).contains($0.id) })
        #expect(try await Self.sessionIDs(sandbox) == [Ids.session(3), Ids.session(2)])
    }

    @Test func pruneKeepLeavesTheNewestFetchesInListOrderEvenWithinOneMillisecond() async throws {
        // Given six fetches started in the same millisecond, after the standard history
        let sandbox = try Sandbox()
        let tied = (21...26).map { ExportRecord.make("succeeded", id: Ids.fetch($0), session: Ids.session(4), at: Fixtures.day0 + 3 * Fixtures.day) }
        try await sandbox.importRecords(Fixtures.standard + tied)
        let newestFour = Array(try await sandbox.listedIDs([]).prefix(4))

        // When all but the newest four are pruned
        let result = try await sandbox.run("prune", "--keep", "4")

        // Then exactly the four fetches list showed first are left, and only session 4 has fetches
        #expect(result.status == 0, "\(result)")
        #expect(result.lines.first?.hasPrefix("deleted 12 fetches") == true, "\(result)")
        #expect(try await sandbox.listedIDs([]) == newestFour)
        #expect(Set(newestFour).isSubset(of: tied.map(\.id)))
        #expect(try await Self.sessionIDs(sandbox) == [Ids.session(4)])
    }

    @Test func aDryRunSaysWhatWouldGoAndChangesNothing() async throws {
        // Given the standard history
        let sandbox = try Sandbox()
        try await sandbox.importRecords(Fixtures.standard)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: sandbox.database))
        let before = try await sandbox.run("export", "--format", "jsonl")

        // When a prune is only tried, either way
        let byTime = try await sandbox.run("prune", "--before", ISO.format(Fixtures.day0 + Fixtures.day), "--dry-run")
        let byCount = try await sandbox.run("prune", "--keep", "3", "--dry-run")

        // Then each says what it would delete, and the history is untouched
        #expect(byTime.lines == ["would delete 4 fetches (started 2026-11-20 10:00:00 to 2026-11-21 09:00:00) and 1 session left empty"], "\(byTime)")
        #expect(byCount.lines == ["would delete 7 fetches (started 2026-11-20 10:00:00 to 2026-11-21 12:00:00) and 2 sessions left empty"], "\(byCount)")
        #expect(try await sandbox.run("export", "--format", "jsonl").standardOutput == before.standardOutput)
        #expect(try Data(contentsOf: URL(fileURLWithPath: sandbox.database)) == bytes)
    }

    @Test func aDryRunWorksOnAReadOnlyFile() async throws {
        // Given the standard history in a file made read-only
        let sandbox = try Sandbox()
        try await sandbox.importRecords(Fixtures.standard)
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: sandbox.database)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: sandbox.database))

        // When a prune is only tried
        let result = try await sandbox.run("prune", "--keep", "3", "--dry-run")

        // Then it says what it would delete, and the file is as it was
        #expect(result.status == 0, "\(result)")
        #expect(result.lines == ["would delete 7 fetches (started 2026-11-20 10:00:00 to 2026-11-21 12:00:00) and 2 sessions left empty"], "\(result)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: sandbox.database)) == bytes)
        #expect(try permissions(sandbox.database) == 0o444)
    }

    @Test func aPruneThatMatchesNothingSaysSoWithoutATimeRange() async throws {
        // Given the standard history, every fetch started in 2026
        let sandbox = try Sandbox()
        try await sandbox.importRecords(Fixtures.standard)

        // When fetches started before 2000 are pruned, and only tried
        let result = try await sandbox.run("prune", "--before", "2000-01-01")
        let dryRun = try await sandbox.run("prune", "--before", "2000-01-01", "--dry-run")

        // Then nothing is deleted, and the sentence has no range of start times
        #expect(result.status == 0 && result.lines.first == "deleted 0 fetches and 0 sessions left empty", "\(result)")
        #expect(dryRun.status == 0 && dryRun.lines == ["would delete 0 fetches and 0 sessions left empty"], "\(dryRun)")
        #expect(try await sandbox.listedIDs([]).count == Fixtures.standard.count)
    }

    @Test func aRunningFetchOfALiveProcessAndItsSessionAreNeverDeleted() async throws {
        // Given a fetch in flight in a live process, and the standard history
        let sandbox = try Sandbox()
        let live = try await sandbox.start("fetch", "--latency", "1d")
        let running = try await sandbox.waitForFetch(of: live)
        try await sandbox.importRecords(Fixtures.standard)

        // When everything is pruned, and the live fetch is named for deletion
        let prune = try await sandbox.run("prune", "--keep", "0")
        let delete = try await sandbox.run("delete", running.id)

        // Then only the live fetch and its session are left, the deletion is refused,
        #expect(prune.status == 0, "\(prune)")
        #expect(prune.lines.prefix(2) == [
            "deleted 10 fetches (started 2026-11-20 10:00:00 to 2026-11-22 12:00:00) and 3 sessions left empty",
            "kept 1 fetch still running in a live process",
        ], "\(prune)")
        #expect(try await sandbox.listedIDs([]) == [running.id])
        #expect(try await Self.sessionIDs(sandbox) == [running.session])
        #expect(delete.status == 1, "\(delete)")
        #expect(delete.standardError == "error: fetch \(running.id) is still running in a live process, so it cannot be deleted; nothing was deleted\n", "\(delete)")

        // and its process still records its end
        live.send(SIGTERM)
        let ended = try await live.wait()
        #expect(ended.status == 143 && ended.standardError.isEmpty, "\(ended)")
        #expect(try await sandbox.exportedRecords().map(\.outcome) == ["cancelled"])
    }

    @Test func theSessionOfALiveRecorderStaysWhenItsFetchesGo() async throws {
        // Given a live recorder between two fetches: its first has ended, its second a day away (a
        // minute was not enough on a loaded machine: the second began before the list that follows)
        let sandbox = try Sandbox()
        let live = try await sandbox.start("fetch", "--count", "2", "--interval", "1d", "--latency", "0")
        let ended = try await sandbox.waitForFetch("succeeded", of: live)

        // When its ended fetch is pruned
        let result = try await sandbox.run("prune", "--keep", "0")

        // Then the fetch is gone but its session stays, for the fetch still to come
        #expect(result.lines.first == "deleted 1 fetch (started \(ISO.format(ended.startedAt).prefix(19).replacing("T", with: " "))) and 0 sessions left empty", "\(result)")
        #expect(try await sandbox.listedIDs([]).isEmpty)
        #expect(try await Self.sessionIDs(sandbox) == [ended.session])
        live.send(SIGTERM)
        let stopped = try await live.wait()
        #expect(stopped.standardError.isEmpty, "\(stopped)")
    }

    @Test func deleteTakesListsFiltersAndADryRun() async throws {
        // Given the standard history (failed: fetches 2 and 10; 10 is in session 3, on day 2)
        let sandbox = try Sandbox()
        try await sandbox.importRecords(Fixtures.standard)
        let before = try await sandbox.exportedRecords()

        // When the failed fetches of day 2 on are deleted, first as a dry run
        let filters = ["--outcome", "failed", "--since", ISO.format(Fixtures.day0 + 2 * Fixtures.day)]
        let dryRun = try await sandbox.run(["delete"] + filters + ["--dry-run"])
        let afterDryRun = try await sandbox.exportedRecords()
        let result = try await sandbox.run(["delete"] + filters)

        // Then the dry run says what the deletion then did, and only fetch 10 is gone
        #expect(dryRun.status == 0, "\(dryRun)")
        #expect(dryRun.lines.first == "would delete 1 fetch (started 2026-11-22 12:00:00) and 0 sessions left empty", "\(dryRun)")
        #expect(afterDryRun == before)
        #expect(result.status == 0, "\(result)")
        #expect(result.lines.first == "deleted 1 fetch (started 2026-11-22 12:00:00) and 0 sessions left empty", "\(result)")
        #expect(try await sandbox.exportedRecords() == before.filter { $0.id != Ids.fetch(10) })
    }

    @Test(arguments: [
        (["delete"], "error: say which fetches to delete: their ids, or filters such as --outcome failed --since 1d"),
        (["delete", "00000001", "--outcome", "failed"], "error: name fetches by their ids or select them with filters; not both"),
    ])
    func deleteRefusesNoSelectionAndTwo(_ command: [String], _ message: String) async throws {
        // Given the standard history
        let sandbox = try Sandbox()
        try await sandbox.importRecords(Fixtures.standard)
        let before = try await sandbox.exportedRecords()

        // When delete is given nothing to select by, or both ids and filters
        let result = try await sandbox.run(command)

        // Then it is a usage error, and nothing changed
        #expect(result.status == 64, "\(result)")
        #expect(result.standardError.hasPrefix(message + "\n"), "\(result)")
        #expect(try await sandbox.exportedRecords() == before)
    }

    @Test func deleteByFilterKeepsAFetchRunningInALiveProcess() async throws {
        // Given a fetch in flight in a live process, and the standard history
        let sandbox = try Sandbox()
        let live = try await sandbox.start("fetch", "--latency", "1d")
        let running = try await sandbox.waitForFetch(of: live)
        try await sandbox.importRecords(Fixtures.standard)

        // When every fetch of the random source is deleted by filter
        let result = try await sandbox.run("delete", "--source", "random")

        // Then the seven ended ones go, and the live one is kept and said
        #expect(result.status == 0, "\(result)")
        #expect(result.lines.prefix(2) == [
            "deleted 6 fetches (started 2026-11-20 10:00:00 to 2026-11-22 12:00:00) and 1 session left empty",
            "kept 1 fetch still running in a live process",
        ], "\(result)")
        #expect(try await sandbox.listedIDs(["--source", "random"]) == [running.id])
        live.send(SIGTERM)
        _ = try await live.wait()
    }

    @Test func deleteRemovesTheNamedFetchesByPrefixAndTheSessionsItEmpties() async throws {
        // Given the standard history
        let sandbox = try Sandbox()
        try await sandbox.importRecords(Fixtures.standard)
        let before = try await sandbox.exportedRecords()

        // When fetches 8–10 (all of session 3) are deleted by id prefixes, one named twice
        let result = try await sandbox.run("delete", String(Ids.fetch(8).prefix(8)), Ids.fetch(9), "0000000a", Ids.fetch(9))

        // Then they and session 3 are gone, and nothing else changed
        #expect(result.status == 0, "\(result)")
        #expect(result.lines.prefix(4) == [
            "deleted \(Ids.fetch(8))  2026-11-22 10:00:00  succeeded",
            "deleted \(Ids.fetch(9))  2026-11-22 11:00:00  succeeded",
            "deleted \(Ids.fetch(10))  2026-11-22 12:00:00  failed",
            "deleted 3 fetches (started 2026-11-22 10:00:00 to 2026-11-22 12:00:00) and 1 session left empty",
        ], "\(result)")
        #expect(try await sandbox.exportedRecords() == before.filter { !Self.ids(8...10).contains($0.id) })
        #expect(try await Self.sessionIDs(sandbox) == [Ids.session(2), Ids.session(1)])
    }

    @Test(arguments: [
        (["ffffffff"], "error: no fetch has an id starting with 'ffffffff'"),
        (["0000000"], "error: '0000000' matches several"),
        (["xyz"], "error: 'xyz' is not an id or id prefix"),
    ])
    func deleteWithOneBadIDDeletesNothing(_ bad: [String], _ message: String) async throws {
        // Given the standard history
        let sandbox = try Sandbox()
        try await sandbox.importRecords(Fixtures.standard)
        let before = try await sandbox.run("export", "--format", "jsonl")

        // When a good id is named with a bad one
        let result = try await sandbox.run(["delete", Ids.fetch(1)] + bad)

        // Then it fails with one sentence, and nothing is deleted
        #expect(result.status == 1, "\(result)")
        #expect(result.standardError.hasPrefix(message) && result.standardError.split(separator: "\n").count == 1, "\(result)")
        #expect(try await sandbox.run("export", "--format", "jsonl").standardOutput == before.standardOutput)
    }

    @Test(arguments: [["prune", "--keep", "0"], ["prune", "--before", "0"], ["delete", "00000001"]])
    func aReadOnlyFileIsRefusedAndLeftAsItWas(_ command: [String]) async throws {
        // Given the standard history in a file made read-only
        let sandbox = try Sandbox()
        try await sandbox.importRecords(Fixtures.standard)
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: sandbox.database)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: sandbox.database))

        // When it is pruned or deleted from
        let result = try await sandbox.run(command)

        // Then it is refused in one sentence, and its bytes are unchanged
        #expect(result.status == 1, "\(result)")
        #expect(result.standardError == "error: \(sandbox.database) is read-only, so nothing can be deleted from it; nothing was deleted\n", "\(result)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: sandbox.database)) == bytes)
    }

    @Test(arguments: [
        (["prune"], "error: say which fetches to delete: --before T or --keep N"),
        (["prune", "--keep", "1", "--before", "1d"], "error: --before and --keep cannot be used together; choose one"),
        (["prune", "--keep=-1"], "error: --keep must be 0 or more, not -1"),
    ])
    func unclearRequestsAreUsageErrors(_ command: [String], _ message: String) async throws {
        // Given the standard history
        let sandbox = try Sandbox()
        try await sandbox.importRecords(Fixtures.standard)

        // When prune or delete is not told what to delete, or told two ways
        let result = try await sandbox.run(command)

        // Then it is a usage error saying what is wrong, and nothing is deleted
        #expect(result.status == 64, "\(result)")
        #expect(result.standardError.split(separator: "\n").first.map(String.init) == message, "\(result)")
        #expect(try await sandbox.listedIDs([]).count == Fixtures.standard.count)
    }

    @Test(arguments: [["prune", "--keep", "10"], ["delete", Ids.fetch(1000), Ids.fetch(1001)]])
    func killedBeforeItsCommitItDeletesNothing(_ command: [String]) async throws {
        // Given a history of 3,000 fetches
        let sandbox = try Sandbox()
        try await sandbox.importRecords(Fixtures.succeeded(3_000))
        let before = try await sandbox.run("export", "--format", "jsonl")

        // When the command is killed once its deletion is made but not committed
        let child = try await FetchHistoryProcess.start(
            arguments: command + ["--test-pause-before-commit"], environment: sandbox.environment(.sandbox),
            workingDirectory: sandbox.root
        )
        #expect(await child.waitForPrintedLines(1), "it never reached its commit")
        child.send(SIGKILL)
        let killed = try await child.wait()
        #expect(killed.wasSignalled && killed.status == SIGKILL && killed.lines == ["paused before commit"], "\(killed)")

        // Then the file is sound and the history whole, byte for byte
        #expect(await SQLiteProbe.integrityCheck(sandbox.database) == "ok")
        let after = try await sandbox.run("export", "--format", "jsonl")
        #expect(after.status == 0 && after.lines.count == 3_000, "\(after)")
        #expect(after.standardOutput == before.standardOutput)

        // and the same command, run again to its end, deletes
        let again = try await sandbox.run(command)
        #expect(again.status == 0, "\(again)")
        #expect(try await sandbox.listedIDs(["--limit", "0"]).count < 3_000)
    }

    @Test func pruningAQuarterOrMoreOfTheFileGivesTheSpaceBackAndLessLeavesItForReuse() async throws {
        // Given a history of 4,000 fetches
        let sandbox = try Sandbox()
        try await sandbox.importRecords(Fixtures.succeeded(4_000))
        let pages = try await SQLiteProbe.integer(sandbox.database, "PRAGMA page_count")
        let full = try Self.fileSize(sandbox.database)
        let indexes = "SELECT count(*) FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'fetch'"
        let indexCount = try await SQLiteProbe.integer(sandbox.database, indexes)
        let pageSize = try await SQLiteProbe.integer(sandbox.database, "PRAGMA page_size")

        // When a few are pruned (150 of 4,000), then 1,450 of the 3,850 left (about 40% of the file), then most
        let few = try await sandbox.run("prune", "--keep", "3850")
        let pagesAfterFew = try await SQLiteProbe.integer(sandbox.database, "PRAGMA page_count")
        let freeAfterFew = try await SQLiteProbe.integer(sandbox.database, "PRAGMA freelist_count")
        let many = try await sandbox.run("prune", "--keep", "2400")
        let most = try await sandbox.run("prune", "--keep", "100")

        // Then the few leave the file as large as it was, its freed pages kept for new fetches, and say how much,
        #expect(pagesAfterFew == pages && freeAfterFew > 0, "\(pages) → \(pagesAfterFew) pages, \(freeAfterFew) free")
        #expect(few.status == 0, "\(few)")
        #expect(
            few.lines.last == "file \(Self.kilobytesOrMegabytes(pagesAfterFew * pageSize)), \(Self.kilobytesOrMegabytes(freeAfterFew * pageSize)) "
                + "of it free for new fetches (rewritten only when 25% or more is free)",
            "\(few)"
        )
        // a quarter or more free is given back,
        let manyLine = try #require(many.lines.last, "\(many)")
        let freed = try #require(manyLine.firstMatch(of: /^file [0-9.]+ [kM]B → [0-9.]+ [kM]B \(rewritten: ([0-9]+)% was free\)$/), "\(many)")
        #expect(many.status == 0 && (30...48).contains(Int(freed.1) ?? 0), "\(many)")
        // and the most shrink the file on disk, with an empty log
        #expect(most.status == 0 && most.lines.last?.contains("(rewritten:") == true, "\(most)")
        let shrunk = try Self.fileSize(sandbox.database)
        #expect(shrunk < full / 4, "\(full) → \(shrunk) bytes")
        #expect((try? Self.fileSize(sandbox.database + "-wal")) ?? 0 == 0)
        #expect(await SQLiteProbe.integrityCheck(sandbox.database) == "ok")
        #expect(try await sandbox.listedIDs(["--limit", "0"]).count == 100)
        // and the indexes dropped for the large deletion are all back
        #expect(try await SQLiteProbe.integer(sandbox.database, indexes) == indexCount && indexCount >= 6)
    }

    /// `48 kB` (rounded to the nearest), or `1.4 MB` from a million bytes on: how prune writes a size.
    static func kilobytesOrMegabytes(_ bytes: Int64) -> String {
        bytes < 1_000_000 ? "\(Int((Double(bytes) / 1_000).rounded())) kB" : String(format: "%.1f MB", Double(bytes) / 1_000_000)
    }

    static func fileSize(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.intValue ?? -1
    }
}
