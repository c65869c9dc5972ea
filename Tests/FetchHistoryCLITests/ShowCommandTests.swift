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
        let fetched = try await sandbox.run("fetch", "--latency", "0", "--format", "json")
        let record = try ExportRecord(jsonLine: try #require(fetched.lines.first, "\(fetched)"))

        // When shown as JSON and as text
        let json = try await sandbox.run("show", record.id, "--format", "json")
        let text = try await sandbox.run("show", String(record.id.prefix(8)))

        // Then the session has the recorder's host and a real process id
        let object = try #require(try JSONSerialization.jsonObject(with: json.standardOutputData) as? [String: Any], "\(json)")
        #expect(try ExportRecord(object: try #require(object["fetch"] as? [String: Any])) == record)
        let session = try #require(object["session"] as? [String: Any])
        #expect(session["id"] as? String == record.session)
        #expect(((session["processId"] as? NSNumber)?.intValue ?? 0) > 0, "\(json)")
        #expect(fields(text.standardOutput)["session recorder"]?.hasPrefix("process ") == true, "\(text)")
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
