import Foundation
import Testing

extension ReliabilityTests {
    /// Another user of the machine reads a history as its owner does, and
    /// leaves nothing beside it: docs/commands.md, "Reading a history you do not own".
    @Suite("A history shared read-only can be read by others, who leave nothing behind", .enabled(if: OtherUser.mustRun, OtherUser.skipReason))
    struct SharedHistories {
        /// Every reading command, with what it prints compared as it is
        /// (`report` writes a page with the time it was made: its summary
        /// line is compared instead).
        static func readers(report: String) -> [[String]] {
            [
                ["list", "--limit", "0", "--format", "jsonl"], ["show", Ids.fetch(9)], ["stats", "--format", "json"],
                ["sessions", "--format", "jsonl"], ["export", "--format", "jsonl"], ["prune", "--keep", "1", "--dry-run"],
                ["list", "--source", "numbers.example", "--format", "tsv"], ["report", "-o", report],
            ]
        }

        /// The standard history, imported by root and made readable by all (0644), in `folder`.
        static func history(in sandbox: Sandbox, folder: String) async throws -> String {
            let path = folder + "/history.sqlite"
            let input = sandbox.path("standard.jsonl")
            try ExportRecord.jsonl(Fixtures.standard).write(to: URL(fileURLWithPath: input))
            let imported = try await sandbox.run("import", "-d", path, input)
            #expect(imported.status == 0, "\(imported)")
            chmod(path, 0o644)
            return path
        }

        /// What a reader's run printed, with the path of its report taken out.
        static func printed(_ result: CLIResult, report: String) -> String {
            result.standardOutput + result.standardError.replacingOccurrences(of: report, with: "REPORT")
        }

        /// A folder anyone may write a report into.
        static func reports(in sandbox: Sandbox) throws -> String {
            let folder = sandbox.path("reports")
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            chmod(folder, 0o1777)
            return folder
        }

        @Test func everyReaderOfAHistoryInAFolderItCannotWriteGetsTheOwnersAnswerAndMakesNothing() async throws {
            // Given root's history, 0644, in a folder only root may write (0755)
            let sandbox = try Sandbox()
            let folder = sandbox.path("owned")
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            chmod(folder, 0o755)
            let path = try await Self.history(in: sandbox, folder: folder)
            let reports = try Self.reports(in: sandbox)
            let before = try sandbox.entries(of: folder)

            // When another user runs every reading command on it, then the owner does
            var others: [CLIResult] = []
            for command in Self.readers(report: reports + "/nobody.html") {
                others.append(try await sandbox.run(as: OtherUser.reader, command + ["-d", path]))
            }
            let afterOthers = try sandbox.entries(of: folder)
            var owners: [CLIResult] = []
            for command in Self.readers(report: reports + "/root.html") {
                owners.append(try await sandbox.run(command + ["-d", path]))
            }

            // Then each of the other user's runs succeeds with the owner's very output, and left nothing in the folder
            for (other, owner) in zip(others, owners) {
                #expect(other.status == 0, "\(other)")
                #expect(Self.printed(other, report: reports + "/nobody.html") == Self.printed(owner, report: reports + "/root.html"), "\(other)\n\(owner)")
            }
            #expect(others.count == Self.readers(report: "").count)
            #expect(afterOthers == before)
        }

        @Test func aReaderInAFolderBothMayWriteLeavesNothingThatStopsTheOwnersNextWrite() async throws {
            // Given a history owned by a user who is not root, 0644, in a folder everyone may write (as /tmp)
            let sandbox = try Sandbox()
            let folder = sandbox.path("shared")
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            chmod(folder, 0o1777)
            let path = folder + "/history.sqlite"
            let first = sandbox.path("first.jsonl"), second = sandbox.path("second.jsonl")
            try ExportRecord.jsonl(Array(Fixtures.standard.prefix(5))).write(to: URL(fileURLWithPath: first))
            try ExportRecord.jsonl(Array(Fixtures.standard.suffix(5))).write(to: URL(fileURLWithPath: second))
            let imported = try await sandbox.run(as: OtherUser.owner, ["import", "-d", path, first])
            #expect(imported.status == 0, "\(imported)")
            chmod(path, 0o644)

            // When another user lists it, then the owner writes to it
            let listed = try await sandbox.run(as: OtherUser.reader, ["list", "-d", path, "--limit", "0", "--format", "jsonl"])
            let left = try sandbox.entries(of: folder)
            let written = try await sandbox.run(as: OtherUser.owner, ["import", "-d", path, second])

            // Then the reader saw the five fetches and left no file of its own, and the owner's write went in
            #expect(listed.status == 0 && listed.lines.count == 5, "\(listed)")
            let owner = try OtherUser.id(OtherUser.owner).uid
            #expect(left == ["history.sqlite uid \(owner)"], "\(left)")
            #expect(written.status == 0 && written.standardOutput.contains("5 added"), "\(written)")
        }

