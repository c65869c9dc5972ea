import Foundation
import Testing

/// A URL's user info and secret parameters never reach the history
/// (recording hides them as `***`); filters still find such sources by their
/// host and prefix, and `import` hides them as recording does.
@Suite("Sources with hidden secrets: found by filters, hidden by import")
struct RedactedSourceTests {
    static let hidden = "http://***:***@127.0.0.1:8080/n"

    /// Three fetches whose URLs had credentials (as recorded: hidden), one
    /// without, on the same port, and one elsewhere.
    static let records: [ExportRecord] = [
        .make("succeeded", id: Ids.fetch(1), session: Ids.session(1), source: hidden, at: Fixtures.day0),
        .make("failed", id: Ids.fetch(2), session: Ids.session(1), source: hidden, at: Fixtures.day0 + 1_000),
        .make("succeeded", id: Ids.fetch(3), session: Ids.session(2), source: "https://***@127.0.0.1:8080/m?token=***", at: Fixtures.day0 + 2_000),
        .make("succeeded", id: Ids.fetch(4), session: Ids.session(3), source: "http://127.0.0.1:8080/plain", at: Fixtures.day0 + 3_000),
        .make("succeeded", id: Ids.fetch(5), session: Ids.session(4), source: "http://127.0.0.1:9090/n", at: Fixtures.day0 + 4_000),
    ]

    @Test(arguments: [
        (["--source", "127.0.0.1:8080"], [4, 3, 2, 1]),
        (["--source", "127.0.0.1"], [5, 4, 3, 2, 1]),
        (["--source", "http://127.0.0.1:8080/"], [4, 2, 1]),
        (["--source", "http://127.0.0.1:8080/n"], [2, 1]),
        (["--source", "https://127.0.0.1:8080/m"], [3]),
        (["--source", "http://bob:pw@127.0.0.1:8080/n"], [2, 1]),
        (["--source", hidden], [2, 1]),
        (["--source", "http://127.0.0.1:9090/"], [5]),
    ])
    func listFindsASourceWhateverUserInfoItsURLHad(_ filter: [String], _ expected: [Int]) async throws {
        // Given fetches whose URLs had user info, hidden when recorded, and fetches whose URLs had none
        let sandbox = try Sandbox()
        try await sandbox.importRecords(Self.records)

        // When list filters by a host, a host and port, or a URL prefix without user info
        let listed = try await sandbox.listedIDs(filter)

        // Then the fetches whose hidden user info is all that differs are found too
        #expect(listed == expected.map(Ids.fetch), "\(filter)")
    }

    @Test func statsSessionsAndTheReportFindThemToo() async throws {
        // Given the same history
        let sandbox = try Sandbox()
        try await sandbox.importRecords(Self.records)
        let report = sandbox.path("report.html")

        // When stats, sessions and report filter by the host and port
        let stats = try await sandbox.run("stats", "--source", "127.0.0.1:8080", "--format", "json")
        let sessions = try await sandbox.run("sessions", "--source", "127.0.0.1:8080", "--format", "jsonl")
        let reported = try await sandbox.run("report", "--source", "127.0.0.1:8080", "-o", report)

        // Then each counts the four fetches of the three sessions on that port
        #expect(stats.status == 0 && stats.standardOutput.contains("\"total\":4"), "\(stats)")
        #expect(try sessions.lines.map(ReadOnlyCommandTests.id(ofJSONLine:)) == [Ids.session(3), Ids.session(2), Ids.session(1)], "\(sessions)")
        #expect(reported.status == 0 && reported.standardError.hasSuffix(": 4 fetches\n"), "\(reported)")
    }

