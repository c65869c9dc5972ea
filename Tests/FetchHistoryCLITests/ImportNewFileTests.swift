import Foundation
import Testing

/// An import into a history that is not there yet (or holds nothing) builds
/// the file beside it, `-import`, and renames it into place: killed at any
/// moment, the history is absent or complete, and the next command removes
/// what was left.
@Suite("import into a new history: built beside it, all or nothing")
struct ImportNewFileTests {
    /// The files in the sandbox's folder that belong to `path`: itself and anything beside it.
    static func files(besides path: String) throws -> [String] {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        let name = URL(fileURLWithPath: path).lastPathComponent
        return try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasPrefix(name) }.sorted()
    }

    /// SIGKILLs `child` once the file at `building` holds `size` bytes, or
    /// once it has ended, watching in a bounded yield loop.
    static func kill(_ child: FetchHistoryProcess, once building: String, reaches size: Int) async {
        for _ in 0..<10_000_000 where child.isRunning {
            let built = (try? FileManager.default.attributesOfItem(atPath: building)[.size] as? Int) ?? 0
            if built >= size { break }
            await Task.yield()
        }
        child.send(SIGKILL)
    }

    @Test func aNewHistoryIsAWriteAheadLogFileOfTheOwnerAloneWithNothingBesideIt() async throws {
        // Given an export of 2,000 fetches and no history
        let sandbox = try Sandbox()
        let file = sandbox.path("in.jsonl")
        try ExportRecord.jsonl(Fixtures.succeeded(2_000)).write(to: URL(fileURLWithPath: file))
        let history = sandbox.path("new/history.sqlite")

        // When it is imported into the history
        let imported = try await sandbox.run("import", "--database", history, file)

        // Then the history holds them, in WAL mode, mode 0600, whole, with nothing beside it
        #expect(imported.status == 0 && imported.standardError.isEmpty, "\(imported)")
        #expect(imported.standardOutput == "imported 2000 fetches: 2000 added, 0 already present\n")
        #expect(try Self.files(besides: history) == ["history.sqlite"])
        let mode = try FileManager.default.attributesOfItem(atPath: history)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(await SQLiteProbe.integrityCheck(history) == "ok")
        // The header's read and write versions: 2 for a WAL database (sqlite.org/fileformat2.html).
        let header = try #require(FileHandle(forReadingAtPath: history)?.readData(ofLength: 20))
        #expect(Array(header.suffix(2)) == [2, 2])
        let export = try await sandbox.run("export", "--database", history, "--format", "jsonl")
        #expect(try export.lines.map(ExportRecord.init(jsonLine:)) == ExportRecord.oldestFirst(Fixtures.succeeded(2_000)))
    }

    @Test func anEmptyHistoryAnEmptiedOneAndOneWithAFetchAllTakeTheImport() async throws {
        // Given a history that never held anything, one whose fetch was deleted, and one with a fetch
        let sandbox = try Sandbox()
        let file = sandbox.path("in.jsonl")
        try ExportRecord.jsonl(Fixtures.succeeded(3)).write(to: URL(fileURLWithPath: file))
        let nothing = sandbox.path("nothing.jsonl")
        try Data().write(to: URL(fileURLWithPath: nothing))
        let empty = sandbox.path("empty.sqlite")
        try await sandbox.succeed("import", "--database", empty, nothing)
        let emptied = sandbox.path("emptied.sqlite")
        try await sandbox.succeed("fetch", "--database", emptied, "--latency", "0")
        try await sandbox.succeed("delete", "--database", emptied, "--source", "random")
        let full = sandbox.path("full.sqlite")
        try await sandbox.succeed("fetch", "--database", full, "--latency", "0")

        // When the same export is imported into each
        let results = [
            try await sandbox.run("import", "--database", empty, file),
            try await sandbox.run("import", "--database", emptied, file),
            try await sandbox.run("import", "--database", full, file),
        ]

        // Then nothing is left beside them, and the first two hold the three, the third its own fetch and the three
        for result in results { #expect(result.status == 0 && result.standardError.isEmpty, "\(result)") }
        for history in [empty, emptied, full] { #expect(try Self.files(besides: history).count == 1, "\(history)") }
        #expect(try await sandbox.run("export", "--database", empty, "--format", "jsonl").lines.count == 3)
        #expect(try await sandbox.run("export", "--database", emptied, "--format", "jsonl").lines.count == 3)
        #expect(try await sandbox.run("export", "--database", full, "--format", "jsonl").lines.count == 4)
    }

    @Test func aLongImportCountsOnATerminalErasesItsLineAndWritesNothingIntoAPipe() async throws {
        // Given an export of 40,000 fetches: seconds of import in a debug build
        let sandbox = try Sandbox()
        let file = sandbox.path("in.jsonl")
        try ExportRecord.jsonl(Fixtures.succeeded(40_000)).write(to: URL(fileURLWithPath: file))

        // When it is imported on a terminal, and again into another history through pipes
        let child = try await TerminalProcess.start(
            ["import", "--database", sandbox.path("shown.sqlite"), file], environment: sandbox.environment(),
            workingDirectory: sandbox.root
        )
        let counted = await child.waitForTranscript {
            $0.range(of: #"importing… [1-9][0-9]* fetches, [0-9]+ a second"#, options: .regularExpression) != nil
        }
        let shown = try await child.wait()
        let piped = try await sandbox.run("import", "--database", sandbox.path("piped.sqlite"), file)

        // Then the terminal showed the count as it went, and kept only the summary
        #expect(counted, "\(shown.transcript.debugDescription)")
        #expect(shown.status == 0 && !shown.wasSignalled)
        let screen = TerminalScreen(shown.transcript)
        #expect(screen.lines == ["imported 40000 fetches: 40000 added, 0 already present", ""], "\(screen.lines)")
        // and the pipe got the summary alone, nothing on standard error
        #expect(piped.status == 0 && piped.standardError.isEmpty, "\(piped)")
        #expect(piped.standardOutput == "imported 40000 fetches: 40000 added, 0 already present\n")
    }

    @Test func aMalformedImportLeavesNoHistoryAndNoBuildBehind() async throws {
        // Given an export whose last record is broken
        let sandbox = try Sandbox()
        let file = sandbox.path("in.jsonl")
        try (ExportRecord.jsonl(Fixtures.succeeded(500)) + Data("{\"id\": 7}\n".utf8)).write(to: URL(fileURLWithPath: file))
        let history = sandbox.path("history.sqlite")

        // When it is imported into a new history
        let imported = try await sandbox.run("import", "--database", history, file)

        // Then it is refused, and nothing is there: no history, no file beside it
        #expect(imported.status != 0 && !imported.standardError.isEmpty, "\(imported)")
        #expect(try Self.files(besides: history).isEmpty)
    }

    /// Each round starts an import of 5,000 fetches into a new history and
    /// SIGKILLs it once the file it builds has grown past a random share of
    /// the size a whole build reaches (some rounds never get there: the
    /// import ends first). After each: the history is absent or holds all
    /// 5,000, and the next command leaves nothing beside it, saying so
    /// when it removed something.
    @Test func killedAtAnyMomentTheHistoryIsAbsentOrCompleteAndNothingIsLeft() async throws {
        let rounds = Reliability.setting("IMPORT_KILLS", default: 50)
        var random = Reliability.random(for: "import kills")
        let sandbox = try Sandbox()
        let file = sandbox.path("in.jsonl")
        try ExportRecord.jsonl(Fixtures.succeeded(5_000)).write(to: URL(fileURLWithPath: file))
        // The size a whole build reaches, from one import run to its end.
        let reference = sandbox.path("reference.sqlite")
        try await sandbox.succeed("import", "--database", reference, file)
        let wholeSize = try #require(FileManager.default.attributesOfItem(atPath: reference)[.size] as? Int)

        var absent = 0, complete = 0, removed = 0
        for round in 1...rounds {
            let history = sandbox.path("history-\(round).sqlite")
            let building = history + "-import"
            let killAt = Int.random(in: 0...(wholeSize * 5 / 4), using: &random)
            let context = "round \(round), killed once the build passed \(killAt) of \(wholeSize) bytes (seed \(Reliability.seed))"

            // When an import is killed once its build has grown past a random size
            let child = try await sandbox.start("import", "--database", history, file)
            await Self.kill(child, once: building, reaches: killAt)
            _ = try await child.wait(limit: .seconds(60))

            // Then the history is absent or complete
            if FileManager.default.fileExists(atPath: history) {
                complete += 1
                #expect(await SQLiteProbe.integrityCheck(history) == "ok", "\(context)")
                let export = try await sandbox.run("export", "--database", history, "--format", "jsonl")
                #expect(export.lines.count == 5_000, "\(context): \(export.lines.count) fetches")
            } else {
                absent += 1
            }

            // and the next command leaves nothing beside it, saying so when it removed a build
            let wasLeft = FileManager.default.fileExists(atPath: building)
            let next = try await sandbox.run("list", "--database", history)
            if wasLeft {
                removed += 1
                #expect(next.standardError.contains("removed \(building), left by an import or pull that did not finish"), "\(context): \(next)")
            }
            let left = try Self.files(besides: history).filter { $0.contains("-import") }
            #expect(left.isEmpty, "\(context): \(left)")
        }
        Reliability.summary("import kills: \(rounds) rounds, history absent after \(absent), complete after \(complete), a build left and removed \(removed) times")
        // Kills landed during builds and after them.
        #expect(absent > 0 && complete > 0 && removed > 0, "absent \(absent), complete \(complete), removed \(removed)")
    }
}
