import FetchHistoryTesting
import Foundation
import Testing

extension ReliabilityTests {
    @Suite("Damaged and foreign files are refused clearly and left as they were")
    struct DamagedFiles {
        enum Damage: String, CaseIterable, Sendable, CustomTestStringConvertible {
            case text = "a text file"
            case truncated = "the first half of a real database"
            case corruptedPages = "a database whose pages after page 1 are garbage"
            case foreign = "another application's SQLite database"
            case newer = "a database of a newer fetch-history (user_version 99)"
            case directory = "a directory"
            case readOnlyFolder = "a new file in a folder without write permission (0555)"
            case readOnlyFile = "a read-only database file (0444)"

            var testDescription: String { rawValue }

            /// Words one of which the message must hold, by command.
            func problem(for command: String) -> [String] {
                switch self {
                case .text: ["not a SQLite database"]
                case .truncated, .corruptedPages: ["malformed", "damaged", "corrupt"]
                case .foreign: ["another application"]
                case .newer: ["newer fetch-history"]
                case .directory: ["is a directory"]
                case .readOnlyFolder: ["fetch", "import"].contains(command) ? ["folder is not writable"] : ["no history at"]
                case .readOnlyFile: ["read-only"]
                }
            }

            /// Whether `command` must refuse: reading a read-only file works.
            func refuses(_ command: String) -> Bool {
                self != .readOnlyFile || ["fetch", "import"].contains(command)
            }
        }

        static let commands: [(name: String, arguments: [String])] = [
            ("list", ["list", "--limit", "0"]), ("stats", ["stats"]), ("export", ["export"]),
            ("show", ["show", "00000000-0000-4000-8000-000000000000"]), ("fetch", ["fetch", "--latency", "0"]), ("import", ["import", "records.jsonl"]),
        ]

        @Test(arguments: Damage.allCases)
        func eachCommandRefusesWithOneSentenceAndLeavesTheFileAsItWas(_ damage: Damage) async throws {
            let sandbox = try Sandbox()
            var random = Reliability.random(for: "damage \(damage)")
            let path = try await Self.make(damage, in: sandbox, random: &random)
            try ExportRecord.jsonl(Array(Fixtures.standard.prefix(3))).write(to: URL(fileURLWithPath: sandbox.path("records.jsonl")))

            // Each command gets the damaged file as it was made, whatever the previous one did to it
            let pristine = FileManager.default.contents(atPath: path)
            var refused = 0, unchanged = 0, leftovers: [String] = []
            for (name, arguments) in Self.commands {
                if let pristine {
                    for suffix in ["-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: path + suffix) }
                    try pristine.write(to: URL(fileURLWithPath: path))
                }
                let before = FileSnapshot(path)
                let folderBefore = Self.folderListing(path)
                let result = try await sandbox.run(arguments + ["--database", path])
                let after = FileSnapshot(path)
                let context = "\(name) on \(damage.rawValue)"

                if damage.refuses(name) {
                    // Then it exits 1 with one line, `error: `, naming the file and the problem
                    let message = result.standardError
                    let lines = message.split(separator: "\n", omittingEmptySubsequences: false)
                    let clear = result.status == 1 && !result.wasSignalled && lines.count == 2 && lines[1].isEmpty
                        && message.hasPrefix("error: ") && message.contains(path)
                        && damage.problem(for: name).contains { message.contains($0) }
                    if clear { refused += 1 }
                    #expect(result.status == 1 && !result.wasSignalled, "\(context): \(result)")
                    #expect(lines.count == 2 && lines[1].isEmpty, "\(context): not one line: \(result)")
                    #expect(message.hasPrefix("error: "), "\(context): \(result)")
                    #expect(message.contains(path), "\(context): the message does not name the file: \(result)")
                    #expect(damage.problem(for: name).contains { message.contains($0) }, "\(context): the problem is not named: \(result)")
                    #expect(result.standardOutput.isEmpty, "\(context): \(result)")
                } else if name == "show" {
                    // It read the file: no fetch has that id
                    #expect(result.status == 1 && result.standardError.contains("no fetch has an id"), "\(context): \(result)")
                } else {
                    #expect(result.status == 0, "\(context): \(result)")
                }

                // and the file's bytes are as they were, with no journal holding data next to it
                if after.bytes == before.bytes { unchanged += 1 }
                #expect(after.bytes == before.bytes, "\(context): the file changed: \(before) → \(after)")
                #expect(after.companionsWithData.isEmpty, "\(context): \(after)")
                #expect(Self.folderListing(path).subtracting(folderBefore).subtracting(["\(Self.name(path))-wal", "\(Self.name(path))-shm"]).isEmpty,
                        "\(context): new files: \(Self.folderListing(path).subtracting(folderBefore))")
                let newCompanions = Set(after.companions.keys).subtracting(before.companions.keys)
                if !newCompanions.isEmpty { leftovers.append("\(name) left empty \(newCompanions.sorted().joined(separator: ","))") }
            }
            let expectedRefusals = Self.commands.filter { damage.refuses($0.name) }.count
            Reliability.summary(
                "damaged files: \(damage.rawValue): \(refused)/\(expectedRefusals) commands refused with one clear `error:` line, "
                    + "file unchanged after \(unchanged)/\(Self.commands.count)"
                    + (leftovers.isEmpty ? "" : " (\(leftovers.joined(separator: "; ")))")
            )
        }

