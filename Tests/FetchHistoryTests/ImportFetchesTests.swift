import Foundation
import Testing
import FetchHistory
@testable import FetchHistoryInterchange
@testable import FetchHistoryModel
@_spi(Benchmarks) @testable import FetchHistoryStore
@testable import FetchHistoryViewState

@Suite("HistoryStore.importFetches skips what the history has and refuses ids used twice")
struct ImportFetchesTests {
    let store: HistoryStore

    init() throws {
        store = try .inMemory()
    }

    static func fetch(_ number: Int64) -> Fetch {
        let at = Timestamp(millisecondsSince1970: 1_763_805_600_000 + number * 1000)
        return Fetch(
            id: UUID(), sessionID: UUID(uuid: (1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)), source: "random",
            startedAt: at, endedAt: at.advanced(by: .milliseconds(5)), durationMilliseconds: 5,
            outcome: .succeeded(FetchValue(Int(number)))
        )
    }

    @discardableResult
    func importing(_ fetches: [Fetch]) throws -> ImportSummary {
        try store.write { db in
            try db.importFetches { insert in
                for fetch in fetches { try insert(fetch) }
            }
        }
    }

    @Test func anIdUsedTwiceInAnExportIsRefusedWithTheSecondRecordsPlace() throws {
        // Given an indented JSON array whose third record reuses the first one's id
        let first = Self.fetch(1)
        var again = Self.fetch(3)
        again.id = first.id
        let lines = "[\n" + [first, Self.fetch(2), again].map { "  " + FetchJSON.string($0) }.joined(separator: ",\n") + "\n]\n"

        // When it is imported
        // Then the error names the third record, its line and column, and the first record; nothing is added
        #expect(throws: ImportError(
            line: 4, column: 3, record: 3, message: "the id \(first.id.lowercased) was already used by record 1"
        )) {
            try store.write { db in try db.importFetches(from: FetchRecordReader(data: Data(lines.utf8))) }
        }
        #expect(try count() == 0)
    }

    func count() throws -> Int {
        try store.read { db in try db.fetches() }.count
    }

    @Test func anIdUsedTwiceInOneImportIsRefusedWithTheRecordThatUsedItFirst() throws {
        // Given an import whose third fetch reuses the first one's id
        let first = Self.fetch(1)
        var again = Self.fetch(3)
        again.id = first.id

        // When it is imported
        // Then it is refused, naming the first record, and nothing is added
        #expect(throws: RepeatedFetchID(id: first.id, firstRecord: 1)) { try importing([first, Self.fetch(2), again]) }
        #expect(try count() == 0)
    }

    @Test func anIdTheHistoryHadUsedTwiceInOneImportIsRefusedToo() throws {
        // Given a history holding one fetch, and an import that holds it twice
        let known = Self.fetch(1)
        try importing([known])

        // When it is imported
        // Then the second use is refused, naming the first, and nothing more is added
        #expect(throws: RepeatedFetchID(id: known.id, firstRecord: 2)) {
            try importing([Self.fetch(2), known, Self.fetch(3), known])
        }
        #expect(try count() == 1)
    }

    @Test func recordNumbersCountTheSkippedFetches() throws {
        // Given a history with two fetches, and an import that mixes them
        // with new ones, the second new one used twice
        let known = [Self.fetch(1), Self.fetch(2)]
        try importing(known)
        let new = [Self.fetch(3), Self.fetch(4), Self.fetch(5)]
        let fetches = [known[0], new[0], known[1], new[1], new[2], new[1]]

        // When it is imported
        // Then the repeat names record 4, where the second new fetch was
        #expect(throws: RepeatedFetchID(id: new[1].id, firstRecord: 4)) { try importing(fetches) }
        #expect(try count() == 2)
    }

    @Test func importingTheSameFetchesAgainSkipsThemAndLaterImportsStillCheck() throws {
        // Given a history imported from three fetches
        let fetches = [Self.fetch(1), Self.fetch(2), Self.fetch(3)]
        try importing(fetches)

        // When they are imported again, twice
        let second = try importing(fetches)
        let third = try importing(fetches + [Self.fetch(4)])

        // Then every repeat is skipped and only the new one added
        #expect(second == ImportSummary(added: 0, skipped: 3))
        #expect(third == ImportSummary(added: 1, skipped: 3))
        #expect(throws: RepeatedFetchID(id: fetches[0].id, firstRecord: 1)) { try importing(fetches + [fetches[0]]) }
        #expect(try count() == 4)
    }

    /// What an import may change besides rows: the schema (indexes are
    /// dropped and built again) and the connection's page cache.
    func schemaAndCache() throws -> [String] {
        try store.read { db in
            try db.rows("SELECT type || ' ' || name || ' ' || coalesce(sql, '') FROM sqlite_schema ORDER BY type, name") { $0.text(0) }
                + ["cache_size \(try db.scalarInt64("PRAGMA cache_size"))"]
        }
    }

    func schemaVersion() throws -> Int64 {
        try store.read { db in try db.scalarInt64("PRAGMA schema_version") }
    }

    @Test func anImportIntoASmallHistoryBuildsItsIndexesAfterItsRowsAndLeavesThemAsMigrationsMadeThem() throws {
        // Given an empty history
        let before = try schemaAndCache()
        let version = try schemaVersion()

        // When fetches are imported
        try importing((1...50).map(Self.fetch))

        // Then its indexes were dropped and made again (the schema changed
        // while the rows went in), exactly as they were, and the page cache
        // is back to what it was
        #expect(try schemaVersion() > version)
        #expect(try schemaAndCache() == before)
        #expect(before.contains { $0.hasPrefix("index fetch_by_start ") })
        // and every listing and count reads them
        #expect(try store.read { db in try db.fetches(limit: 3) }.map(\.outcome) == [.succeeded(50), .succeeded(49), .succeeded(48)])
        #expect(try store.read { db in try db.statistics() }.counts[.succeeded] == 50)
    }

    @Test func aRefusedImportLeavesTheIndexesAndThePageCacheAsTheyWere() throws {
        // Given an empty history
        let before = try schemaAndCache()

        // When an import is refused half-way (an id used twice)
        let first = Self.fetch(1)
        var again = Self.fetch(2)
        again.id = first.id
        #expect(throws: RepeatedFetchID.self) { try importing([first, again]) }

        // Then nothing of it is left: not a row, not a dropped index, not its cache
        #expect(try schemaAndCache() == before)
        #expect(try count() == 0)
    }

    @Test func anImportIntoALargeHistoryWritesIntoItsLiveIndexesAndStillTellsRepeatsFromKnownIDs() throws {
        // Given a history as large as an import keeps its indexes for
        let known = (1...ImportBatch.deferIndexesBelow).map(Self.fetch)
        try importing(known)
        let version = try schemaVersion()
        let before = try schemaAndCache()

        // When fetches are imported, known ones among them; then imports
        // that use a new id twice, and a known id twice
        let new = [Self.fetch(-1), Self.fetch(-2)]
        let summary = try importing([new[0], known[5], new[1], known[9]])
        let repeated = Self.fetch(-3)
        #expect(throws: RepeatedFetchID(id: repeated.id, firstRecord: 2)) {
            try importing([known[0], repeated, Self.fetch(-4), repeated])
        }
        #expect(throws: RepeatedFetchID(id: new[1].id, firstRecord: 3)) {
            try importing([known[0], Self.fetch(-5), new[1], known[1], new[1]])
        }

        // Then the indexes were never rebuilt, known ids were skipped and
        // each repeat was told from them, with its first record
        #expect(summary == ImportSummary(added: 2, skipped: 2))
        #expect(try schemaVersion() == version)
        #expect(try schemaAndCache() == before)
        #expect(try count() == known.count + 2)
    }
}
