import Foundation
import Testing

@Suite("show prints one fetch by id or unique prefix")
struct ShowCommandTests {
    /// Two fetches whose ids share the prefix `abcd`, and one more.
    private static let records = [
        ExportRecord.make(
            "cancelled", id: "abcd1111-0000-4000-8000-000000000001", session: Ids.session(7),
            at: ISO.ms("2026-11-22T10:00:00") + 250, duration: 1_002
        ),
        ExportRecord.make("succeeded", id: "abcd2222-0000-4000-8000-000000000002", session: Ids.session(7), at: ISO.ms("2026-11-22T10:01:00"), value: 99),
        ExportRecord.make("failed", id: "ffff0000-0000-4000-8000-000000000003", session: Ids.session(8), at: ISO.ms("2026-11-22T10:02:00"), error: "no route"),
    ]

    private func sandbox() async throws -> Sandbox {
        let sandbox = try Sandbox()
        try await sandbox.importRecords(Self.records)
        return sandbox
    }

    /// `key  value` lines, keyed by what comes before the first two spaces.
    private func fields(_ text: String) -> [String: String] {
        var fields: [String: String] = [:]
        for line in text.split(separator: "\n") {
            guard let gap = line.range(of: "  ") else { continue }
            fields[String(line[..<gap.lowerBound])] = line[gap.upperBound...].trimmingCharacters(in: .whitespaces)
        }
        return fields
    }

    @Test(arguments: ["abcd1111-0000-4000-8000-000000000001", "abcd1", "ABCD1111"])
    func showTextFindsTheFetchByFullIdOrUniquePrefix(id: String) async throws {
        // Given two fetches whose ids start with abcd
        let sandbox = try await sandbox()

        // When shown by its full id, a unique prefix, or an upper-case prefix
        let result = try await sandbox.run("show", id)

        // Then every field of that fetch is printed
        #expect(result.status == 0, "\(result)")
        let fields = fields(result.standardOutput)
        #expect(fields["id"] == "abcd1111-0000-4000-8000-000000000001", "\(result)")
        #expect(fields["outcome"] == "cancelled (user)", "\(result)")
        #expect(fields["value"] == "-" && fields["error"] == "-", "\(result)")
        #expect(fields["source"] == "random", "\(result)")
        #expect(fields["started"] == "2026-11-22 10:00:00 (2026-11-22T10:00:00.250Z)", "\(result)")
        #expect(fields["ended"] == "2026-11-22 10:00:01 (2026-11-22T10:00:01.252Z)", "\(result)")
        #expect(fields["duration"] == "1.002s", "\(result)")
        #expect(fields["http status"] == "-" && fields["response bytes"] == "-", "\(result)")
        #expect(fields["session"] == Ids.session(7), "\(result)")
        #expect(fields["session recorder"] == "imported", "\(result)")
    }

