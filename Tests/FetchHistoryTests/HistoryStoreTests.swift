import Dispatch
import FetchHistoryTesting
import Foundation
import Testing
import FetchHistory
@testable import FetchHistoryInterchange
@testable import FetchHistoryModel
@testable import FetchHistoryStore
@testable import FetchHistoryViewState

@Suite struct HistoryStoreTests {
    let store: HistoryStore
    let session: Session

    init() throws {
        store = try .inMemory()
        session = try store.write { db in try db.beginSession(source: "random", at: Timestamp(millisecondsSince1970: 1_000_000)) }
    }

    /// Records a finished fetch started `at` ms after the epoch.
    @discardableResult
    func record(
        _ outcome: FetchOutcome?, at start: Int64, duration: Int64 = 10, in session: Session? = nil
    ) throws -> UUID {
        let id = UUID()
        try store.write { db in try db.recordStart(of: id, in: session ?? self.session, at: Timestamp(millisecondsSince1970: start)) }
        if let outcome {
            try store.write { db in try db.recordEnd(
                of: id, at: Timestamp(millisecondsSince1970: start + duration), duration: .milliseconds(duration),
                outcome: outcome, cause: .typical(of: outcome)
            ) }
        }
        return id
    }

    /// A recorder that died: this host and boot, a pid above any pid_max.
    static var deadRecorder: ProcessIdentity {
        var dead = ProcessIdentity.current
        dead.processID = Int32.max
        return dead
    }

