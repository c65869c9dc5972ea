import Foundation
import Testing

@Suite("sessions lists the runs that recorded fetches, with how they went")
struct SessionsCommandTests {
    @Test func outcomeListsTheSessionsWithAFetchOfIt() async throws {
        // Given a fetch running in a live process beside the standard history
        let sandbox = try Sandbox()
        let live = try await sandbox.start("fetch", "--latency", "1d")
        let running = try await sandbox.waitForFetch(of: live)
        try await sandbox.importRecords(Fixtures.standard)

        // When sessions are listed by the outcomes of their fetches
        func sessions(_ outcomes: String) async throws -> [String] {
            let result = try await sandbox.run("sessions", "--limit", "0", "--format", "jsonl", "--outcome", outcomes)
            #expect(result.status == 0, "\(result)")
            return try result.lines.map(ReadOnlyCommandTests.id(ofJSONLine:))
        }
        let failed = try await sessions("failed")
        let runningOnes = try await sessions("running")
        let interrupted = try await sessions("interrupted")
        live.send(SIGTERM)
        _ = try await live.wait()

        // Then each lists the sessions holding such a fetch, newest first: the live one for running,
        // the imported one whose recorder is gone for interrupted
        #expect(failed == [Ids.session(3), Ids.session(1)])
        #expect(runningOnes == [running.session])
        #expect(interrupted == [Ids.session(2)])
    }

