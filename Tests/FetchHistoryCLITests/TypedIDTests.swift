import Foundation
import Testing

/// Ids a person can type: 4 to 7 characters name the fetch (or session)
/// whose 8-character short id ends with them, newest first; full ids and
/// 8-character prefixes work as they always did; a session's id given to
/// `show` shows the session.
@Suite("ids you can type")
struct TypedIDTests {
    /// Two sessions; fetch ids whose short ids share their first four
    /// characters (time-ordered ids made minutes apart do), and two whose
    /// short ids end the same way.
    static func history() async throws -> Sandbox {
        let sandbox = try Sandbox()
        let records = [
            ExportRecord.make("succeeded", id: "1389150a-019a-8b21-9d2c-3b1f6a1e0a01", session: "13891500-019a-8b21-9d2c-3b1f6a1e0a00", at: Fixtures.day0, value: 1),
            ExportRecord.make("failed", id: "1389150f-019a-8b21-9d2c-3b1f6a1e0a02", session: "13891500-019a-8b21-9d2c-3b1f6a1e0a00", at: Fixtures.day0 + 1000),
            ExportRecord.make("succeeded", id: "13891535-019a-8b21-9d2c-3b1f6a1e0a03", session: "13891500-019a-8b21-9d2c-3b1f6a1e0a00", at: Fixtures.day0 + 2000, value: 3),
            ExportRecord.make("succeeded", id: "9f21150a-019a-8b21-9d2c-3b1f6a1e0a04", session: "9f211500-019a-8b21-9d2c-3b1f6a1e0a00", at: Fixtures.day0 + 9000, value: 4),
        ]
        try await sandbox.succeed("import", "-", stdin: Data(records.map { $0.jsonLine + "\n" }.joined().utf8))
        return sandbox
    }

    @Test(arguments: [("1535", "13891535"), ("150f", "1389150f"), ("89150f", "1389150f"), ("9150A", "1389150a")])
    func theEndOfAShortIDNamesItsFetch(_ typed: String, _ expected: String) async throws {
        // Given fetches whose short ids share their first characters
        let sandbox = try await Self.history()

        // When show is given the last characters of one short id
        let result = try await sandbox.run("show", typed, "--format", "json")

        // Then it shows that fetch
        #expect(result.status == 0, "\(result)")
        #expect(result.standardOutput.contains("\"id\":\"\(expected)-"), "\(result)")
    }

    @Test func anEndSeveralShortIDsShareListsThemNewestFirst() async throws {
        // Given 1389150a and 9f21150a, both ending with 150a
        let sandbox = try await Self.history()

        // When show is given 150a
        let result = try await sandbox.run("show", "150a")

        // Then it names both and asks for more, changing nothing
        #expect(result.status == 1, "\(result)")
        #expect(result.standardError == "error: '150a' matches several fetches (9f21150a, 1389150a…); give more of the id\n", "\(result)")
    }

    @Test func fullIDsAndEightCharacterPrefixesWorkAsBefore() async throws {
        // Given the history
        let sandbox = try await Self.history()

        // When show is given a full id, an 8-character prefix, and 3 characters
        let full = try await sandbox.run("show", "1389150f-019a-8b21-9d2c-3b1f6a1e0a02", "--format", "json")
        let eight = try await sandbox.run("show", "13891535", "--format", "json")
        let three = try await sandbox.run("show", "9f2", "--format", "json")

        // Then each names its fetch by the start of its id
        #expect(full.standardOutput.contains("\"id\":\"1389150f-"), "\(full)")
        #expect(eight.standardOutput.contains("\"id\":\"13891535-"), "\(eight)")
        #expect(three.standardOutput.contains("\"id\":\"9f21150a-"), "\(three)")
    }

    @Test func aStartThatEndsNoShortIDIsStillAPrefix() async throws {
        // Given the history: no short id ends with 1389
        let sandbox = try await Self.history()

        // When show is given 13891 (the start of three ids, the end of none)
        let result = try await sandbox.run("show", "13891")

        // Then it is read as a prefix, which several ids have
        #expect(result.status == 1 && result.standardError.contains("'13891' matches several fetches"), "\(result)")
    }

    @Test func showOfASessionSaysItIsOneAndListsItsFetches() async throws {
        // Given a session of three fetches
        let sandbox = try await Self.history()

        // When show is given the session's short id, and the end of it
        let whole = try await sandbox.run("show", "13891500")
        let end = try await sandbox.run("show", "91500", "--format", "json")

        // Then it says it is a session and lists its three fetches, newest first
        #expect(whole.status == 0, "\(whole)")
        #expect(whole.lines.first?.hasPrefix("13891500-019a-8b21-9d2c-3b1f6a1e0a00 is a session (random, started ") == true, "\(whole)")
        #expect(whole.lines.first?.hasSuffix("not a fetch; its 3 fetches:") == true, "\(whole)")
        #expect(whole.lines.dropFirst(2).map { String($0.prefix(8)) } == ["13891535", "1389150f", "1389150a"], "\(whole)")
        let object = try JSONSerialization.jsonObject(with: Data(end.standardOutput.utf8)) as? [String: Any]
        #expect((object?["fetches"] as? [Any])?.count == 3, "\(end)")
    }

    @Test func sessionsAndDeletionTakeTheEndOfAShortIDToo() async throws {
        // Given the history
        let sandbox = try await Self.history()

        // When a session is chosen by the end of its short id, and a fetch deleted by the end of its own
        let listed = try await sandbox.run("list", "--session", "91500", "--format", "jsonl")
        let deleted = try await sandbox.run("delete", "1535")

        // Then the session's three fetches are listed, and only 13891535 is deleted
        #expect(listed.lines.count == 3, "\(listed)")
        #expect(deleted.status == 0, "\(deleted)")
        let left = try await sandbox.exportedRecords().map { String($0.id.prefix(8)) }
        #expect(left == ["1389150a", "1389150f", "9f21150a"], "\(left)")
    }

    @Test func aSessionEndSeveralShareIsRefusedNamingThem() async throws {
        // Given sessions 13891500 and 9f211500
        let sandbox = try await Self.history()

        // When show and list are given 1500, which ends both
        let shown = try await sandbox.run("show", "1500")
        let listed = try await sandbox.run("list", "--session", "1500")

        // Then both say it names several sessions
        for result in [shown, listed] {
            #expect(result.status == 1, "\(result)")
            #expect(result.standardError == "error: '1500' matches several sessions (9f211500, 13891500…); give more of the id\n", "\(result)")
        }
    }

    @Test func onAColourTerminalTheCharactersEveryIDSharesAreDimmed() async throws {
        // Given fetches whose short ids share 138915
        let sandbox = try await Self.history()

        // When listed in colour, the 9f21150a fetch left out
        let result = try await sandbox.run("list", "--color", "always", "--session", "13891500")

        // Then each row's id starts with the shared characters dimmed, the rest plain
        #expect(result.lines.dropFirst().allSatisfy { $0.hasPrefix("\u{1B}[2m138915\u{1B}[0m") }, "\(result.standardOutput.debugDescription)")
    }
}
