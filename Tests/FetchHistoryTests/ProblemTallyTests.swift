import Foundation
import Testing
@testable import FetchHistoryModel

/// Counting problems from the rows a store reads (`ProblemTally`), and what
/// `--problem KEY` asks of the stored columns (`ProblemMatch`): the pieces
/// both stores share, so that a file and a server group alike.
@Suite("Problems counted from a store's rows, and what a key asks of them")
struct ProblemTallyTests {
    static func row(
        _ status: FetchStatus, http: Int? = nil, error: String? = nil, other: String? = nil, source: String = "s1", host: String = "h1",
        count: Int = 1, first: Int64 = 0, last: Int64 = 0
    ) -> ProblemTally.Row {
        ProblemTally.Row(
            ProblemTally.Parts(otherKey: other, status: status, httpStatus: http, error: error), source: source, host: host,
            count: count, first: first, last: last
        )
    }

    @Test func rowsOfOneProblemAddUpWithTheirSourcesAndHostsCountedOnce() {
        // Given rows of one problem from two sources on one host, their errors differing in a number, and a succeeded row
        var tally = ProblemTally(groupings: [.problem])
        tally.add(Self.row(.failed, error: "user 17 not found", source: "a", count: 2, first: 10, last: 20))
        tally.add(Self.row(.failed, error: "user 42 not found", source: "b", count: 1, first: 5, last: 30))
        tally.add(Self.row(.failed, error: "user 42 not found", source: "a", count: 3, first: 15, last: 25))
        tally.add(Self.row(.succeeded, source: "c", count: 9))

        // When the groups are read
        let groups = tally.groups(within: [])

        // Then one problem holds the six fetches, two sources, one host, from the first start to the last
        #expect(groups.map(\.key) == ["user <n> not found"])
        #expect(groups.first?.total == 6)
        #expect(groups.first?.problem?.sources == 2 && groups.first?.problem?.hosts == 1)
        #expect(groups.first?.problem?.firstSeen == Timestamp(millisecondsSince1970: 5))
        #expect(groups.first?.problem?.lastSeen == Timestamp(millisecondsSince1970: 30))
        #expect(tally.lastSeenTimes == [30])
    }

    @Test func mostFrequentFirstTiesByKeyEachWithItsShare() {
        // Given three problems, two of them as frequent
        var tally = ProblemTally(groupings: [.problem])
        tally.add(Self.row(.timedOut, count: 2))
        tally.add(Self.row(.failed, http: 503, error: "HTTP 503", count: 5))
        tally.add(Self.row(.cancelled, count: 2))

        // When the groups are read
        let groups = tally.groups(within: [])

        // Then the most frequent comes first, the equal ones in key order, each its part of the nine
        #expect(groups.map(\.key) == ["HTTP 503", "cancelled", "timed out"])
        let shares: [Double?] = groups.map { $0.problem?.share }
        let nine = 9.0
        #expect(shares == [5 / nine, 2 / nine, 2 / nine])
    }

    @Test func theExampleIsTheNewestOfferedAndOfOneMillisecondTheGreatestID() throws {
        // Given one problem last seen at 30, offered three fetches
        var tally = ProblemTally(groupings: [.problem])
        let parts = ProblemTally.Parts(status: .timedOut, httpStatus: nil, error: nil)
        tally.add(Self.row(.timedOut, count: 3, first: 10, last: 30))
        let older = try #require(UUID(uuidString: "ffffffff-0000-4000-8000-000000000000"))
        let low = try #require(UUID(uuidString: "10000000-0000-4000-8000-000000000000"))
        let high = try #require(UUID(uuidString: "20000000-0000-4000-8000-000000000000"))

        // When fetches are offered in any order
        tally.offerExample(parts, startedAt: 30, id: high)
        tally.offerExample(parts, startedAt: 10, id: older)
        tally.offerExample(parts, startedAt: 30, id: low)

        // Then the example is the newest, of one millisecond the greatest id
        #expect(tally.groups(within: []).first?.problem?.example == high)
    }

    @Test func aProblemsGroupsOfASecondGroupingShareItsFetches() {
        // Given one problem on two hosts
        var tally = ProblemTally(groupings: [.problem, .host])
        tally.add(Self.row(.failed, http: 500, error: "HTTP 500", other: "h2", host: "h2", count: 3))
        tally.add(Self.row(.failed, http: 500, error: "HTTP 500", other: "h1", host: "h1", count: 1))

        // When the groups are read
        let groups = tally.groups(within: [])

        // Then the problem holds its hosts in key order, each its share of the problem's four fetches
        #expect(groups.first?.subgroups.map(\.key) == ["h1", "h2"])
        let shares: [Double?] = groups.first?.subgroups.map { $0.problem?.share } ?? []
        #expect(shares == [0.25, 0.75])
        #expect(groups.first?.problem?.share == 1)
    }

    @Test func aKeyNamesTheStoredColumnsItsFetchesHave() {
        // Given keys of every kind, one twice, and keys no fetch has
        let match = ProblemMatch(keys: ["HTTP 503", "timed out", "user <n> not found", "interrupted", "HTTP 503", "HTTP 0503", "HTTP 200"])

        // Then each is once, HTTP 503 a status, the outcomes theirs, and only texts masking leaves alone are error keys
        #expect(match.keys == ["HTTP 503", "timed out", "user <n> not found", "interrupted", "HTTP 0503", "HTTP 200"])
        #expect(match.httpStatuses == [503])
        #expect(match.outcomes == ["timed-out", "interrupted"])
        #expect(match.interrupted)
        #expect(match.errorKeys == ["timed out", "user <n> not found", "interrupted"])
    }
}
