import Foundation
import Testing

@Suite("Every fetch names its host: --host, export, and what a recording writes")
struct HostTests {
    private let hosts = ["ci-1", "ci-2", "probe-3", "ci-*x", "CI-1", "ci-?", "", "ci%_\\[1]"]

    /// One succeeded fetch on each of `hosts`, a second apart, fetch n on hosts[n - 1].
    private func history() async throws -> Sandbox {
        let sandbox = try Sandbox()
        try await sandbox.importRecords(hosts.enumerated().map { index, host in
            ExportRecord.make(
                "succeeded", id: Ids.fetch(index + 1), session: Ids.session(index + 1), at: Fixtures.day0 + Int64(index) * 1000,
                host: host.isEmpty ? nil : host
            )
        })
        return sandbox
    }

    @Test(arguments: [
        ("ci-*", [1, 2, 4, 6]),
        ("ci-1", [1]),
        ("*-3", [3]),
        ("*", [1, 2, 3, 4, 5, 6, 7, 8]),
        ("ci-?", [6]),
        ("ci-*x", [4]),
        ("*1", [1, 5]),
        ("ci%_\\[1]", [8]),
        ("ci%*", [8]),
        ("c", []),
    ])
    func aHostPatternHasOneWildcardAndEveryOtherCharacterIsLiteral(pattern: String, expected: [Int]) async throws {
        // Given fetches recorded on eight hosts, one with no name
        let sandbox = try await history()

        // When listed by --host
        let listed = try await sandbox.listedIDs(["--host", pattern])

        // Then * is any run of characters (none too), and ? [ ] % _ \ are themselves; case counts
        #expect(listed == expected.reversed().map(Ids.fetch), "--host \(pattern)")
    }

    @Test func statsAndExportTakeTheHostFilterToo() async throws {
        // Given fetches recorded on eight hosts
        let sandbox = try await history()

        // When stats and export are asked for the ci hosts
        let stats = try await sandbox.run("stats", "--host", "ci-*", "--format", "json")
        let export = try await sandbox.run("export", "--host", "ci-*", "--format", "jsonl")

        // Then both count and write those four fetches, each export record naming its host
        let object = try #require(try JSONSerialization.jsonObject(with: stats.standardOutputData) as? [String: Any], "\(stats)")
        #expect(object["total"] as? Int == 4, "\(stats)")
        #expect(try export.lines.map { try ExportRecord(jsonLine: $0).host } == ["ci-1", "ci-2", "ci-*x", "ci-?"])
    }

    @Test func theTableHasAHostColumnOnlyWhenItsRowsComeFromSeveralHosts() async throws {
        // Given fetches recorded on eight hosts
        let sandbox = try await history()

        // When the table lists them all, then only those of one host
        let all = try await sandbox.run("list", "--limit", "3")
        let one = try await sandbox.run("list", "--host", "ci-1")

        // Then the first has a HOST column before RESULT, naming each row's host, and the second none
        // (nor HTTP and BYTES: no row has a response)
        let header = try #require(all.lines.first).split(separator: " ", omittingEmptySubsequences: true)
        #expect(header == ["ID", "STARTED", "DURATION", "OUTCOME", "HOST", "RESULT", "SOURCE"], "\(all)")
        #expect(all.lines.dropFirst().map { $0.split(separator: " ", omittingEmptySubsequences: true)[5] } == ["ci%_\\[1]", "-", "ci-?"], "\(all)")
        #expect(one.lines.first?.contains("HOST") == false, "\(one)")
        #expect(one.lines.count == 2, "\(one)")
    }

    @Test func anEmptyHostIsRefusedAsAnUnsetVariableWouldBe() async throws {
        // Given a history
        let sandbox = try await history()

        // When --host is given an empty pattern
        let result = try await sandbox.run("list", "--host", "")

        // Then it is a usage error that says so, not a filter matching the fetches with no host
        #expect(result.status == 64, "\(result)")
        #expect(result.standardError.hasPrefix("error: --host is empty; give a host name or a pattern such as 'ci-*'"), "\(result)")
    }

    @Test func aFetchRecordedHereNamesThisMachineAndAnOlderExportImportsWithNoHost() async throws {
        // Given a fetch recorded on this machine, and an export record written before records had a host
        let sandbox = try Sandbox()
        let fetch = try await sandbox.run("fetch", "--latency", "0")
        #expect(fetch.status == 0, "\(fetch)")
        try await sandbox.importRecords([.make("failed", id: Ids.fetch(1), at: Fixtures.day0)])

        // When the history is exported
        let records = try await sandbox.exportedRecords()

        // Then the imported fetch has no host and the recorded one has this machine's name
        #expect(records.map(\.host) == [nil, thisHostName()])
        #expect(!thisHostName().isEmpty)
    }
}