    @Test(arguments: ["ffff0000-0000-4000-8000-000000000003", "ff"])
    func showJSONPrintsTheFetchRecordAndItsSession(id: String) async throws {
        // Given three fetches
        let sandbox = try await sandbox()

        // When shown as JSON by full id or prefix
        let result = try await sandbox.run("show", id, "--format", "json")

        // Then one object holds the export record and its session
        #expect(result.status == 0, "\(result)")
        let object = try #require(try JSONSerialization.jsonObject(with: result.standardOutputData) as? [String: Any], "\(result)")
        let fetch = try ExportRecord(object: try #require(object["fetch"] as? [String: Any]))
        #expect(fetch == Self.records[2])
        let session = try #require(object["session"] as? [String: Any], "\(result)")
        #expect(session["id"] as? String == Ids.session(8))
        #expect(session["source"] as? String == "random")
        #expect((session["processId"] as? NSNumber)?.intValue == 0, "an imported session has no recorder")
    }

    @Test func showOfAFetchRecordedHereNamesItsProcess() async throws {
        // Given a fetch recorded by this machine's CLI
        let sandbox = try Sandbox()
        let fetched = try await sandbox.run("fetch", "--latency", "0", "--format", "jsonl")
        let record = try ExportRecord(jsonLine: try #require(fetched.lines.first, "\(fetched)"))

        // When shown as JSON and as text
        let json = try await sandbox.run("show", record.id, "--format", "json")
        let text = try await sandbox.run("show", String(record.id.prefix(8)))

        // Then the session has this machine's name and a real process id, in JSON and in text
        let object = try #require(try JSONSerialization.jsonObject(with: json.standardOutputData) as? [String: Any], "\(json)")
        #expect(try ExportRecord(object: try #require(object["fetch"] as? [String: Any])) == record)
        let session = try #require(object["session"] as? [String: Any])
        #expect(session["id"] as? String == record.session)
        let host = thisHostName()
        #expect(!host.isEmpty && session["host"] as? String == host, "\(json)")
        let processID = (session["processId"] as? NSNumber)?.intValue ?? 0
        #expect(processID > 0, "\(json)")
        #expect(fields(text.standardOutput)["session recorder"] == "process \(processID) on \(host)", "\(text)")
    }

    @Test func sessionStartedIsWhenTheSessionBeganNotWhenTheFetchDid() async throws {
        // Given a session whose first fetch started at 10:00:00.250 and whose second at 10:01:00
        let sandbox = try await sandbox()

        // When the second fetch is shown
        let result = try await sandbox.run("show", "abcd2222")

        // Then it started at 10:01:00, and its session at 10:00:00.250
        #expect(result.status == 0, "\(result)")
        let fields = fields(result.standardOutput)
        #expect(fields["started"] == "2026-11-22 10:01:00 (2026-11-22T10:01:00.000Z)", "\(result)")
        #expect(fields["session started"] == "2026-11-22 10:00:00 (2026-11-22T10:00:00.250Z)", "\(result)")
    }

    @Test func anHTTPFetchShowsItsStatusAndItsBodysSize() async throws {
        // Given the standard history, whose fetch 8 was answered HTTP 200 with a body of 4 bytes
        let sandbox = try Sandbox()
        try await sandbox.importRecords(Fixtures.standard)

        // When it is shown
        let result = try await sandbox.run("show", Ids.fetch(8))

        // Then every field is on its own line, the status and the size under their own names
        #expect(result.status == 0, "\(result)")
        #expect(result.lines == [
            "id                \(Ids.fetch(8))",
            "outcome           succeeded",
            "value             100",
            "error             -",
            "source            https://numbers.example/api",
            "started           2026-11-22 10:00:00 (2026-11-22T10:00:00.000Z)",
            "ended             2026-11-22 10:00:00 (2026-11-22T10:00:00.950Z)",
            "duration          950ms",
            "http status       200",
            "response bytes    4",
            "session           \(Ids.session(3))",
            "session started   2026-11-22 10:00:00 (2026-11-22T10:00:00.000Z)",
            "session recorder  imported",
        ], "\(result)")
    }

    @Test func anAmbiguousPrefixExitsOneNamingTheCandidates() async throws {
        // Given two fetches whose ids start with abcd
        let sandbox = try await sandbox()

        // When shown by that shared prefix
        let result = try await sandbox.run("show", "abcd")

        // Then it exits 1 and says the prefix matches several fetches
        #expect(result.status == 1, "\(result)")
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError.hasPrefix("error:"), "\(result)")
        #expect(result.standardError.contains("several"), "\(result)")
        #expect(result.standardError.contains("abcd1111"), "\(result)")
    }

    @Test(arguments: ["0123", "abcd1111-0000-4000-8000-000000000009", "not-an-id"])
    func anUnknownIdExitsOne(id: String) async throws {
        // Given three fetches
        let sandbox = try await sandbox()

        // When shown by an id none has (or that is no id at all)
        let result = try await sandbox.run("show", id)

        // Then it exits 1 with a message naming it
        #expect(result.status == 1, "\(result)")
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError.hasPrefix("error:") && result.standardError.contains(id), "\(result)")
    }
}
