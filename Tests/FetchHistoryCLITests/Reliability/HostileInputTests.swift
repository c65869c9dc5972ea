import Foundation
import LoopbackServers
import Testing

extension ReliabilityTests {
    @Suite("Hostile text in options and imported records is only ever data")
    struct HostileInput {
        static let longValue = String(repeating: "A", count: 100_000)

        /// SQL fragments, LIKE and GLOB wildcards, quotes, a 100,000-character
        /// string, terminal escapes and lookalikes: none is an id, an outcome,
        /// a time or a source of the history.
        static let values: [String] = [
            "' OR 1=1 --", "%", "_", "'", "\"", "\\", "random' OR '1'='1", "x\"; DROP TABLE fetch; --", "*", "5e55%",
            "0000%", longValue, "\u{1B}]0;title\u{07}", "ran\u{0301}dom",
        ]

        /// Every text option, and what an exit 0 must print: nothing matched.
        static let commands: [(name: String, arguments: @Sendable (String) -> [String])] = [
            ("list --source", { ["list", "--limit", "0", "--format", "jsonl", "--source", $0] }),
            ("stats --source", { ["stats", "--format", "json", "--source", $0] }),
            ("export --source", { ["export", "--format", "jsonl", "--source", $0] }),
            ("list --session", { ["list", "--limit", "0", "--format", "jsonl", "--session", $0] }),
            ("export --session", { ["export", "--format", "jsonl", "--session", $0] }),
            ("list --outcome", { ["list", "--limit", "0", "--format", "jsonl", "--outcome", $0] }),
            ("export --outcome", { ["export", "--format", "jsonl", "--outcome", $0] }),
            ("show ID", { ["show", $0] }),
            ("replay SESSION", { ["replay", $0] }),
            ("list --since", { ["list", "--limit", "0", "--format", "jsonl", "--since", $0] }),
            ("list --until", { ["list", "--limit", "0", "--format", "jsonl", "--until", $0] }),
            ("stats --since", { ["stats", "--format", "json", "--since", $0] }),
            ("export --until", { ["export", "--format", "jsonl", "--until", $0] }),
            ("fetch --source", { ["fetch", "--latency", "0", "--source", $0] }),
        ]

