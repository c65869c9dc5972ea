import Foundation
import Testing
@testable import FetchHistory

@Suite struct HistoryStoreTests {
    let store: HistoryStore
    let session: Session

    init() throws {
        store = try .inMemory()
        session = try store.beginSession(source: "random", at: Timestamp(millisecondsSince1970: 1_000_000))
    }

    /// Records a finished fetch started `at` ms after the epoch.
    @discardableResult
    func record(
        _ outcome: FetchOutcome?, at start: Int64, duration: Int64 = 10, in session: Session? = nil
    ) throws -> UUID {
        let id = UUID()
        try store.recordStart(of: id, in: session ?? self.session, at: Timestamp(millisecondsSince1970: start))
        if let outcome {
            try store.recordEnd(
                of: id, at: Timestamp(millisecondsSince1970: start + duration), duration: .milliseconds(duration),
                outcome: outcome, cause: .typical(of: outcome)
            )
        }
        return id
    }

    @Test func aRecordedFetchReadsBackWithEveryField() throws {
        let id = try record(.succeeded(42), at: 2_000, duration: 150)

        let fetch = try store.fetch(idPrefix: id.lowercased)

        #expect(fetch == Fetch(
            id: id, sessionID: session.id, source: "random",
            startedAt: Timestamp(millisecondsSince1970: 2_000), endedAt: Timestamp(millisecondsSince1970: 2_150),
            durationMilliseconds: 150, outcome: .succeeded(42),
            script: FetchScript(
                tappedAt: Timestamp(millisecondsSince1970: 2_000),
                end: FetchScript.End(cause: .answer(42), at: Timestamp(millisecondsSince1970: 2_150))
            )
        ))
    }

    @Test(arguments: [
        FetchOutcome.succeeded(7), .failed("HTTP 503"), .cancelled(.user), .cancelled(.superseded), .timedOut,
    ])
    func everyOutcomeRoundTrips(_ outcome: FetchOutcome) throws {
        let id = try record(outcome, at: 5_000)
        #expect(try store.fetch(idPrefix: id.lowercased).outcome == outcome)
    }

    @Test func aFetchEndsExactlyOnce() throws {
        let id = try record(.succeeded(1), at: 10)

        #expect(throws: HistoryError.notRunning(id)) {
            try store.recordEnd(of: id, at: .now, duration: .zero, outcome: .failed("again"), cause: .failure("again"))
        }
        #expect(try store.fetch(idPrefix: id.lowercased).outcome == .succeeded(1))
    }

    @Test func anEndForAnUnknownFetchIsRefused() throws {
        let id = UUID()
        #expect(throws: HistoryError.notRunning(id)) {
            try store.recordEnd(of: id, at: .now, duration: .zero, outcome: .timedOut, cause: .timeout)
        }
    }

    @Test func listingIsNewestFirstAndHonoursTheLimit() throws {
        let ids = try (1...5).map { try record(.succeeded($0), at: Int64($0) * 1000) }

        let listed = try store.fetches(limit: 3).map(\.id)

        #expect(listed == Array(ids.reversed().prefix(3)))
        #expect(try store.fetches().count == 5)
    }

    @Test func filtersCombine() throws {
        let other = try store.beginSession(source: "https://example.com/n", at: Timestamp(millisecondsSince1970: 0))
        try record(.succeeded(1), at: 1_000)
        let failedEarly = try record(.failed("boom"), at: 2_000)
        let failedLate = try record(.failed("boom"), at: 3_000)
        let failedElsewhere = try record(.failed("refused"), at: 3_500, in: other)
        try record(.timedOut, at: 4_000)

        #expect(try store.fetches(matching: HistoryFilter(status: .failed)).map(\.id)
            == [failedElsewhere, failedLate, failedEarly])
        #expect(try store.fetches(matching: HistoryFilter(status: .failed, source: "random")).map(\.id)
            == [failedLate, failedEarly])
        #expect(try store.fetches(matching: HistoryFilter(sessionID: other.id)).map(\.id) == [failedElsewhere])
        let window = HistoryFilter(
            since: Timestamp(millisecondsSince1970: 2_000), until: Timestamp(millisecondsSince1970: 3_500)
        )
        #expect(try store.fetches(matching: window).map(\.id) == [failedLate, failedEarly])
        #expect(try store.fetches(matching: HistoryFilter(status: .timedOut)).count == 1)
    }

    @Test func hostileFilterTextIsJustText() throws {
        try record(.succeeded(1), at: 1_000)
        for text in ["' OR 1=1 --", "%", "_", "random' --", "\"random\"", "ran\0dom", String(repeating: "x", count: 100_000)] {
            #expect(try store.fetches(matching: HistoryFilter(source: text)).isEmpty, "\(text.prefix(20))")
        }
        #expect(try store.fetches().count == 1)
    }

    @Test func anIDPrefixFindsOneFetchOrSaysWhyNot() throws {
        let id = try record(.succeeded(3), at: 1_000)
        let prefix = String(id.lowercased.prefix(8))

        #expect(try store.fetch(idPrefix: prefix).id == id)
        #expect(try store.fetch(idPrefix: prefix.uppercased()).id == id)
        #expect(throws: HistoryError.notFound(kind: "fetch", prefix: "ffffffff-0000")) {
            try store.fetch(idPrefix: "ffffffff-0000")
        }
        #expect(throws: HistoryError.invalidID("' OR 1=1 --")) { try store.fetch(idPrefix: "' OR 1=1 --") }
    }

    @Test func anAmbiguousPrefixNamesTheCandidates() throws {
        // 17 fetches share at least one leading hex digit with another.
        let ids = try (0..<17).map { try record(.succeeded($0), at: Int64($0)) }
        let prefixes = Dictionary(grouping: ids, by: { String($0.lowercased.prefix(1)) })
        let (prefix, sharing) = try #require(prefixes.first { $0.value.count > 1 })

        #expect {
            try store.fetch(idPrefix: prefix)
        } throws: { error in
            guard case HistoryError.ambiguous(_, _, let candidates) = error else { return false }
            return Set(candidates).isSubset(of: Set(sharing.map(\.lowercased))) && candidates.count >= 2
        }
    }

    @Test func aRunningFetchOfALiveProcessIsRunning() throws {
        let id = try record(nil, at: 1_000)

        #expect(try store.fetch(idPrefix: id.lowercased).status == .running)
        #expect(try store.fetches(matching: HistoryFilter(status: .running)).map(\.id) == [id])
        #expect(try store.fetches(matching: HistoryFilter(status: .interrupted)).isEmpty)
    }

    @Test func aRunningFetchOfADeadProcessIsInterrupted() throws {
        var dead = ProcessIdentity.current
        dead.processID = Int32.max  // above any pid_max: never a live process
        let crashed = try store.beginSession(source: "random", at: Timestamp(millisecondsSince1970: 0), process: dead)
        let id = try record(nil, at: 1_000, in: crashed)

        let fetch = try store.fetch(idPrefix: id.lowercased)

        #expect(fetch.status == .interrupted)
        #expect(fetch.endedAt == nil)
        #expect(try store.fetches(matching: HistoryFilter(status: .interrupted)).map(\.id) == [id])
        #expect(try store.fetches(matching: HistoryFilter(status: .running)).isEmpty)
        #expect(try store.statistics().counts == [.interrupted: 1])
    }

    @Test func aReusedProcessIDIsNotMistakenForTheRecorder() throws {
        var reused = ProcessIdentity.current
        reused.startTicks = (reused.startTicks ?? 0) + 1  // same pid, started at another time
        #expect(!reused.isAlive)
        #expect(ProcessIdentity.current.isAlive)
        var rebooted = ProcessIdentity.current
        rebooted.bootID = "another-boot"
        #expect(!rebooted.isAlive)
    }

    @Test func statisticsCountOutcomesAndRankLatencies() throws {
        for (index, duration) in (1...100).enumerated() {
            try record(.succeeded(index), at: Int64(index) * 1000, duration: Int64(duration))
        }
        try record(.failed("x"), at: 200_000, duration: 5_000)
        try record(.cancelled(.user), at: 201_000)
        try record(.timedOut, at: 202_000)

        let statistics = try store.statistics()

        #expect(statistics.total == 103)
        #expect(statistics.counts == [.succeeded: 100, .failed: 1, .cancelled: 1, .timedOut: 1])
        #expect(statistics.latency == HistoryStatistics.Latency(p50: 50, p90: 90, p99: 99, max: 100))
        #expect(statistics.successRate == 100.0 / 103.0)
        #expect(try store.statistics(matching: HistoryFilter(since: Timestamp(millisecondsSince1970: 200_000))).latency == nil)
    }

    @Test func exportOrderIsOldestFirst() throws {
        let ids = try [3_000, 1_000, 2_000].map { try record(.succeeded(1), at: Int64($0)) }
        var seen: [UUID] = []

        try store.forEachFetch { seen.append($0.id) }

        #expect(seen == [ids[1], ids[2], ids[0]])
    }

    @Test(arguments: [
        HistoryFilter(since: Timestamp(millisecondsSince1970: 1), until: Timestamp(millisecondsSince1970: 2)),
        HistoryFilter(status: .failed, since: Timestamp(millisecondsSince1970: 1)),
        HistoryFilter(source: "random", until: Timestamp(millisecondsSince1970: 2)),
        HistoryFilter(sessionID: UUID()),
    ])
    func filteredListingsUseAnIndex(_ filter: HistoryFilter) throws {
        let plan = try store.queryPlan(forFetchesMatching: filter)
        #expect(plan.contains { $0.contains("USING INDEX") || $0.contains("USING COVERING INDEX") }, "\(plan)")
        #expect(!plan.contains { $0.hasPrefix("SCAN fetch") && !$0.contains("INDEX") }, "\(plan)")
    }
}
