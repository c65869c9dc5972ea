import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import Testing
import FetchHistory

/// What every history behind the commands' seam (`HistoryReader`,
/// `HistoryWriter`) must do, written against the protocols alone: each test
/// takes a factory, so a second backend runs the same checks.
@Suite struct HistoryReaderContractTests {
    /// Makes a history holding `fetches`, behind the seam.
    typealias Backend = @Sendable (_ fetches: [Fetch]) async throws -> any HistoryWriter

    /// The SQLite store, answering on its own queue (what apps use).
    static let sqlite: Backend = { fetches in
        let store = try HistoryStore.inMemory()
        try await store.write { db in try db.importFetches { insert in try fetches.forEach(insert) } }
        return store
    }

    /// The same store answering on the caller's thread (what the commands use).
    static let sqliteOnCallersThread: Backend = { fetches in
        let store = try HistoryStore.inMemory()
        try await store.write { db in try db.importFetches { insert in try fetches.forEach(insert) } }
        return store.onCallersThread
    }

    static let backends = [sqlite, sqliteOnCallersThread]

    static let session = UUID()

    /// Fetch `number`, started `number` seconds into the day, ended with `outcome`.
    static func fetch(_ number: Int64, _ outcome: FetchOutcome = .succeeded(7)) -> Fetch {
        let at = Timestamp(millisecondsSince1970: 1_795_341_600_000 + number * 1_000)
        return Fetch(
            id: UUID(uuidString: String(format: "00000000-0000-7000-8000-%012d", number))!, sessionID: session,
            source: "random", startedAt: at, endedAt: at.advanced(by: .milliseconds(5)), durationMilliseconds: 5,
            outcome: outcome
        )
    }

    static let three = [fetch(1), fetch(2, .failed("503")), fetch(3)]

    /// `fetch(number)` from `source`.
    static func fetch(_ number: Int64, from source: String) -> Fetch {
        var fetch = fetch(number)
        fetch.source = source
        return fetch
    }

    @Test(arguments: backends)
    func listingsAreNewestFirstAndExportsOldestFirst(_ backend: Backend) async throws {
        // Given three fetches
        let history = try await backend(Self.three)

        // When they are listed, listed with a limit, and exported
        let all = try await history.fetches(matching: .all, limit: nil)
        let listing = try await history.listing(matching: HistoryFilter(status: .succeeded), limit: 1)
        let exported = Mutex<[UUID]>([])
        try await history.forEachFetch(matching: .all) { fetch in exported.withLock { $0.append(fetch.id) } }

        // Then the listing is newest first, the limit keeps the newest, and the export is oldest first
        #expect(all.map(\.id) == Self.three.reversed().map(\.id))
        #expect(listing.fetches.map(\.id) == [Self.three[2].id])
        #expect(exported.withLock { $0 } == Self.three.map(\.id))
    }

    @Test(arguments: backends)
    func aFetchIsFoundByAPrefixOnlyItHas(_ backend: Backend) async throws {
        // Given three fetches whose ids share all but their last digit
        let history = try await backend(Self.three)

        // When one is asked for by its whole id, and by a prefix all three share
        let found = try await history.fetch(idPrefix: Self.three[1].id.uuidString.lowercased())
        let ambiguous = await Result(catching: { try await history.fetch(idPrefix: "00000000") })

        // Then the first is that fetch, and the second is refused
        #expect(found == Self.three[1])
        #expect(throws: (any Error).self) { try ambiguous.get() }
    }

    @Test(arguments: backends)
    func statisticsCountEachOutcome(_ backend: Backend) async throws {
        // Given two fetches that succeeded and one that failed
        let history = try await backend(Self.three)

        // When the statistics are read
        let statistics = try await history.statistics(matching: .all)

        // Then each outcome is counted
        #expect(statistics.total == 3)
        #expect(statistics.counts == [.succeeded: 2, .failed: 1])
    }