    @Test func sessionsAreListedNewestFirstWithTheirCountsPerOutcome() async throws {
        // Given the standard history: three imported sessions
        let sandbox = try Sandbox()
        try await sandbox.importRecords(Fixtures.standard)

        // When the sessions are listed as a table
        let result = try await sandbox.run("sessions")

        // Then each shows its id prefix, start, fetches, source, recorder host and outcomes
        #expect(result.status == 0, "\(result)")
        #expect(result.lines == [
            "SESSION   STARTED              FETCHES  SOURCE                       HOST  OUTCOMES",
            "5e550003  2026-11-22 10:00:00        3  https://numbers.example/api  -     2 succeeded, 1 failed",
            "5e550002  2026-11-21 09:00:00        4  random                       -     1 cancelled, 1 timed-out, 2 interrupted",
            "5e550001  2026-11-20 10:00:00        3  random                       -     1 succeeded, 1 failed, 1 cancelled",
        ], "\(result)")
    }

    @Test func theNewestTwentySessionsAreListedByDefaultAndLimitZeroListsAll() async throws {
        // Given 25 sessions of one fetch each, a minute apart
        let sandbox = try Sandbox()
        let records = (1...25).map { number in
            ExportRecord.make("succeeded", id: Ids.fetch(number), session: Ids.session(number), at: Fixtures.day0 + Int64(number) * 60_000)
        }
        try await sandbox.importRecords(records.shuffled())

        // When the sessions are listed with no limit given, and with --limit 0
        let byDefault = try await sandbox.run("sessions", "--format", "jsonl")
        let all = try await sandbox.run("sessions", "--format", "jsonl", "--limit", "0")

        // Then the default is the newest 20, newest first, and 0 is every one of them
        func ids(_ result: CLIResult) throws -> [String] {
            try result.lines.map { line in
                let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(result)")
                return try #require(object["id"] as? String, "\(result)")
            }
        }
        #expect(byDefault.status == 0 && all.status == 0, "\(byDefault)\n\(all)")
        #expect(try ids(byDefault) == (6...25).reversed().map(Ids.session), "\(byDefault)")
        #expect(try ids(all) == (1...25).reversed().map(Ids.session), "\(all)")
    }

    @Test func tsvHasTheFullIDsAndACountPerOutcomeWithOrWithoutItsHeader() async throws {
        // Given the standard history
        let sandbox = try Sandbox()
        try await sandbox.importRecords(Fixtures.standard)

        // When the newest two sessions are asked for as TSV, with and without the header, and the table without it
        let tsv = try await sandbox.succeed("sessions", "--limit", "2", "--format", "tsv")
        let bare = try await sandbox.succeed("sessions", "--limit", "2", "--format", "tsv", "--no-header")
        let table = try await sandbox.succeed("sessions", "--limit", "1", "--no-header")

        // Then the columns are named once, each row is the session's full id, start, source, host and counts
        #expect(tsv.lines == [
            "id\tstartedAt\tsource\thost\tfetches\tsucceeded\tfailed\tcancelled\ttimed-out\tinterrupted\trunning",
            "\(Ids.session(3))\t2026-11-22T10:00:00.000Z\thttps://numbers.example/api\t\t3\t2\t1\t0\t0\t0\t0",
            "\(Ids.session(2))\t2026-11-21T09:00:00.000Z\trandom\t\t4\t0\t0\t1\t1\t2\t0",
        ], "\(tsv)")
        #expect(bare.lines == Array(tsv.lines.dropFirst()))
        #expect(table.lines == ["5e550003  2026-11-22 10:00:00  3  https://numbers.example/api  -  2 succeeded, 1 failed"], "\(table)")
    }

    @Test(arguments: [
        (["sessions", "--limit", "-1"], "--limit must be 0 or more, not -1"),
        (["sessions", "--format", "json", "--no-header"], "--no-header applies to --format table, tsv and csv only"),
    ])
    func aRefusedOptionSaysWhy(_ arguments: [String], _ expected: String) async throws {
        let sandbox = try Sandbox()
        let result = try await sandbox.run(arguments)
        #expect(result.status == 64 && result.standardError.hasPrefix("error: ") && result.standardError.contains(expected), "\(result)")
    }

    @Test func jsonCarriesEveryCountAndTheFullIDsThatOtherCommandsTake() async throws {
        // Given the standard history
        let sandbox = try Sandbox()
        try await sandbox.importRecords(Fixtures.standard)

        // When the newest two sessions are asked for as JSON and as JSON lines
        let json = try await sandbox.run("sessions", "--limit", "2", "--format", "json")
        let jsonl = try await sandbox.run("sessions", "--limit", "2", "--format", "jsonl")

        // Then both hold the same two objects, every status counted
        let array = try #require(try JSONSerialization.jsonObject(with: json.standardOutputData) as? [[String: Any]], "\(json)")
        let lines = try jsonl.lines.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(array.count == 2 && lines.count == 2, "\(json)\n\(jsonl)")
        #expect(array.map { $0["id"] as? String } == [Ids.session(3), Ids.session(2)])
        #expect(lines.map { $0["id"] as? String } == [Ids.session(3), Ids.session(2)])
        let counts = try #require(array[1]["counts"] as? [String: Int])
        #expect(counts == ["succeeded": 0, "failed": 0, "cancelled": 1, "timed-out": 1, "interrupted": 2, "running": 0])
        #expect(array[1]["fetches"] as? Int == 4 && array[1]["startedAt"] as? String == "2026-11-21T09:00:00.000Z")

        // and the id is what --session and replay take
        let listed = try await sandbox.listedIDs(["--session", try #require(array[1]["id"] as? String)])
        #expect(listed == (4...7).reversed().map(Ids.fetch))
    }

    @Test func aSessionWithAFetchInFlightShowsItRunning() async throws {
        // Given a fetch in flight in a live process
        let sandbox = try Sandbox()
        let live = try await sandbox.start("fetch", "--latency", "1d")
        let running = try await sandbox.waitForFetch(of: live)

        // When the sessions are listed
        let result = try await sandbox.run("sessions", "--format", "jsonl")

        // Then its session counts one running fetch, recorded on this host
        live.send(SIGKILL)
        _ = try await live.wait()
        let object = try #require(try JSONSerialization.jsonObject(with: Data((result.lines.first ?? "").utf8)) as? [String: Any], "\(result)")
        #expect(object["id"] as? String == running.session)
        #expect((object["counts"] as? [String: Int])?["running"] == 1, "\(result)")
        #expect((object["processId"] as? Int ?? 0) == Int(live.pid))
        let host = thisHostName()
        #expect(!host.isEmpty && object["host"] as? String == host, "\(result)")

        // and once its process is gone, interrupted, the table naming the host in its column
        let after = try await sandbox.run("sessions")
        try #require(after.lines.count == 2, "\(after)")
        #expect(after.lines[1].hasSuffix("1 interrupted"), "\(after)")
        let header = after.lines[0]
        let hostColumn = header.distance(from: header.startIndex, to: try #require(header.range(of: "  HOST  ")).lowerBound) + 2
        let outcomesColumn = header.distance(from: header.startIndex, to: try #require(header.range(of: "OUTCOMES")).lowerBound)
        let row = Array(after.lines[1])
        try #require(row.count > outcomesColumn, "\(after)")
        #expect(String(row[hostColumn..<outcomesColumn]) == host.padding(toLength: outcomesColumn - hostColumn, withPad: " ", startingAt: 0), "\(after)")
    }

    @Test func anEmptyHistoryHasNoSessionsAndABadLimitIsAUsageError() async throws {
        // Given an empty history
        let sandbox = try Sandbox()
        try await sandbox.succeed("import", "-", stdin: Data())

        // When sessions are listed, and with a negative limit
        let table = try await sandbox.run("sessions")
        let json = try await sandbox.run("sessions", "--format", "json")
        let negative = try await sandbox.run("sessions", "--limit=-1")

        // Then the table says so on stderr, JSON is an empty array, and -1 is refused
        #expect(table.status == 0 && table.standardOutput.isEmpty && table.standardError == "no sessions recorded\n", "\(table)")
        #expect(json.status == 0 && json.standardOutput == "[]\n", "\(json)")
        #expect(negative.status == 64 && negative.standardError.hasPrefix("error: --limit must be 0"), "\(negative)")
    }
}