    @Test func importHidesSecretsAsRecordingDoesAndSaysHowManySources() async throws {
        // Given an export (from elsewhere) whose sources carry a password, a token after `;`, and a key
        let sandbox = try Sandbox()
        let records: [ExportRecord] = [
            .make("succeeded", id: Ids.fetch(1), session: Ids.session(1), source: "https://bob:pw@h.example/?token=abc&page=2", at: Fixtures.day0),
            .make("succeeded", id: Ids.fetch(2), session: Ids.session(1), source: "https://bob:pw@h.example/?token=abc&page=2", at: Fixtures.day0 + 1),
            .make("failed", id: Ids.fetch(3), session: Ids.session(2), source: "http://u@h.example/x?a=1;sig=zz", at: Fixtures.day0 + 2),
            .make("succeeded", id: Ids.fetch(4), session: Ids.session(3), source: "https://h.example/n?API_KEY=k1#frag", at: Fixtures.day0 + 3),
            .make("succeeded", id: Ids.fetch(5), session: Ids.session(4), source: "https://h.example/@bob?page=1", at: Fixtures.day0 + 4),
            .make("succeeded", id: Ids.fetch(6), session: Ids.session(5), source: "random", at: Fixtures.day0 + 5),
        ]
        let file = sandbox.path("secrets.jsonl")
        try ExportRecord.jsonl(records).write(to: URL(fileURLWithPath: file))

        // When it is imported, then the history exported and the sessions listed
        let imported = try await sandbox.run("import", file)
        let exported = try await sandbox.exportedRecords()
        let sessions = try await sandbox.run("sessions", "--format", "json")

        // Then every secret is hidden as recording hides it (the rest of each source byte for byte),
        // in the fetches and in their sessions, and the import said how many sources it changed
        #expect(imported.status == 0, "\(imported)")
        #expect(imported.standardError == "import: 3 sources had secrets removed\n", "\(imported)")
        #expect(exported.map(\.source) == [
            "https://***:***@h.example/?token=***&page=2", "https://***:***@h.example/?token=***&page=2",
            "http://***@h.example/x?a=1;sig=***", "https://h.example/n?API_KEY=***#frag", "https://h.example/@bob?page=1", "random",
        ])
        for secret in ["pw", "abc", "zz", "k1", "bob:"] {
            #expect(!sessions.standardOutput.contains(secret), "\(secret) in \(sessions)")
        }
    }

    @Test func anExportWithoutSecretsImportsSilentlyAndComesBackByteForByte() async throws {
        // Given a history whose sources had their secrets hidden, exported
        let sandbox = try Sandbox()
        try await sandbox.importRecords(Self.records)
        let export = try await sandbox.run("export", "--format", "jsonl")
        let file = sandbox.path("export.jsonl")
        try export.standardOutputData.write(to: URL(fileURLWithPath: file))

        // When the export is imported into a new history and exported again
        let other = sandbox.path("other.sqlite")
        let imported = try await sandbox.run("import", "-d", other, file)
        let again = try await sandbox.run("export", "-d", other, "--format", "jsonl")

        // Then nothing was changed or said, and the bytes are the same
        #expect(imported.status == 0 && imported.standardError.isEmpty, "\(imported)")
        #expect(again.standardOutputData == export.standardOutputData)
    }

    @Test func aRecordWhoseFieldsDisagreeIsRefusedByItsLineAndNothingIsImported() async throws {
        // Given a history, and an export whose third record failed yet says the source answered
        let sandbox = try Sandbox()
        try await sandbox.importRecords(Array(Fixtures.standard.prefix(3)))
        let before = try Data(contentsOf: URL(fileURLWithPath: sandbox.database))
        let good = Fixtures.succeeded(2).map(\.jsonLine)
        let contradicting = #"{"id":"\#(Ids.fetch(77))","session":"\#(Ids.session(7))","source":"random","outcome":"failed","cancelReason":null,"value":null,"error":"HTTP 503","startedAt":"2025-11-24T23:00:00.044Z","endedAt":"2025-11-24T23:00:00.090Z","durationMs":46,"status":503,"bytes":19,"tappedAt":"2025-11-24T23:00:00.044Z","timeoutMs":1000,"endedBy":"answer","endedByAt":"2025-11-24T23:00:00.090Z","answerValue":null,"answerError":"HTTP 503","host":"probe-1"}"#
        let file = sandbox.path("contradicting.jsonl")
        try (good + [contradicting]).joined(separator: "\n").write(toFile: file, atomically: true, encoding: .utf8)

        // When it is imported
        let result = try await sandbox.run("import", file)

        // Then it is refused naming the line and the two fields that disagree, and the history is as it was
        #expect(result.status == 1, "\(result)")
        #expect(result.standardError == "error: \(file): record 3 (line 3, column 1): 'outcome' is failed but 'endedBy' is 'answer'; nothing was imported\n", "\(result)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: sandbox.database)) == before)
    }
}