        @Test func anotherUserReadsThroughTheOwnersFilesWhileTheyAreThereAndAddsNone() async throws {
            // Given a history that the owner has open: its -wal and -shm beside it (a read of the owner's leaves them)
            let sandbox = try Sandbox()
            let folder = sandbox.path("shared")
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            chmod(folder, 0o1777)
            let path = try await Self.history(in: sandbox, folder: folder)
            let owners = try await sandbox.run("list", "-d", path, "--limit", "0", "--format", "jsonl")
            let before = try sandbox.entries(of: folder)
            try #require(before.contains { $0.hasPrefix("history.sqlite-wal ") } && before.contains { $0.hasPrefix("history.sqlite-shm ") }, "\(before)")

            // When another user lists it
            let others = try await sandbox.run(as: OtherUser.reader, ["list", "-d", path, "--limit", "0", "--format", "jsonl"])

            // Then it reads what the owner reads, through the owner's files, and the folder is as it was
            #expect(others.status == 0 && others.standardOutput == owners.standardOutput, "\(others)")
            #expect(try sandbox.entries(of: folder) == before)
        }

        @Test func theOwnerReadsItsHistoryInAFolderItMadeReadOnly() async throws {
            // Given a user's history in a folder of theirs they made read-only (0555), 0444
            let sandbox = try Sandbox()
            let folder = sandbox.path("frozen")
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let owner = try OtherUser.id(OtherUser.owner)
            chown(folder, owner.uid, owner.gid)
            let input = sandbox.path("standard.jsonl")
            try ExportRecord.jsonl(Fixtures.standard).write(to: URL(fileURLWithPath: input))
            let path = folder + "/history.sqlite"
            let imported = try await sandbox.run(as: OtherUser.owner, ["import", "-d", path, input])
            #expect(imported.status == 0, "\(imported)")
            chmod(path, 0o444)
            chmod(folder, 0o555)

            // When the owner lists it and counts it
            let listed = try await sandbox.run(as: OtherUser.owner, ["list", "-d", path, "--limit", "0", "--format", "jsonl"])
            let stats = try await sandbox.run(as: OtherUser.owner, ["stats", "-d", path, "--format", "json"])

            // Then both work, and nothing was added to the folder
            #expect(listed.status == 0 && listed.lines.count == Fixtures.standard.count, "\(listed)")
            #expect(stats.status == 0 && stats.standardOutput.contains("\"total\":\(Fixtures.standard.count)"), "\(stats)")
            #expect(try sandbox.entries(of: folder) == ["history.sqlite uid \(owner.uid)"])
        }

        @Test func aReadThatCannotBeDoneSaysSoInASentenceAboutReading() async throws {
            // Given a history whose owner has it open with -wal and -shm only the owner may read (0600),
            // the history itself readable by all
            let sandbox = try Sandbox()
            let folder = sandbox.path("private")
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let path = try await Self.history(in: sandbox, folder: folder)
            chmod(path, 0o600)
            let owners = try await sandbox.run("list", "-d", path)
            #expect(owners.status == 0, "\(owners)")
            chmod(path, 0o644)
            let before = try sandbox.entries(of: folder)

            // When another user lists it
            let result = try await sandbox.run(as: OtherUser.reader, ["list", "-d", path])

            // Then it fails in one sentence about reading, and nothing changed
            #expect(result.status == 1, "\(result)")
            #expect(result.standardError.hasPrefix("error: \(path) cannot be read: "), "\(result)")
            #expect(!result.standardError.contains("recorded"), "\(result)")
            #expect(result.standardError.split(separator: "\n").count == 1, "\(result)")
            #expect(try sandbox.entries(of: folder) == before)
        }
    
        @Test func anotherUsersFollowerSeesTheOwnersNewFetches() async throws {
            // Given root's history, 0644, in a folder only root may write, followed by another user
            let sandbox = try Sandbox()
            let folder = sandbox.path("owned")
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            chmod(folder, 0o755)
            let path = try await Self.history(in: sandbox, folder: folder)
            let follower = try await sandbox.start(as: OtherUser.reader, ["list", "--follow", "-d", path, "--format", "jsonl", "--limit", "1"])
            #expect(await follower.waitForPrintedLines(1), "the follower did not print the history")
            let program = try await OtherUser.program(startedBy: follower)

            // When the owner adds a fetch while the follower is stopped, so that the owner's -wal and -shm
            // come and go unseen, and then another while it runs
            kill(program, SIGSTOP)
            for (number, at) in [(41, Fixtures.day0 + 9 * Fixtures.day), (42, Fixtures.day0 + 10 * Fixtures.day)] {
                let file = sandbox.path("more-\(number).jsonl")
                try ExportRecord.jsonl([.make("succeeded", id: Ids.fetch(number), session: Ids.session(9), at: at)]).write(to: URL(fileURLWithPath: file))
                let imported = try await sandbox.run("import", "-d", path, file)
                #expect(imported.status == 0, "\(imported)")
                if number == 41 {
                    #expect(try sandbox.entries(of: folder) == ["history.sqlite uid 0"])
                    // runuser stops itself when its program stops: both go on.
                    kill(program, SIGCONT)
                    kill(follower.pid, SIGCONT)
                    #expect(await follower.waitForPrintedLines(2), "the follower did not print the fetch added while it was stopped")
                }
            }
            let printed = await follower.waitForPrintedLines(3)
            kill(program, SIGTERM)
            let result = try await follower.wait()

            // Then the follower printed both as they were added: the first from the file it reads, changed
            #expect(printed, "\(result)")
            #expect(try result.lines.dropFirst().map { try ExportRecord(jsonLine: $0).id } == [Ids.fetch(41), Ids.fetch(42)], "\(result)")
        }
    }
}
