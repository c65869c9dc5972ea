import Foundation
import Testing

@Suite("export and import move histories losslessly, all or nothing")
struct ExportImportTests {
    /// A history with real recorded fetches (live sessions, measured times)
    /// and imported ones with awkward strings.
    private func mixedHistory() async throws -> Sandbox {
        let sandbox = try Sandbox()
        try await sandbox.succeed("fetch", "--count", "2", "--interval", "0", "--latency", "0")
        let timedOut = try await sandbox.run("fetch", "--timeout", "10ms", "--latency", "5s")
        #expect(timedOut.status == 1, "\(timedOut)")
        var records = Fixtures.standard
        records.append(.make("failed", id: Ids.fetch(50), at: Fixtures.day0 + 5, error: "tab\t quote\" backslash\\ slash/ é 😀 \u{1}ctl"))
        try await sandbox.importRecords(records)
        return sandbox
    }

    @Test(arguments: ["json", "jsonl"])
    func exportImportExportIsByteIdentical(format: String) async throws {
        // Given a history with recorded and imported fetches, exported
        let sandbox = try await mixedHistory()
        let first = try await sandbox.run("export", "--format", format)
        #expect(first.status == 0, "\(first)")
        let file = sandbox.path("export.\(format)")
        try first.standardOutputData.write(to: URL(fileURLWithPath: file))

        // When the export is imported into an empty database and exported again
        let copy = sandbox.path("copy.sqlite")
        let imported = try await sandbox.run("import", "--database", copy, file)
        let second = try await sandbox.run("export", "--database", copy, "--format", format)

        // Then the second export is byte for byte the first
        #expect(imported.status == 0, "\(imported)")
        #expect(imported.standardOutput.contains("\(Fixtures.standard.count + 4) added"), "\(imported)")
        #expect(second.standardOutputData == first.standardOutputData, "first:\n\(first.standardOutput)\nsecond:\n\(second.standardOutput)")
    }