        // MARK: Making the damaged files

        static func make(_ damage: Damage, in sandbox: Sandbox, random: inout SplitMix64) async throws -> String {
            let path = sandbox.path("damaged.sqlite")
            switch damage {
            case .text:
                try Data(String(repeating: "this is a shopping list, not a database\n", count: 100).utf8)
                    .write(to: URL(fileURLWithPath: path))
            case .truncated:
                let real = try await realDatabase(in: sandbox)
                try real.prefix(real.count / 2).write(to: URL(fileURLWithPath: path))
            case .corruptedPages:
                var real = try await realDatabase(in: sandbox)
                let sizeField = Int(real[16]) << 8 | Int(real[17])
                let pageSize = sizeField == 1 ? 65_536 : sizeField
                let pages = real.count / pageSize
                try #require(pages >= 5, "the real database has \(pages) pages")
                // Every page after the schema's is garbage, and its first byte is no B-tree page type
                // (2, 5, 10 or 13), so whichever page a command reads first, SQLite finds it corrupt. (Sparing
                // a random tenth of the pages let `show` find its pages intact and succeed, with some seeds.)
                for page in 1..<pages {
                    for offset in page * pageSize..<(page + 1) * pageSize { real[offset] = UInt8.random(in: 0...255, using: &random) }
                    real[page * pageSize] = 0
                }
                try real.write(to: URL(fileURLWithPath: path))
            case .foreign:
                // A notes app's database in SQLite's default rollback-journal mode: user_version 0, tables present.
                try await SQLiteProbe.execute(path, [
                    "PRAGMA journal_mode = DELETE",
                    "CREATE TABLE note (id INTEGER PRIMARY KEY, body TEXT NOT NULL)",
                    "CREATE TABLE tag (note_id INTEGER REFERENCES note (id), name TEXT)",
                    "INSERT INTO note (body) VALUES ('buy milk'), ('call Ann')",
                ])
                let header = try #require(FileManager.default.contents(atPath: path))
                try #require(header.count > 100 && header[18] == 1 && header[19] == 1, "the fixture is not in rollback-journal mode")
                try #require(try await SQLiteProbe.integer(path, "PRAGMA user_version") == 0)
            case .newer:
                try await realDatabase(in: sandbox).write(to: URL(fileURLWithPath: path))
                try await SQLiteProbe.execute(path, ["PRAGMA user_version = 99"])
                try #require(try await SQLiteProbe.integer(path, "PRAGMA user_version") == 99)
            case .directory:
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
            case .readOnlyFolder:
                let folder = sandbox.path("read-only-folder")
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o555])
                return folder + "/history.sqlite"
            case .readOnlyFile:
                try await realDatabase(in: sandbox).write(to: URL(fileURLWithPath: path))
                try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: path)
            }
            // Reading the fixture back (user_version) leaves an empty -wal and -shm: not part of the damage
            for suffix in ["-wal", "-shm"] where FileSnapshot(path).companions[suffix] != nil {
                try #require(FileSnapshot(path).companionsWithData.isEmpty, "the fixture has a journal: \(FileSnapshot(path))")
                try FileManager.default.removeItem(atPath: path + suffix)
            }
            return path
        }

        /// The bytes of a real history with 20 fetches, its WAL checkpointed.
        static func realDatabase(in sandbox: Sandbox) async throws -> Data {
            let path = sandbox.path("real.sqlite")
            try await sandbox.succeed("fetch", "--count", "20", "--latency", "0", "--interval", "0", "--database", path)
            try #require(FileSnapshot(path).companions.isEmpty, "the real database was left with companions")
            return try #require(FileManager.default.contents(atPath: path))
        }

        static func name(_ path: String) -> String { (path as NSString).lastPathComponent }

        static func folderListing(_ path: String) -> Set<String> {
            Set((try? FileManager.default.contentsOfDirectory(atPath: (path as NSString).deletingLastPathComponent)) ?? [])
        }
    }
}