    @Test(arguments: backends)
    func pruningDeletesWhatItsDryRunSaid(_ backend: Backend) async throws {
        // Given three fetches
        let history = try await backend(Self.three)

        // When the rule "keep the newest one" is tried, then applied
        let planned = try await history.fetchesToDelete(.keepingNewest(1))
        let deleted = try await history.deleteFetches(.keepingNewest(1))

        // Then both name the two older fetches, and only the newest is left
        #expect(planned == deleted)
        #expect(deleted.fetches == 2)
        #expect(try await history.fetches(matching: .all, limit: nil).map(\.id) == [Self.three[2].id])
    }
}

extension HistoryReaderContractTests {
    @Test(arguments: backends)
    func aSessionIsFoundByItsIDAndAnUnknownOneIsNil(_ backend: Backend) async throws {
        // Given three fetches of one session
        let history = try await backend(Self.three)

        // When their session, and a session the history never had, are asked for
        let session = try await history.session(id: Self.session)
        let unknown = try await history.session(id: UUID())

        // Then the first is found and the second is nil
        #expect(session?.id == Self.session)
        #expect(unknown == nil)
    }

    @Test(arguments: backends)
    func statisticsWithAGroupingCountTheSameFetchesPerGroup(_ backend: Backend) async throws {
        // Given two fetches that succeeded and one that failed
        let history = try await backend(Self.three)

        // When the statistics are read with and without a grouping by outcome
        let (overall, groups) = try await history.statistics(matching: .all, by: .outcome)
        let (alone, none) = try await history.statistics(matching: .all, by: nil)

        // Then the groups split the totals (the succeeded group with the overall percentiles), and no grouping gives no groups
        #expect(overall == alone)
        #expect(groups == [
            StatisticsGroup(key: "succeeded", counts: [.succeeded: 2], latency: overall.latency),
            StatisticsGroup(key: "failed", counts: [.failed: 1]),
        ])
        #expect(overall.latency != nil)
        #expect(none.isEmpty)
    }

    @Test(arguments: backends)
    func importAddsNewFetchesSkipsKnownOnesAndRefusesAnIDGivenTwice(_ backend: Backend) async throws {
        // Given a history holding the first of three fetches
        let history = try await backend([Self.three[0]])

        // When all three are imported, then an input naming a new fetch twice
        let summary = try await history.importFetches { insert in try Self.three.forEach(insert) }
        let twice = Self.fetch(9)
        let repeated = await Result { try await history.importFetches { insert in try [twice, twice].forEach(insert) } }

        // Then two are added and one skipped; the second import adds nothing and names the id
        #expect(summary == ImportSummary(added: 2, skipped: 1))
        #expect(throws: RepeatedFetchID(id: twice.id, firstRecord: 1)) { try repeated.get() }
        #expect(try await history.fetches(matching: .all, limit: nil).count == 3)
    }

    @Test(arguments: backends)
    func aSourcePatternSelectsTheSameFetchesInEveryRead(_ backend: Backend) async throws {
        // Given fetches from two URLs on one host, another host, and the random source
        let fetches = [
            Self.fetch(1, from: "http://a.example/x"), Self.fetch(2, from: "https://a.example:8443/y"),
            Self.fetch(3, from: "http://b.example/a.example"), Self.fetch(4, from: "random"),
        ]
        let history = try await backend([])
        var cursor = try await history.listing(matching: .all, limit: 0).cursor
        _ = try await history.importFetches { insert in try fetches.forEach(insert) }
        let filter = HistoryFilter(sourceMatching: "a.example")

        // When the host is listed, exported, counted, and followed from before the fetches came
        let listed = try await history.fetches(matching: filter, limit: nil)
        let exported = Mutex<[UUID]>([])
        try await history.forEachFetch(matching: filter) { fetch in exported.withLock { $0.append(fetch.id) } }
        let counted = try await history.statistics(matching: filter)
        let followed = try await history.fetchesEnded(after: &cursor, matching: filter)

        // Then each read selects the two fetches on that host, and only them
        let onHost = [fetches[0].id, fetches[1].id]
        #expect(listed.map(\.id) == onHost.reversed())
        #expect(exported.withLock { $0 } == onHost)
        #expect(counted.total == 2)
        #expect(followed.map(\.id) == onHost)
    }

    @Test(arguments: backends)
    func exactSourcesAndASourcePatternTogetherSelectWhatBothMatch(_ backend: Backend) async throws {
        // Given fetches from two URLs on one host and one on another
        let fetches = [
            Self.fetch(1, from: "http://a.example/x"), Self.fetch(2, from: "https://a.example/y"), Self.fetch(3, from: "http://b.example/z"),
        ]
        let history = try await backend(fetches)

        // When a filter names two exact sources and a host pattern
        let filter = HistoryFilter(sources: ["http://a.example/x", "http://b.example/z"], sourceMatching: "a.example")
        let listed = try await history.fetches(matching: filter, limit: nil)

        // Then only the source both select is listed
        #expect(listed.map(\.id) == [fetches[0].id])
    }

    @Test(arguments: backends)
    func aDryRunDeletesNothing(_ backend: Backend) async throws {
        // Given three fetches
        let history = try await backend(Self.three)

        // When a rule that would delete all of them is only tried
        let planned = try await history.fetchesToDelete(.startedBefore(Timestamp(millisecondsSince1970: Int64.max / 2)))

        // Then it names the three, and all three are still there
        #expect(planned.fetches == 3)
        #expect(try await history.fetches(matching: .all, limit: nil).count == 3)
    }
}

