import Foundation
import Testing

@Suite("A team history on PostgreSQL filters as the file does", .enabled(if: TestPostgresServer.isAvailable, TestPostgresServer.skipReason))
struct TeamHistoryFilterTests {
    /// Eight fetches a minute apart in four sessions on three hosts, with
    /// HTTP statuses and durations to filter by; fetch n is `records[n - 1]`.
    static let records: [ExportRecord] = {
        let local = "http://127.0.0.1:8080/n"
        let rows: [(outcome: String, status: Int?, duration: Int64, session: Int, source: String, host: String)] = [
            ("succeeded", 200, 120, 1, local, "ci-1"),
            ("failed", 404, 80, 1, local, "ci-1"),
            ("failed", 503, 2_500, 2, Fixtures.otherSource, "ci-2"),
            ("timed-out", nil, 5_000, 2, Fixtures.otherSource, "ci-2"),
            ("succeeded", nil, 300, 3, "random", "probe-3"),
            ("interrupted", nil, 0, 3, "random", "probe-3"),
            ("cancelled", nil, 40, 4, "random", "ci-1"),
            ("failed", 429, 900, 4, "random", "ci-1"),
        ]
        return rows.enumerated().map { index, row in
            ExportRecord.make(
                row.outcome, id: Ids.fetch(index + 1), session: Ids.session(row.session), source: row.source,
                at: Fixtures.day0 + Int64(index) * 60_000, duration: row.duration, status: row.status,
                bytes: row.status.map { _ in 3 }, host: row.host
            )
        }
    }()

    static let listings: [([String], [Int])] = [
        (["--outcome", "failed,timed-out"], [8, 4, 3, 2]),
        (["--outcome", "FAILED", "--outcome", "interrupted"], [8, 6, 3, 2]),
        (["--status", "4xx"], [8, 2]),
        (["--status", "5xx,200"], [3, 1]),
        (["--status", "404", "--status", "429"], [8, 2]),
        (["--min-duration", "300ms"], [8, 5, 4, 3]),
        (["--max-duration", "100ms"], [7, 2]),
        (["--min-duration", "100ms", "--max-duration", "1s", "--status", "2xx"], [1]),
        (["--offset", "2", "--limit", "3"], [6, 5, 4]),
        (["--offset", "1", "--outcome", "failed", "--grep", "source"], [3, 2]),
        (["--since", "2026-11-20T10:02:00Z", "--until", "2026-11-21", "--outcome", "succeeded,cancelled"], [7, 5]),
    ]

    @Test func sessionsWithAFetchOfAnOutcomeAreTheSameOnTheServerAsOnTheFile() async throws {
        // Given a local history pushed to an empty team history
        let team = try await TeamFixture()
        let local = try await team.localFile("sessions.sqlite", Self.records)
        try await team.succeed(["push", "-d", local, "--to", team.url])

        for (outcomes, expected) in [("failed", [4, 2, 1]), ("timed-out,interrupted", [3, 2]), ("running", [Int]())] {
            // When the sessions holding a fetch of those outcomes are listed from the file and the server
            let command = ["sessions", "--limit", "0", "--format", "jsonl", "--outcome", outcomes]
            let onFile = try await team.sandbox.run(command + ["-d", local])
            let onServer = try await team.sandbox.run(command + ["-d", team.url])

            // Then both list exactly those sessions, byte for byte alike
            #expect(try onFile.lines.map(ReadOnlyCommandTests.id(ofJSONLine:)) == expected.map(Ids.session), "\(outcomes): \(onFile)")
            #expect(onServer.status == 0 && onServer.standardOutput == onFile.standardOutput, "\(outcomes): \(onServer) vs \(onFile)")
        }
    }

    @Test func theNewFiltersListTheSameFetchesOnTheServerAsOnTheFile() async throws {
        // Given a local history pushed to an empty team history
        let team = try await TeamFixture()
        let local = try await team.localFile("filters.sqlite", Self.records)
        try await team.succeed(["push", "-d", local, "--to", team.url])

        for (filter, expected) in Self.listings {
            // When the file and the server are listed with each filter
            let command = ["list", "--limit", "0", "--format", "jsonl"] + filter
            let onFile = try await team.sandbox.run(command + ["-d", local])
            let onServer = try await team.sandbox.run(command + ["-d", team.url])

            // Then both list the fetches the filter selects, byte for byte alike
            #expect(try onFile.lines.map { try ExportRecord(jsonLine: $0).id } == expected.map(Ids.fetch), "\(filter): \(onFile)")
            #expect(onServer.status == 0 && onServer.standardOutput == onFile.standardOutput, "\(filter): \(onServer) vs \(onFile)")
        }
    }

    @Test func statsExportAndSessionsFilterTheSameOnTheServerAsOnTheFile() async throws {
        // Given a local history pushed to an empty team history
        let team = try await TeamFixture()
        let local = try await team.localFile("filters.sqlite", Self.records)
        try await team.succeed(["push", "-d", local, "--to", team.url])

        // When stats, export and sessions run with the new filters on the file and on the server
        let commands: [([String], Int)] = [
            (["stats", "--outcome", "failed,succeeded", "--format", "json"], 1),
            (["stats", "--status", "4xx,5xx", "--by", "host", "--format", "json"], 1),
            (["stats", "--min-duration", "100ms", "--max-duration", "1s", "--format", "json"], 1),
            (["stats", "--outcome", "succeeded,interrupted", "--grep", "random", "--format", "json"], 1),
            (["export", "--status", "4xx", "--min-duration", "500ms", "--format", "jsonl"], 1),
            (["sessions", "--host", "ci-*", "--format", "jsonl"], 3),
            (["sessions", "--source", "127.0.0.1", "--format", "jsonl"], 1),
            (["sessions", "--source", "random", "--host", "ci-*", "--format", "jsonl"], 1),
            (["sessions", "--since", "2026-11-20T10:02:00Z", "--until", "2026-11-20T10:05:00Z", "--format", "jsonl"], 2),
        ]
        for (command, lines) in commands {
            let onFile = try await team.sandbox.run(command + ["-d", local])
            let onServer = try await team.sandbox.run(command + ["-d", team.url])

            // Then both print the same bytes, and what the filter selects
            #expect(onFile.status == 0 && onFile.lines.count == lines, "\(command): \(onFile)")
            #expect(onServer.status == 0 && onServer.standardOutput == onFile.standardOutput, "\(command): \(onServer) vs \(onFile)")
        }
        let stats = try await team.sandbox.run("stats", "--status", "4xx,5xx", "--format", "json", "-d", team.url)
        let object = try #require(try JSONSerialization.jsonObject(with: stats.standardOutputData) as? [String: Any], "\(stats)")
        #expect(object["total"] as? Int == 3, "\(stats)")
        let sessions = try await team.sandbox.run("sessions", "--host", "ci-*", "--source", "127.0.0.1", "--format", "jsonl", "-d", team.url)
        #expect(sessions.lines.count == 1 && sessions.standardOutput.contains(Ids.session(1)), "\(sessions)")
    }
}