    @Test func aRecordedFetchReadsBackWithEveryField() throws {
        let id = try record(.succeeded(42), at: 2_000, duration: 150)

        let fetch = try store.read { db in try db.fetch(idPrefix: id.lowercased) }

        #expect(fetch == Fetch(
            id: id, sessionID: session.id, source: "random",
            startedAt: Timestamp(millisecondsSince1970: 2_000), endedAt: Timestamp(millisecondsSince1970: 2_150),
            durationMilliseconds: 150, outcome: .succeeded(42),
            script: FetchScript(
                tappedAt: Timestamp(millisecondsSince1970: 2_000),
                end: FetchScript.End(cause: .answer(42), at: Timestamp(millisecondsSince1970: 2_150))
            ),
            host: session.process.host
        ))
        #expect(!session.process.host.isEmpty)
    }

    /// One row read by its id (a decoder that remembers nothing) is the row
    /// a listing reads (one that reuses what it decoded before).
    @Test func aFetchReadByItsIDIsTheFetchAListingReads() throws {
        let outcomes: [FetchOutcome] = [.succeeded(42), .succeeded(42), .failed("HTTP 503"), .cancelled(.superseded), .timedOut]
        let ids = try outcomes.enumerated().map { index, outcome in try record(outcome, at: Int64(1_000 * (index + 1))) }
        let listed = try store.read { db in try db.fetches() }

        for id in ids {
            let byID = try #require(try store.read { db in try db.fetch(id: id) })
            #expect(byID == listed.first { $0.id == id })
        }
        #expect(try store.read { db in try db.fetch(id: UUID()) } == nil)
    }

    @Test(arguments: [
        FetchOutcome.succeeded(7), .failed("HTTP 503"), .cancelled(.user), .cancelled(.superseded), .timedOut,
    ])
    func everyOutcomeRoundTrips(_ outcome: FetchOutcome) throws {
        let id = try record(outcome, at: 5_000)
        #expect(try store.read { db in try db.fetch(idPrefix: id.lowercased) }.outcome == outcome)
    }

    @Test func aFetchEndsExactlyOnce() throws {
        let id = try record(.succeeded(1), at: 10)

        #expect(throws: HistoryError.notRunning(id)) {
            try store.write { db in try db.recordEnd(of: id, at: .now, duration: .zero, outcome: .failed("again"), cause: .failure("again")) }
        }
        #expect(try store.read { db in try db.fetch(idPrefix: id.lowercased) }.outcome == .succeeded(1))
    }

    @Test func anEndForAnUnknownFetchIsRefused() throws {
        let id = UUID()
        #expect(throws: HistoryError.notRunning(id)) {
            try store.write { db in try db.recordEnd(of: id, at: .now, duration: .zero, outcome: .timedOut, cause: .timeout) }
        }
    }

    @Test func listingIsNewestFirstAndHonoursTheLimit() throws {
        let ids = try (1...5).map { try record(.succeeded(FetchValue($0)), at: Int64($0) * 1000) }

        let listed = try store.read { db in try db.fetches(limit: 3) }.map(\.id)

        #expect(listed == Array(ids.reversed().prefix(3)))
        #expect(try store.read { db in try db.fetches() }.count == 5)
    }

    @Test func filtersCombine() throws {
        let other = try store.write { db in try db.beginSession(source: "https://example.com/n", at: Timestamp(millisecondsSince1970: 0)) }
        try record(.succeeded(1), at: 1_000)
        let failedEarly = try record(.failed("boom"), at: 2_000)
        let failedLate = try record(.failed("boom"), at: 3_000)
        let failedElsewhere = try record(.failed("refused"), at: 3_500, in: other)
        try record(.timedOut, at: 4_000)

        #expect(try store.read { db in try db.fetches(matching: HistoryFilter(status: .failed)) }.map(\.id)
            == [failedElsewhere, failedLate, failedEarly])
        #expect(try store.read { db in try db.fetches(matching: HistoryFilter(status: .failed, source: "random")) }.map(\.id)
            == [failedLate, failedEarly])
        #expect(try store.read { db in try db.fetches(matching: HistoryFilter(sessionID: other.id)) }.map(\.id) == [failedElsewhere])
        let window = HistoryFilter(
            since: Timestamp(millisecondsSince1970: 2_000), until: Timestamp(millisecondsSince1970: 3_500)
        )
        #expect(try store.read { db in try db.fetches(matching: window) }.map(\.id) == [failedLate, failedEarly])
        #expect(try store.read { db in try db.fetches(matching: HistoryFilter(status: .timedOut)) }.count == 1)
    }

    @Test func hostileFilterTextIsJustText() throws {
        try record(.succeeded(1), at: 1_000)
        for text in ["' OR 1=1 --", "%", "_", "random' --", "\"random\"", "ran\0dom", String(repeating: "x", count: 100_000)] {
            #expect(try store.read { db in try db.fetches(matching: HistoryFilter(source: text)) }.isEmpty, "\(text.prefix(20))")
        }
        #expect(try store.read { db in try db.fetches() }.count == 1)
    }

    @Test func anIDPrefixFindsOneFetchOrSaysWhyNot() throws {
        let id = try record(.succeeded(3), at: 1_000)
        let prefix = String(id.lowercased.prefix(8))

        #expect(try store.read { db in try db.fetch(idPrefix: prefix) }.id == id)
        #expect(try store.read { db in try db.fetch(idPrefix: prefix.uppercased()) }.id == id)
        #expect(throws: HistoryError.notFound(kind: "fetch", prefix: "ffffffff-0000")) {
            try store.read { db in try db.fetch(idPrefix: "ffffffff-0000") }
        }
        #expect(throws: HistoryError.invalidID("' OR 1=1 --")) { try store.read { db in try db.fetch(idPrefix: "' OR 1=1 --") } }
    }

    @Test func anAmbiguousPrefixNamesTheCandidates() throws {
        // 17 fetches share at least one leading hex digit with another.
        let ids = try (0..<17).map { try record(.succeeded(FetchValue($0)), at: Int64($0)) }
        let prefixes = Dictionary(grouping: ids, by: { String($0.lowercased.prefix(1)) })
        let (prefix, sharing) = try #require(prefixes.first { $0.value.count > 1 })

        #expect {
            try store.read { db in try db.fetch(idPrefix: prefix) }
        } throws: { error in
            guard case HistoryError.ambiguous(_, _, let candidates) = error else { return false }
            return Set(candidates).isSubset(of: Set(sharing.map(\.lowercased))) && candidates.count >= 2
        }
    }

    @Test func aRunningFetchOfALiveProcessIsRunning() throws {
        let id = try record(nil, at: 1_000)

        #expect(try store.read { db in try db.fetch(idPrefix: id.lowercased) }.status == .running)
        #expect(try store.read { db in try db.fetches(matching: HistoryFilter(status: .running)) }.map(\.id) == [id])
        #expect(try store.read { db in try db.fetches(matching: HistoryFilter(status: .interrupted)) }.isEmpty)
    }

    @Test func aRunningFetchOfADeadProcessIsInterrupted() throws {
        let crashed = try store.write { db in try db.beginSession(
            source: "random", at: Timestamp(millisecondsSince1970: 0), process: Self.deadRecorder
        ) }
        let id = try record(nil, at: 1_000, in: crashed)

        let fetch = try store.read { db in try db.fetch(idPrefix: id.lowercased) }

        #expect(fetch.status == .interrupted)
        #expect(fetch.endedAt == nil)
        #expect(try store.read { db in try db.fetches(matching: HistoryFilter(status: .interrupted)) }.map(\.id) == [id])
        #expect(try store.read { db in try db.fetches(matching: HistoryFilter(status: .running)) }.isEmpty)
        #expect(try store.read { db in try db.statistics() }.counts == [.interrupted: 1])
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

    @Test func aLiveProcessHoldingTheRecordersIDIsNotTheRecorder() throws {
        // Given this process's identity with the pid of another live process:
        // pid 1, started long before this one, as if our pid had been reused
        var reused = ProcessIdentity.current
        reused.processID = 1

        // When it is checked
        // Then the start times differ, read from /proc/1/stat and /proc/self/stat:
        // not the recorder
        #expect(!reused.isAlive)
    }

    @Test func aFetchRecordedOnAnotherHostReadsAsRunning() throws {
        // Given a fetch without an end, recorded on another machine: its pid is
        // not alive here, and its boot id is not this machine's
        let elsewhere = ProcessIdentity(
            host: ProcessIdentity.current.host + "-elsewhere", processID: Int32.max,
            bootID: "boot-of-another-machine", startTicks: 1
        )
        let remote = try store.write { db in try db.beginSession(source: "random", at: Timestamp(millisecondsSince1970: 0), process: elsewhere) }
        let id = try record(nil, at: 1_000, in: remote)

        // When it is read back
        let fetch = try store.read { db in try db.fetch(idPrefix: id.lowercased) }

        // Then its recorder cannot be checked from here, so it is not called
        // interrupted: it reads as running, in listings and counts
        #expect(elsewhere.isAlive)
        #expect(fetch.status == .running)
        #expect(try store.read { db in try db.fetches(matching: HistoryFilter(status: .running)) }.map(\.id) == [id])
        #expect(try store.read { db in try db.fetches(matching: HistoryFilter(status: .interrupted)) }.isEmpty)
        #expect(try store.read { db in try db.statistics() }.counts == [.running: 1])
    }

    @Test func statisticsCountOutcomesAndRankLatencies() throws {
        for (index, duration) in (1...100).enumerated() {
            try record(.succeeded(FetchValue(index)), at: Int64(index) * 1000, duration: Int64(duration))
        }
        try record(.failed("x"), at: 200_000, duration: 5_000)
        try record(.cancelled(.user), at: 201_000)
        try record(.timedOut, at: 202_000)

        let statistics = try store.read { db in try db.statistics() }

        #expect(statistics.total == 103)
        #expect(statistics.counts == [.succeeded: 100, .failed: 1, .cancelled: 1, .timedOut: 1])
        #expect(statistics.latency == HistoryStatistics.Latency(p50: 50, p90: 90, p95: 95, p99: 99, max: 100))
        // How often the source answered: the user's cancellation counts neither way
        #expect(statistics.decidedCount == 102)
        #expect(statistics.successRate == 100.0 / 102.0)
        #expect(statistics.histogram.prefix(6).map(\.count) == [9, 15, 25, 50, 1, 0])
        #expect(try store.read { db in try db.statistics(matching: HistoryFilter(since: Timestamp(millisecondsSince1970: 200_000))) }.latency == nil)
    }

    @Test func statisticsOfSucceededFetchesKeepTheirLatency() throws {
        // Given succeeded fetches taking 10, 20 and 30 ms, and a failed one
        for (index, duration) in [10, 20, 30].enumerated() {
            try record(.succeeded(FetchValue(index)), at: Int64(index) * 1_000, duration: Int64(duration))
        }
        try record(.failed("x"), at: 5_000, duration: 500)

        // When statistics are asked for succeeded fetches only, and for failed ones
        let succeeded = try store.read { db in try db.statistics(matching: HistoryFilter(status: .succeeded)) }
        let failed = try store.read { db in try db.statistics(matching: HistoryFilter(status: .failed)) }

        // Then the succeeded ones have their latency, the failed ones none
        #expect(succeeded.counts == [.succeeded: 3])
        #expect(succeeded.latency == HistoryStatistics.Latency(p50: 20, p90: 30, p95: 30, p99: 30, max: 30))
        #expect(failed.counts == [.failed: 1])
        #expect(failed.latency == nil)
    }

    @Test func exportOrderIsOldestFirst() throws {
        let ids = try [3_000, 1_000, 2_000].map { try record(.succeeded(1), at: Int64($0)) }
        var seen: [UUID] = []

        try store.read { db in try db.forEachFetch { seen.append($0.id) } }

        #expect(seen == [ids[1], ids[2], ids[0]])
    }

    // MARK: - Order within one millisecond

    /// Three fetches started in one millisecond (recorded in that order),
    /// between an older and a newer one.
    func recordThreeInOneMillisecond() throws -> (older: UUID, sameMillisecond: [UUID], newer: UUID) {
        let older = try record(.succeeded(0), at: 1_000)
        let sameMillisecond = try (1...3).map { try record(.succeeded(FetchValue($0)), at: 2_000) }
        let newer = try record(.succeeded(4), at: 3_000)
        return (older, sameMillisecond, newer)
    }

    @Test func fetchesOfOneMillisecondListTheLastRecordedFirst() throws {
        // Given three fetches started in one millisecond, between an older and a newer one
        let (older, sameMillisecond, newer) = try recordThreeInOneMillisecond()

        // When the history is listed, whole, limited and by session
        let listed = try store.read { db in try db.fetches() }.map(\.id)
        let newestTwo = try store.read { db in try db.fetches(limit: 2) }.map(\.id)
        let bySession = try store.read { db in try db.fetches(matching: HistoryFilter(sessionID: session.id)) }.map(\.id)

        // Then of the three, the one recorded last comes first
        let newestFirst = [newer] + sameMillisecond.reversed() + [older]
        #expect(listed == newestFirst)
        #expect(newestTwo == [newer, sameMillisecond[2]])
        #expect(bySession == newestFirst)
    }

    @Test func fetchesOfOneMillisecondExportInRecordingOrder() throws {
        // Given three fetches started in one millisecond, between an older and a newer one
        let (older, sameMillisecond, newer) = try recordThreeInOneMillisecond()

        // When the history is exported, oldest first
        var exported: [UUID] = []
        try store.read { db in try db.forEachFetch { exported.append($0.id) } }

        // Then the three come in the order they were recorded
        #expect(exported == [older] + sameMillisecond + [newer])
    }

    /// The interrupted listing is the one SQLite serves by sorting (two index
    /// searches joined by OR, then a temporary B-tree) instead of walking an
    /// index already in (started_at, rowid) order: only the tie-breaker keeps
    /// same-millisecond fetches in recording order there.
    @Test func interruptedFetchesOfOneMillisecondKeepRecordingOrder() throws {
        // Given, in one millisecond: two fetches of a recorder that died, then
        // an imported fetch stored as interrupted
        let crashed = try store.write { db in try db.beginSession(
            source: "random", at: Timestamp(millisecondsSince1970: 0), process: Self.deadRecorder
        ) }
        let first = try record(nil, at: 2_000, in: crashed)
        let second = try record(nil, at: 2_000, in: crashed)
        let imported = Fetch(
            id: UUID(), sessionID: UUID(), source: "random", startedAt: Timestamp(millisecondsSince1970: 2_000),
            outcome: .interrupted
        )
        _ = try store.write { db in try db.importFetches { insert in try insert(imported) } }

        // When the interrupted fetches are listed (newest first) and exported (oldest first)
        let interrupted = HistoryFilter(status: .interrupted)
        let listed = try store.read { db in try db.fetches(matching: interrupted) }.map(\.id)
        var exported: [UUID] = []
        try store.read { db in try db.forEachFetch(matching: interrupted) { exported.append($0.id) } }

        // Then both follow the order they were recorded in
        #expect(listed == [imported.id, second, first])
        #expect(exported == [first, second, imported.id])
    }

    @Test func aTimelineNumbersFetchesOfOneMillisecondInRecordingOrder() async throws {
        // Given a double tap: two fetches started in one millisecond, the
        // first superseded by the second, which answers later
        let recorder = try await HistoryRecorder.inMemory()
        let (first, second) = (UUID(), UUID())
        try await recorder.record(FetchStart(id: first, offset: .milliseconds(100)))
        try await recorder.record(FetchStart(id: second, offset: .milliseconds(100)))
        try await recorder.record(FetchEnd(
            id: first, offset: .milliseconds(100), duration: .zero, outcome: .cancelled(.superseded), cause: .fetchTap
        ))
        try await recorder.record(FetchEnd(
            id: second, offset: .milliseconds(250), duration: .milliseconds(150), outcome: .succeeded(7), cause: .answer(7)
        ))

        // When the session's timeline is read
        let timeline = try await recorder.timeline()

        // Then fetch 1 is the one recorded first, the superseded one
        #expect(timeline == [
            .started(1, at: .milliseconds(100)),
            .ended(1, .cancelled(.superseded), at: .milliseconds(100)),
            .started(2, at: .milliseconds(100)),
            .ended(2, .succeeded(7), at: .milliseconds(250)),
        ])
    }

    @Test func theNewestSessionIsTheOneStartedLastAndOfOneMillisecondTheLastRecorded() throws {
        // Given an empty history
        let history = try HistoryStore.inMemory()
        let none = try history.read { db in try db.newestSession() }

        // When sessions are recorded out of start order, then one more in the
        // newest one's millisecond
        let late = try history.write { db in try db.beginSession(source: "random", at: Timestamp(millisecondsSince1970: 5_000)) }
        _ = try history.write { db in try db.beginSession(source: "random", at: Timestamp(millisecondsSince1970: 1_000)) }
        let newestBeforeTie = try history.read { db in try db.newestSession() }
        let alsoLate = try history.write { db in try db.beginSession(source: "random", at: Timestamp(millisecondsSince1970: 5_000)) }

        // Then there is none at first, then the one started last, and of two
        // started in one millisecond the one recorded last
        #expect(none == nil)
        #expect(newestBeforeTie?.id == late.id)
        #expect(try history.read { db in try db.newestSession() }?.id == alsoLate.id)
    }

    @Test(arguments: [
        HistoryFilter(since: Timestamp(millisecondsSince1970: 1), until: Timestamp(millisecondsSince1970: 2)),
        HistoryFilter(status: .failed, since: Timestamp(millisecondsSince1970: 1)),
        HistoryFilter(statuses: [.failed, .timedOut, .interrupted]),
        HistoryFilter(statuses: [.failed], minimumDuration: .seconds(1)),
        HistoryFilter(source: "random", until: Timestamp(millisecondsSince1970: 2)),
        HistoryFilter(sessionID: UUID()),
    ])
    func filteredListingsUseAnIndex(_ filter: HistoryFilter) throws {
        let plan = try store.read { db in try db.queryPlan(forFetchesMatching: filter) }
        #expect(plan.contains { $0.contains("USING INDEX") || $0.contains("USING COVERING INDEX") }, "\(plan)")
        #expect(!plan.contains { $0.hasPrefix("SCAN fetch") && !$0.contains("INDEX") }, "\(plan)")
    }

    @Test func aSessionsStatisticsSearchItsOwnIndexNeverTheWholeHistory() throws {
        // Given the statistics of one session (fetch --count's summary, a session's thresholds)
        let plan = try store.read { db in try db.queryPlans(forStatisticsMatching: HistoryFilter(sessionID: UUID())) }

        // Then both reads search the session's index: none scans the history, or every succeeded fetch of it
        #expect(plan.filter { $0.contains("USING INDEX fetch_by_session") }.count == 2, "\(plan)")
        #expect(!plan.contains { $0.hasPrefix("SCAN") }, "\(plan)")
    }

    @Test func aFollowerIsGivenAFetchRecordedAfterTheNewestWasDeleted() throws {
        // Given a follower that has seen three fetches
        try record(.succeeded(1), at: 2_000)
        try record(.succeeded(2), at: 3_000)
        let newest = try record(.succeeded(3), at: 4_000)
        var cursor = try store.read { db in try db.cursor() }

        // When the newest is deleted, and another fetch is recorded
        try store.write { db in _ = try db.deleteFetches(.fetches([newest])) }
        let next = try record(.succeeded(4), at: 5_000)

        // Then the follower is given it: it did not take the deleted one's place
        let ended = try store.read { db in try db.fetchesEnded(after: &cursor, matching: HistoryFilter()) }
        #expect(ended.map(\.id) == [next])
    }

    @Test func aFollowerGivenAWatchedFetchAndANewerOneInOneChangeIsGivenEachOnce() throws {
        // Given a follower that saw a fetch running
        let running = try record(nil, at: 2_000)
        var cursor = try store.read { db in try db.cursor() }

        // When it ends, and a newer fetch is recorded, before the follower looks
        try store.write { db in try db.recordEnd(
            of: running, at: Timestamp(millisecondsSince1970: 2_500), duration: .milliseconds(500),
            outcome: .succeeded(1), cause: .answer(1)
        ) }
        let newer = try record(.succeeded(2), at: 3_000)

        // Then the follower is given both, and on its next look neither again:
        // the watched fetch, read after the newer one, does not move it back
        let first = try store.read { db in try db.fetchesEnded(after: &cursor, matching: HistoryFilter()) }
        let second = try store.read { db in try db.fetchesEnded(after: &cursor, matching: HistoryFilter()) }
        #expect(first.map(\.id) == [running, newer])
        #expect(second.isEmpty)
    }

    @Test func fetchesRecordedAfterTheNewestWasDeletedAreNumberedOnUpward() throws {
        // Given a history whose newest fetch was deleted
        try record(.succeeded(1), at: 2_000)
        let newest = try record(.succeeded(2), at: 3_000)
        try store.write { db in _ = try db.deleteFetches(.fetches([newest])) }
        var cursor = try store.read { db in try db.cursor() }

        // When three more are recorded, the first above the deleted one's
        // number and the others above it in turn
        let next = try [4_000, 5_000, 6_000].map { try record(.succeeded(3), at: $0) }

        // Then each is recorded, and a follower is given all three in order
        let ended = try store.read { db in try db.fetchesEnded(after: &cursor, matching: HistoryFilter()) }
        #expect(ended.map(\.id) == next)
    }

    @Test func aFollowerIsGivenFetchesImportedAfterTheNewestWasDeleted() throws {
        // Given a follower that has seen two fetches
        try record(.succeeded(1), at: 2_000)
        let newest = try record(.succeeded(2), at: 3_000)
        var cursor = try store.read { db in try db.cursor() }

        // When the newest is deleted, and two fetches are imported
        try store.write { db in _ = try db.deleteFetches(.fetches([newest])) }
        let imported = [6_000, 7_000].map { start in
            Fetch(
                id: UUID(), sessionID: UUID(), source: "random", startedAt: Timestamp(millisecondsSince1970: Int64(start)),
                endedAt: Timestamp(millisecondsSince1970: Int64(start) + 5), durationMilliseconds: 5, outcome: .succeeded(9)
            )
        }
        let summary = try store.write { db in try db.importFetches { insert in try imported.forEach(insert) } }

        // Then both were added, and the follower is given both
        #expect(summary == ImportSummary(added: 2, skipped: 0))
        let ended = try store.read { db in try db.fetchesEnded(after: &cursor, matching: HistoryFilter()) }
        #expect(ended.map(\.id) == imported.map(\.id))
    }
}

