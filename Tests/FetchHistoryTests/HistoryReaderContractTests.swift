import Foundation
import Synchronization
import Testing
import FetchHistory

/// What every history behind the commands' seam (`HistoryReader`,
/// `HistoryWriter`) must do, written against the protocols alone: each test
/// takes a factory, so a second backend runs the same checks.
@Suite struct HistoryReaderContractTests {
    /// Makes a history holding `fetches`, behind the seam.
    typealias Backend = @Sendable (_ fetches: [Fetch]) async throws -> any HistoryWriter

    static let sqlite: Backend = { fetches in
        let store = try HistoryStore.inMemory()
        try await store.write { db in try db.importFetches { insert in try fetches.forEach(insert) } }
        return store
    }

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

    @Test(arguments: [sqlite])
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

    @Test(arguments: [sqlite])
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

    @Test(arguments: [sqlite])
    func statisticsCountEachOutcome(_ backend: Backend) async throws {
        // Given two fetches that succeeded and one that failed
        let history = try await backend(Self.three)

        // When the statistics are read
        let statistics = try await history.statistics(matching: .all)

        // Then each outcome is counted
        #expect(statistics.total == 3)
        #expect(statistics.counts == [.succeeded: 2, .failed: 1])
    }

    @Test(arguments: [sqlite])
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

extension Result where Failure == any Error {
    init(catching body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