@Suite struct OnCallersThreadTests {
    @Test func everyCallIsAnsweredOnTheCallersThread() async throws {
        // Given a store answering on the caller's thread
        let store = try HistoryStore.inMemory()
        try await store.write { db in try db.importFetches { insert in try HistoryReaderContractTests.three.forEach(insert) } }
        let history = store.onCallersThread

        // When an export's body notes the thread it runs on
        let caller = pthread_self()
        let threads = Mutex<[pthread_t]>([])
        try await history.forEachFetch(matching: .all) { _ in threads.withLock { $0.append(pthread_self()) } }

        // Then every fetch was handed over on the calling thread
        #expect(threads.withLock { $0.count } == 3)
        #expect(threads.withLock { $0.allSatisfy { pthread_equal($0, caller) != 0 } })
    }

    @Test func whatRunsBeforeTheCommitCanStillUndoTheWrite() async throws {
        // Given a store whose writes run a step that fails before they commit
        struct Refused: Error {}
        let store = try HistoryStore.inMemory()
        try await store.write { db in try db.importFetches { insert in try HistoryReaderContractTests.three.forEach(insert) } }
        let history = HistoryStore.OnCallersThread(store, beforeCommit: { throw Refused() })

        // When every fetch is deleted through it
        let deletion = await Result { try await history.deleteFetches(.keepingNewest(0)) }

        // Then the deletion fails and nothing was deleted
        #expect(throws: Refused.self) { try deletion.get() }
        #expect(try await store.fetches(matching: .all, limit: nil).count == 3)
    }

    @Test func reclaimingSpaceRewritesAFileMostlyFreeAndThenSaysItIsNot() async throws {
        // Given a history file of 2,000 fetches, all but one deleted
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try HistoryStore(path: folder.appendingPathComponent("h.sqlite").path, access: .create)
        let fetches = (1...2_000).map { HistoryReaderContractTests.fetch(Int64($0)) }
        try await store.write { db in try db.importFetches { insert in try fetches.forEach(insert) } }
        let history = store.onCallersThread
        _ = try await history.deleteFetches(.keepingNewest(1))

        // When the space is reclaimed twice
        let first = try #require(try await history.reclaimSpace())
        let second = try #require(try await history.reclaimSpace())

        // Then the first rewrites the file smaller, and the second finds too little free to rewrite it
        #expect(first.outcome == .rewritten)
        #expect(first.after.bytes < first.before.bytes)
        #expect(second.outcome == .belowThreshold(minimumFreeFraction: HistoryStore.vacuumFreeFraction))
        #expect(try await history.fetches(matching: .all, limit: nil).map(\.id) == [fetches.last!.id])
    }
}

extension Result where Failure == any Error {
    init(catching body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