/// The store owns its connection: one closure at a time, on its own queue.
@Suite(.timeLimit(.minutes(3))) struct HistoryStoreAccessTests {
    @Test func callingTheStoreFromInsideItsOwnClosureIsRefusedByName() throws {
        // Given a history with a fetch in it
        let store = try HistoryStore.inMemory()
        let session = try store.write { db in try db.beginSession(source: "random", at: Timestamp(millisecondsSince1970: 0)) }
        try store.write { db in try db.recordStart(of: UUID(), in: session, at: Timestamp(millisecondsSince1970: 1)) }

        // When forEachFetch's body reads, or a read writes, through the store again
        // Then each is refused with an error that names the misuse (it was a mutex crash)
        #expect(throws: HistoryError.reentrantAccess(path: ":memory:")) {
            try store.read { db in try db.forEachFetch { _ in _ = try store.read { db in try db.fetches() } } }
        }
        #expect(throws: HistoryError.reentrantAccess(path: ":memory:")) {
            try store.read { _ in try store.write { db in try db.beginSession(source: "random") } }
        }
        // and the store still works afterwards
        #expect(try store.read { db in try db.fetches() }.count == 1)
    }

    @MainActor
    @Test func theAsyncAPIWaitsWithoutBlockingTheCaller() async throws {
        // Given the store busy with another thread's write
        let store = try HistoryStore.inMemory()
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let busy = Task { try await runOnDedicatedThread { try store.write { _ in entered.signal(); release.wait() } } }
        await runOnDedicatedThread { entered.wait() }

        // When the main actor asks for a read
        let reading = Task { @MainActor in try await store.read { db in try db.fetches() } }

        // Then the main actor is free while the read waits (a blocking read would deadlock here)
        let mainActorRan = await Task { @MainActor in true }.value
        #expect(mainActorRan)
        release.signal()
        try await busy.value
        #expect(try await reading.value.isEmpty)
    }

    @Test func aWriteThatThrowsLeavesNothingBehind() throws {
        struct Abandoned: Error {}
        let store = try HistoryStore.inMemory()

        #expect(throws: Abandoned.self) {
            try store.write { db in
                try db.beginSession(source: "random")
                throw Abandoned()
            }
        }

        #expect(try store.read { db in try db.newestSession() } == nil)
    }
}
