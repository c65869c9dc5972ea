import Foundation
import Testing

/// A failed answer's body (`body`, `contentType`, `truncated`) crosses
/// a team history both ways, and a team history of the schema before it
/// is upgraded by the first push.
@Suite("team history: the answer a server gave", .serialized)
struct TeamHistoryAnswerBodyTests {
    /// A failed fetch's export record keeping its answer's body, as `fetch` records it.
    static func recordWithBody(_ number: Int, truncated: Bool) -> String {
        let record = ExportRecord.make(
            "failed", id: Ids.fetch(number), at: 1_700_000_000_000 + Int64(number) * 1000, error: "HTTP 503",
            status: 503, bytes: 4096, host: "ci-1"
        )
        let body = #""body":"{\"error\":\"busy\",\"token\":\"***\"}\n\tline 2","contentType":"application/json","truncated":\#(truncated)"#
        return String(record.jsonLine.dropLast()) + "," + body + "}"
    }

    @Test func pushAndPullKeepTheBodyAndAnOlderTeamHistoryIsUpgradedFirst() async throws {
        // Given a team history made by the schemas before the body's, as the release before it made it
        let team = try await TeamFixture()
        let older = TeamHistoryConnectionTests.serverMigrations.dropLast()
        #expect(older.count >= 2)
        for (index, file) in older.enumerated() {
            try await team.server.psql(try String(contentsOf: file, encoding: .utf8), database: team.database)
            let name = file.deletingPathExtension().lastPathComponent
            try await team.server.psql(
                "INSERT INTO fetch_history.migration (version, name) VALUES (\(index + 1), '\(name)')", database: team.database
            )
        }
        // and a local history holding failed answers' bodies, one cut short, beside fetches without one
        let lines = [Self.recordWithBody(9001, truncated: false), Self.recordWithBody(9002, truncated: true)]
            + TeamFixture.records.map(\.jsonLine)
        let file = team.sandbox.path("bodies.jsonl")
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: file))
        let local = team.sandbox.path("local.sqlite")
        try await team.succeed(["import", "-d", local, file])

        // When it is pushed, and pulled into a new file
        try await team.succeed(["push", "-d", local, "--to", team.url])
        let pulled = team.sandbox.path("pulled.sqlite")
        try await team.succeed(["pull", "-d", pulled, "--from", team.url])

        // Then the push brought the schema up to date
        let versions = try await team.server.psql(
            "SELECT string_agg(version::text, ',' ORDER BY version) FROM fetch_history.migration", database: team.database
        )
        #expect(versions == (1...TeamHistoryConnectionTests.serverMigrations.count).map(String.init).joined(separator: ","))
        // and the server and the pulled file hold what the file holds, byte for byte, bodies included
        let onFile = try await team.succeed(["export", "-d", local, "--format", "jsonl"])
        let onServer = try await team.succeed(["export", "-d", team.url, "--format", "jsonl"])
        let onPulled = try await team.succeed(["export", "-d", pulled, "--format", "jsonl"])
        #expect(onServer.standardOutput == onFile.standardOutput)
        #expect(onPulled.standardOutput == onFile.standardOutput)
        #expect(onFile.lines.filter { $0.contains(#""contentType":"application/json","truncated":"#) }.count == 2, "\(onFile)")
        #expect(onFile.standardOutput.contains(#"\n\tline 2","contentType":"application/json","truncated":true}"#), "\(onFile)")
    }
}
