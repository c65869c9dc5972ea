import Foundation
import Testing
import FetchHistory

@Suite struct HostPatternTests {
    static let hosts = ["ci-1", "ci-22", "probe-3", "ci-*x", "CI-1", "ci-?", "", "ci%_\\[1]", "a*b*c", "abc", "ab", "ci-"]

    @Test(arguments: [
        ("ci-*", ["ci-1", "ci-22", "ci-*x", "ci-?", "ci-"]),
        ("ci-1", ["ci-1"]),
        ("*", hosts),
        ("a*b*c", ["a*b*c", "abc"]),
        ("*b*", ["probe-3", "a*b*c", "abc", "ab"]),
        ("ab*", ["abc", "ab"]),
        ("ci%_\\[1]", ["ci%_\\[1]"]),
        ("", [""]),
    ])
    func aPatternMatchesWhatItsLiteralRunsAndStarsSay(pattern: String, expected: [String]) {
        #expect(Self.hosts.filter(HostPattern(pattern).matches) == expected, "\(pattern)")
    }

    @Test(arguments: ["ci-*", "*", "a*b*c", "*b*", "ci-?", "ci%_\\[1]", "ci-[12]", "*1", "CI-*", "**", ""])
    func theStoreSelectsWhatThePatternMatches(pattern: String) async throws {
        // Given a fetch recorded on each host
        let store = try HistoryStore.inMemory()
        let fetches = Self.hosts.enumerated().map { index, host in
            Fetch(
                id: UUID(), sessionID: UUID(), source: "random",
                startedAt: Timestamp(millisecondsSince1970: Int64(index) * 1_000), endedAt: Timestamp(millisecondsSince1970: Int64(index) * 1_000 + 5),
                durationMilliseconds: 5, outcome: .succeeded(1), host: host
            )
        }
        try await store.write { db in try db.importFetches { insert in try fetches.forEach(insert) } }

        // When the store lists the fetches of the pattern's hosts
        let listed = try await store.fetches(matching: HistoryFilter(host: HostPattern(pattern)), limit: nil)

        // Then it selects exactly the hosts the pattern itself matches
        #expect(listed.map(\.host).sorted() == Self.hosts.filter(HostPattern(pattern).matches).sorted(), "\(pattern)")
    }
}