    @Test func exportWritesTheImportedRecordsOldestFirstInBothFormats() async throws {
        // Given records written by the test in the export format, imported in a shuffled order
        let sandbox = try Sandbox()
        let records = Fixtures.standard.filter { $0.outcome != "running" } + Fixtures.succeeded(30)
        try await sandbox.importRecords(records.shuffled())

        // When exported as JSON lines and as JSON
        let jsonl = try await sandbox.run("export", "--format", "jsonl")
        let json = try await sandbox.run("export")

        // Then JSON lines are the records, oldest first, and JSON is the same lines as one array
        let expected = ExportRecord.oldestFirst(records)
        #expect(try jsonl.lines.map(ExportRecord.init(jsonLine:)) == expected, "\(jsonl)")
        #expect(json.standardOutput == "[\n" + jsonl.lines.joined(separator: ",\n") + "\n]\n", "\(json)")
        // Every key present in every record, null when empty.
        let keySets = try jsonl.lines.map { line in
            Set(try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]).keys)
        }
        #expect(Set(keySets).count == 1, "\(Set(keySets))")
    }

    @Test func importingTheSameFileTwiceSkipsEveryFetchTheSecondTime() async throws {
        // Given a history imported from a file
        let sandbox = try Sandbox()
        let file = sandbox.path("history.jsonl")
        try ExportRecord.jsonl(Fixtures.standard).write(to: URL(fileURLWithPath: file))
        let first = try await sandbox.run("import", file)
        let before = try await sandbox.run("export")

        // When the same file is imported again
        let second = try await sandbox.run("import", file)
        let after = try await sandbox.run("export")

        // Then it reports every fetch as already present and adds nothing
        #expect(first.standardOutput == "imported 10 fetches: 10 added, 0 already present\n", "\(first)")
        #expect(second.status == 0, "\(second)")
        #expect(second.standardOutput == "nothing to import: all 10 fetches are already present\n", "\(second)")
        #expect(after.standardOutputData == before.standardOutputData)
    }

    @Test func importReadsStandardInputForADash() async throws {
        // Given an export record stream on standard input
        let sandbox = try Sandbox()

        // When imported from -
        let result = try await sandbox.run("import", "-", stdin: ExportRecord.jsonl(Fixtures.standard))

        // Then the records are in the history
        #expect(result.status == 0, "\(result)")
        #expect(try await sandbox.exportedRecords() == ExportRecord.oldestFirst(Fixtures.standard.map(Fixtures.asRead)))
    }

    @Test(arguments: ["json", "jsonl"])
    func aByteOrderMarkBeforeTheRecordsIsPassedOver(format: String) async throws {
        // Given an export saved by an editor that starts UTF-8 text with a byte order mark
        let sandbox = try Sandbox()
        try await sandbox.importRecords(Fixtures.standard)
        let export = try await sandbox.succeed("export", "--format", format).standardOutputData
        let file = sandbox.path("marked.\(format)")
        try (Data([0xEF, 0xBB, 0xBF]) + export).write(to: URL(fileURLWithPath: file))

        // When imported into an empty history
        let copy = sandbox.path("copy.sqlite")
        let imported = try await sandbox.run("import", "--database", copy, file)

        // Then every record is read, and exported again it is the export before the mark
        #expect(imported.status == 0 && imported.standardOutput.contains("\(Fixtures.standard.count) added"), "\(imported)")
        #expect(try await sandbox.succeed("export", "--database", copy, "--format", format).standardOutputData == export)
    }

    @Test func importOfAMissingFileFailsWithoutCreatingTheDatabase() async throws {
        // Given no database and no input file
        let sandbox = try Sandbox()

        // When a missing file is imported
        let result = try await sandbox.run("import", sandbox.path("absent.jsonl"))

        // Then it exits 1 naming the file, and creates no database
        #expect(result.status == 1, "\(result)")
        #expect(result.standardError.hasPrefix("error:") && result.standardError.contains("absent.jsonl"), "\(result)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.database))
    }

    @Test func aMalformedImportIntoANewDatabaseLeavesNoDatabaseBehind() async throws {
        // Given no database and a file whose first record lacks its id
        let sandbox = try Sandbox()
        let file = sandbox.path("bad.jsonl")
        try Data(#"{"session":"x"}"#.utf8).write(to: URL(fileURLWithPath: file))

        // When it is imported
        let result = try await sandbox.run("import", file)

        // Then nothing is imported and no empty database is left to confuse later reads
        #expect(result.status == 1, "\(result)")
        for suffix in ["", "-wal", "-shm"] {
            #expect(!FileManager.default.fileExists(atPath: sandbox.database + suffix), "\(suffix)")
        }
    }

    /// A malformed import file: two good new records, then the problem.
    struct Malformed: CustomTestStringConvertible, Sendable {
        var name: String
        var contents: String
        /// Fragments the message must contain.
        var mentions: [String]
        var testDescription: String { name }
    }

    static let good = [
        ExportRecord.make("succeeded", id: Ids.fetch(201), at: Fixtures.day0 + 1_000),
        ExportRecord.make("failed", id: Ids.fetch(202), at: Fixtures.day0 + 2_000),
    ]
    static let third = ExportRecord.make("succeeded", id: Ids.fetch(203), at: Fixtures.day0 + 3_000)
    static let goodLines = good.map { $0.jsonLine + "\n" }.joined()

    static let malformedFiles: [Malformed] = [
        Malformed(
            name: "JSON lines cut off inside the third record",
            contents: goodLines + String(third.jsonLine.prefix(60)),
            mentions: ["line 3"]
        ),
        Malformed(
            name: "JSON array cut off inside the third record",
            contents: "[\n" + good.map(\.jsonLine).joined(separator: ",\n") + ",\n" + String(third.jsonLine.prefix(60)),
            mentions: ["line 4"]
        ),
        Malformed(
            name: "a field of the wrong type",
            contents: goodLines + third.jsonLine.replacingOccurrences(of: "\"source\":\"random\"", with: "\"source\":42") + "\n",
            mentions: ["record 3", "line 3", "source"]
        ),
        Malformed(
            name: "a required field missing",
            contents: goodLines + third.jsonLine.replacingOccurrences(of: "\"source\":\"random\",", with: "") + "\n",
            mentions: ["record 3", "line 3", "source"]
        ),
        Malformed(
            name: "an id used twice in the file",
            contents: goodLines + good[0].jsonLine.replacingOccurrences(of: "\"value\":42", with: "\"value\":43") + "\n",
            mentions: ["record 3", "line 3", Ids.fetch(201), "record 1"]
        ),
        Malformed(
            name: "a value for a failed fetch",
            contents: goodLines + ExportRecord.make("failed", id: Ids.fetch(203), at: 0).jsonLine.replacingOccurrences(of: "\"value\":null", with: "\"value\":5") + "\n",
            mentions: ["record 3", "value"]
        ),
        Malformed(
            name: "a time that is not ISO 8601",
            contents: goodLines + third.jsonLine.replacingOccurrences(of: "2026-11-20T10:00:03.000Z", with: "yesterday") + "\n",
            mentions: ["record 3", "startedAt"]
        ),
        Malformed(
            name: "an unknown outcome",
            contents: goodLines + third.jsonLine.replacingOccurrences(of: "\"succeeded\"", with: "\"exploded\"") + "\n",
            mentions: ["record 3", "outcome"]
        ),
    ]

    @Test(arguments: malformedFiles)
    func aMalformedImportChangesNothingAndNamesWhere(_ malformed: Malformed) async throws {
        // Given a history of three fetches, and a file with two good new records before a bad one
        let sandbox = try Sandbox()
        try await sandbox.importRecords(Array(Fixtures.standard.prefix(3)))
        let before = try await sandbox.run("export", "--format", "jsonl")
        let file = sandbox.path("bad.jsonl")
        try Data(malformed.contents.utf8).write(to: URL(fileURLWithPath: file))

        // When the file is imported
        let result = try await sandbox.run("import", file)

        // Then it exits 1, the message names the file and the place, and the history is unchanged
        #expect(result.status == 1, "\(result)")
        #expect(result.standardError.hasPrefix("error:"), "\(result)")
        #expect(result.standardError.contains("bad.jsonl"), "\(result)")
        for mention in malformed.mentions {
            #expect(result.standardError.contains(mention), "\(mention) in \(result)")
        }
        let after = try await sandbox.run("export", "--format", "jsonl")
        #expect(after.standardOutputData == before.standardOutputData)
        #expect(after.lines.count == 3)
    }

    @Test func exportToAFileWritesWhatStandardOutputWouldWithNoTemporaryLeftOver() async throws {
        // Given the standard history
        let sandbox = try Sandbox()
        try await sandbox.importRecords(Fixtures.standard)
        let folder = sandbox.path("out")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)

        // When exported to a file, in each format
        let json = try await sandbox.run("export", "--output", folder + "/history.json")
        let jsonl = try await sandbox.run("export", "-o", folder + "/history.jsonl", "--format", "jsonl")
        let stdout = try await sandbox.run("export")

        // Then each file holds the export, with ordinary permissions, and nothing else is in the folder
        #expect(json.status == 0 && json.standardOutput.isEmpty, "\(json)")
        #expect(jsonl.status == 0 && jsonl.standardOutput.isEmpty, "\(jsonl)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/history.json")) == stdout.standardOutputData)
        let lines = try String(contentsOfFile: folder + "/history.jsonl", encoding: .utf8)
        #expect(lines.hasSuffix("\n"))
        let records = try lines.split(separator: "\n").map { try ExportRecord(jsonLine: String($0)) }
        #expect(records == ExportRecord.oldestFirst(Fixtures.standard.map(Fixtures.asRead)))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["history.json", "history.jsonl"])
        #expect(try permissions(folder + "/history.json") == 0o666 & ~currentUmask())
    }

    @Test func exportToAMissingFolderFailsAndCreatesNothing() async throws {
        // Given the standard history
        let sandbox = try Sandbox()
        try await sandbox.importRecords(Fixtures.standard)
        let output = sandbox.path("missing/history.json")

        // When exported into a folder that does not exist
        let result = try await sandbox.run("export", "--output", output)

        // Then it exits 1 naming the file, and neither the file nor the folder exists
        #expect(result.status == 1, "\(result)")
        #expect(result.standardError.hasPrefix("error:") && result.standardError.contains(output), "\(result)")
        #expect(!FileManager.default.fileExists(atPath: output))
        #expect(!FileManager.default.fileExists(atPath: sandbox.path("missing")))
    }

    @Test func aFailedExportLeavesTheExistingFileUntouchedAndNoTemporaryFile() async throws {
        // Given the standard history and an earlier export in a folder
        let sandbox = try Sandbox()
        try await sandbox.importRecords(Fixtures.standard)
        let folder = sandbox.path("out")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        let output = folder + "/history.json"
        try Data("earlier export\n".utf8).write(to: URL(fileURLWithPath: output))
        try FileManager.default.createDirectory(atPath: folder + "/a-folder", withIntermediateDirectories: false)

        // When an export fails before writing (unknown session), and one fails at the rename (the target is a folder)
        let badFilter = try await sandbox.run("export", "--session", "0123", "--output", output)
        let ontoFolder = try await sandbox.run("export", "--output", folder + "/a-folder")

        // Then both exit 1, the earlier export is as it was, and no temporary file is left
        #expect(badFilter.status == 1, "\(badFilter)")
        #expect(ontoFolder.status == 1, "\(ontoFolder)")
        #expect(ontoFolder.standardError.hasPrefix("error:"), "\(ontoFolder)")
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "earlier export\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["a-folder", "history.json"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder + "/a-folder").isEmpty)
    }

    @Test func exportIntoAPipeClosedAfterTheFirstLineEndsQuietly() async throws {
        // Given a history far bigger than a pipe's buffer
        let sandbox = try Sandbox()
        try await sandbox.importRecords(Fixtures.succeeded(3_000))

        // When its export is read one line and the pipe closed, like `export | head -1`
        let child = try await sandbox.start("export", "--format", "jsonl", standardOutput: .manual)
        let firstLine = await readFirstLineAndClose(try #require(child.standardOutputHandle))
        let result = try await child.wait()

        // Then the line is the first record, and the export ends with no error
        #expect(try ExportRecord(jsonLine: firstLine).id == Ids.fetch(1000))
        #expect(!result.wasSignalled, "\(result)")
        #expect(result.status == 0, "\(result)")
        #expect(!result.standardError.lowercased().contains("error"), "\(result)")
        #expect(result.standardError.isEmpty, "\(result)")
    }

    @Test func aWriteErrorOnStandardOutputIsAnErrorNotAReaderThatLeft() async throws {
        // Given the standard history
        let sandbox = try Sandbox()
        try await sandbox.importRecords(Fixtures.standard)

        // When exported to /dev/full, where every write fails for lack of space
        let result = try await sandbox.run(
            ["-c", "exec '\(FetchHistoryProcess.binary.path)' export > /dev/full"], executable: URL(fileURLWithPath: "/bin/sh")
        )

        // Then it fails in one sentence naming standard output and the reason
        #expect(result.status == 1 && !result.wasSignalled, "\(result)")
        #expect(result.standardError == "error: cannot write standard output: No space left on device\n", "\(result)")
    }

    @Test func exportStreamsSoItsMemoryDoesNotGrowWithTheHistory() async throws {
        // Given 20,000 fetches: about 9 MB exported
        let sandbox = try Sandbox()
        try await sandbox.importRecords(Fixtures.succeeded(20_000))

        // When its first 1,000 fetches, then all of them, are exported into a pipe nobody reads
        let firstThousand = ["export", "--format", "jsonl", "--until", ISO.format(Fixtures.day0 + 1_000 * 60_000)]
        let small = try await Self.peakMemoryOnceBlockedWriting(sandbox, firstThousand)
        let whole = try await Self.peakMemoryOnceBlockedWriting(sandbox, ["export", "--format", "jsonl"])

        // Then, each stopped by the full pipe, the whole export has used no more memory than the small one
        // (within 4 MB): it holds a buffer's worth of records, never the history
        #expect(whole < small + 4_096, "peak \(whole) kB for 20,000 fetches, \(small) kB for 1,000")
    }

    /// Starts `arguments` with standard output a pipe the test does not read, waits until the
    /// child sleeps in a write to it (the pipe is full: everything it printed so far is
    /// there), and returns its peak resident memory (VmHWM) then, in kB. Then it closes the
    /// pipe, which ends the export quietly.
    static func peakMemoryOnceBlockedWriting(
        _ sandbox: Sandbox, _ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> Int {
        let child = try await FetchHistoryProcess.start(
            arguments: arguments, environment: sandbox.environment(), workingDirectory: sandbox.root, standardOutput: .manual
        )
        let output = try #require(child.standardOutputHandle, sourceLocation: sourceLocation)
        let deadline = ContinuousClock.now + .seconds(30)
        var peak: Int?
        while peak == nil, child.isRunning, ContinuousClock.now < deadline {
            peak = ProcProbe.peakResidentKilobytesIfBlockedWritingToAPipe(child.pid)
            // No pause: each look is a few reads of /proc, and the child's progress is what is awaited.
            await Task.yield()
        }
        try output.close()
        let result = try await child.wait()
        #expect(result.status == 0 && !result.wasSignalled && result.standardError.isEmpty, "\(result)", sourceLocation: sourceLocation)
        return try #require(peak, "\(arguments) never waited in a write to its pipe: \(result)", sourceLocation: sourceLocation)
    }
}

/// What /proc says about a child process.
enum ProcProbe {
    /// VmHWM in kB, if the process's main thread is asleep in a write to a pipe
    /// (its wchan, or failing that the write system call in /proc/PID/syscall); nil otherwise.
    static func peakResidentKilobytesIfBlockedWritingToAPipe(_ pid: Int32) -> Int? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let afterName = stat.range(of: ") ", options: .backwards),
              stat[afterName.upperBound...].first == "S"
        else { return nil }
        let wchan = (try? String(contentsOfFile: "/proc/\(pid)/wchan", encoding: .utf8)) ?? ""
        let syscall = (try? String(contentsOfFile: "/proc/\(pid)/syscall", encoding: .utf8)) ?? ""
        guard wchan.contains("pipe_write") || syscall.hasPrefix("\(writeSystemCall) 0x1 ") else { return nil }
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
        else { return nil }
        return Int(line.dropFirst("VmHWM:".count).trimmingCharacters(in: .whitespaces).split(separator: " ").first ?? "")
    }

    #if arch(x86_64)
    private static let writeSystemCall = 1
    #else
    private static let writeSystemCall = 64  // aarch64's generic table
    #endif
}