        @Test func sqlFragmentsAndOddStringsInEveryOptionMatchNothingAndChangeNothing() async throws {
            // Given the standard history
            let sandbox = try Sandbox()
            try await sandbox.importRecords(Fixtures.standard)
            let bytesBefore = FileSnapshot(sandbox.database).bytes
            let exportBefore = try await sandbox.run("export", "--format", "jsonl")

            // When every hostile value goes through every text option
            let runs = Self.commands.flatMap { command in Self.values.map { (command.name, command.arguments($0), $0) } }
            let results = try await boundedMap(runs, width: 2) { name, arguments, value in
                (name, value, try await sandbox.run(arguments))
            }

            // Then each exits 0 with nothing matched, or 1/64 with an `error:` message; none returns a fetch
            var statuses: [Int32: Int] = [:], longestMessage = 0, returnedRecords = 0
            for (name, value, result) in results {
                let context = "\(name) \(value.count > 40 ? "<\(value.count) characters>" : value.debugDescription)"
                statuses[result.status, default: 0] += 1
                longestMessage = max(longestMessage, result.standardError.count)
                #expect(!result.wasSignalled && [0, 1, 64].contains(result.status), "\(context): \(result)")
                if result.status == 0 {
                    if name.hasPrefix("stats") {
                        let total = (try? JSONSerialization.jsonObject(with: result.standardOutputData) as? [String: Any])?["total"] as? Int
                        #expect(total == 0, "\(context): \(result)")
                        returnedRecords += total ?? 1
                    } else {
                        #expect(result.lines.isEmpty, "\(context): \(result)")
                        returnedRecords += result.lines.count
                    }
                    #expect(!name.hasPrefix("show") && !name.hasPrefix("replay") && !name.hasPrefix("fetch"), "\(context): \(result)")
                } else {
                    #expect(result.standardError.hasPrefix("error: "), "\(context): \(result)")
                    #expect(result.standardOutput.isEmpty, "\(context): \(result)")
                }
                if name.hasPrefix("fetch") { #expect(result.status == 64, "\(context): \(result)") }
            }

            // and the history is byte for byte as it was
            let exportAfter = try await sandbox.run("export", "--format", "jsonl")
            #expect(exportAfter.standardOutputData == exportBefore.standardOutputData)
            #expect(FileSnapshot(sandbox.database).bytes == bytesBefore, "the database file changed")
            Reliability.summary(
                "hostile options: \(Self.values.count) values × \(Self.commands.count) options = \(results.count) runs: "
                    + statuses.sorted { $0.key < $1.key }.map { "\($0.value)× exit \($0.key)" }.joined(separator: ", ")
                    + "; \(returnedRecords) fetches returned, export and file unchanged, longest error message \(longestMessage) characters"
            )
        }

        /// Strings that would break naive SQL, C strings or LIKE patterns,
        /// imported as sources and error messages: each is stored and
        /// exported exactly, and a filter matches it only exactly.
        @Test func hostileStringsImportedAreStoredExactlyAndMatchedOnlyExactly() async throws {
            let sandbox = try Sandbox()
            let strings = [
                "' OR 1=1 --", "%", "_", "a\u{0}b", "a", "x'); DROP TABLE fetch; --", "\"quoted\" \\ back\\slash", "ran\u{0301}dom",
                "🚀 مرحبا \u{202E}txet", "line\nbreak\ttab\r", String(repeating: "é", count: 50_000),
            ]
            let records = strings.enumerated().map { index, text in
                ExportRecord.make("failed", id: Ids.fetch(500 + index), source: text, at: Fixtures.day0 + Int64(index) * 1000, error: text)
            }
            try await sandbox.importRecords(records)

            // Then the export gives back every string exactly
            let exported = try await sandbox.exportedRecords()
            #expect(exported.map(\.source) == strings)
            #expect(exported.map(\.error) == strings.map { Optional($0) })
            let integrity = await SQLiteProbe.integrityCheck(sandbox.database)
            #expect(integrity == "ok")

            // and each string, as a --source filter, finds exactly its own fetch (no pattern, no truncation at NUL)
            // (argv cannot hold a NUL: "a\0b" is proved apart by "a" finding only its own fetch)
            var exact = 0
            for (index, text) in strings.enumerated() where !text.contains("\u{0}") {
                let ids = try await sandbox.listedIDs(["--source", text])
                if ids == [Ids.fetch(500 + index)] { exact += 1 }
                #expect(ids == [Ids.fetch(500 + index)], "--source \(text.prefix(40).debugDescription)")
            }
            let stats = try await sandbox.run("stats", "--format", "json", "--source", "%")
            #expect(stats.standardOutput.hasPrefix("{\"total\":1,"), "\(stats)")
            Reliability.summary(
                "hostile import strings: \(strings.count) sources/errors (SQL, wildcards, NUL, quotes, RTL, 50k chars) stored exactly, "
                    + "\(exact)/\(strings.count - 1) (all but the NUL one, which argv cannot carry) matched only by themselves, integrity \(integrity)"
            )
        }

        /// Text the history holds came from outside (a server's answer, an
        /// imported file). Printed as text for a terminal, its control
        /// characters must not reach the terminal raw: an ESC can retitle
        /// the window, clear the screen or rewrite what was printed before.
        @Test func controlCharactersFromTheSourceNeverReachTheTerminalRaw() async throws {
            let sandbox = try Sandbox()
            let hostile = "\u{1B}]0;owned\u{07}\u{1B}[2J\u{1B}[31mfake\rOK"
            let server = try LocalHTTPServer { _ in .answer(status: 200, body: Data(hostile.utf8)) }
            defer { server.stop() }

            // When a server answers with escape sequences, and an imported record holds some
            let fetched = try await sandbox.run("fetch", "--source", server.url("/n"))
            #expect(fetched.status == 1, "\(fetched)")
            try await sandbox.importRecords([
                .make("failed", id: Ids.fetch(1), source: "random\u{1B}[8m", at: Fixtures.day0, error: "bad\u{1B}[2Jnews\u{07}"),
            ])
            let list = try await sandbox.run("list")
            let fetchedID = try #require(try await sandbox.listedIDs(["--outcome", "failed"]).first { $0 != Ids.fetch(1) })
            let showServer = try await sandbox.run("show", fetchedID)
            let showImported = try await sandbox.run("show", Ids.fetch(1))
            let json = try await sandbox.run("export", "--format", "jsonl")

            // Then JSON escapes them, and the text outputs hold none raw
            func raw(_ text: String) -> [String] {
                text.unicodeScalars.filter { $0.value < 0x20 && $0 != "\n" && $0 != "\t" || $0.value == 0x7F }
                    .map { String(format: "U+%04X", $0.value) }
            }
            #expect(raw(json.standardOutput).isEmpty && json.standardOutput.contains("\\u001b"), "\(json)")
            let outputs = [("fetch", fetched), ("list", list), ("show (server's error)", showServer), ("show (imported)", showImported)]
            let leaking = outputs.filter { !raw($0.1.standardOutput).isEmpty }.map(\.0)
            for (name, result) in outputs {
                #expect(raw(result.standardOutput).isEmpty, "\(name) prints \(raw(result.standardOutput)) raw: \(result.standardOutput.debugDescription)")
            }
            Reliability.summary(
                "terminal escapes: JSON escapes them; raw control characters reach the terminal through \(leaking.isEmpty ? "nothing" : leaking.joined(separator: ", "))"
            )
        }
    }
}
