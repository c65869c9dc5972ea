import CSQLite
import FetchHistoryTesting
import Foundation
import Testing
import FetchHistory
@testable import FetchHistoryInterchange
@testable import FetchHistoryModel
@testable import FetchHistoryStore
@testable import FetchHistoryViewState

/// The store at the edges of its queries: orders within one millisecond,
/// rules that select nothing or more than there is, text SQLite could cut,
/// and what a deletion leaves behind.
extension HistoryStoreTests {
    @Test func keepingMoreFetchesThanTheHistoryHoldsDeletesNothing() throws {
        // Given a history of three fetches
        for start in [1_000, 2_000, 3_000] as [Int64] { try record(.succeeded(1), at: start) }

        // When the newest three, and the newest five, are to be kept
        let planned = try store.read { db in try db.fetchesToDelete(.keepingNewest(5)) }
        let keepingAll = try store.write { db in try db.deleteFetches(.keepingNewest(3)) }
        let keepingMore = try store.write { db in try db.deleteFetches(.keepingNewest(5)) }

        // Then nothing is deleted
        #expect(planned.fetches == 0)
        #expect(keepingAll.fetches == 0)
        #expect(keepingMore.fetches == 0)
        #expect(try store.read { db in try db.fetches() }.count == 3)
    }

    @Test func aSessionThatWasAlreadyEmptyIsLeftAlone() throws {
        // Given two sessions of recorders that died: one that never fetched,
        // one whose only fetch ended
        let idle = try store.write { db in
            try db.beginSession(source: "random", at: Timestamp(millisecondsSince1970: 0), process: Self.deadRecorder)
        }
        let crashed = try store.write { db in
            try db.beginSession(source: "random", at: Timestamp(millisecondsSince1970: 0), process: Self.deadRecorder)
        }
        try record(.succeeded(1), at: 1_000, in: crashed)

        // When every fetch is deleted
        let summary = try store.write { db in try db.deleteFetches(.keepingNewest(0)) }

        // Then the session the deletion emptied goes; the one that was empty stays
        #expect(summary.fetches == 1)
        #expect(summary.sessions == 1)
        #expect(try store.read { db in try db.session(id: crashed.id) } == nil)
        #expect(try store.read { db in try db.session(id: idle.id) }?.id == idle.id)
    }

    @Test func aDeletionPutsThePageCacheBack() throws {
        // Given a history with a fetch, and its connection's page cache
        try record(.succeeded(1), at: 1_000)
        let before = try store.read { db in try db.scalarInt64("PRAGMA cache_size") }

        // When the fetch is deleted (with a larger cache, for the deletion only)
        let summary = try store.write { db in try db.deleteFetches(.keepingNewest(0)) }

        // Then the cache is as it was
        #expect(summary.fetches == 1)
        #expect(try store.read { db in try db.scalarInt64("PRAGMA cache_size") } == before)
    }

    @Test func sessionsOfOneMillisecondListTheLastRecordedFirst() throws {
        // Given two sessions begun in the same millisecond
        let history = try HistoryStore.inMemory()
        let first = try history.write { db in try db.beginSession(source: "random", at: Timestamp(millisecondsSince1970: 5_000)) }
        let second = try history.write { db in try db.beginSession(source: "random", at: Timestamp(millisecondsSince1970: 5_000)) }

        // When they are listed, all and one
        let all = try history.read { db in try db.sessionSummaries() }.map(\.session.id)
        let one = try history.read { db in try db.sessionSummaries(limit: 1) }.map(\.session.id)

        // Then the one recorded last comes first
        #expect(all == [second.id, first.id])
        #expect(one == [second.id])
    }

    @Test func textHoldingNULIsRecordedWhole() throws {
        // Given a session whose source holds a NUL, and a fetch of it
        let source = "a\u{0}b"
        let session = try store.write { db in try db.beginSession(source: source, at: Timestamp(millisecondsSince1970: 0)) }
        let id = try record(.succeeded(1), at: 1_000, in: session)

        // When it is read back and filtered for
        let fetch = try store.read { db in try db.fetch(idPrefix: id.lowercased) }
        let matching = try store.read { db in try db.fetches(matching: HistoryFilter(source: source)) }

        // Then the source is whole, and only the whole source matches it
        #expect(fetch.source == source)
        #expect(matching.map(\.id) == [id])
        #expect(try store.read { db in try db.fetches(matching: HistoryFilter(source: "a")) }.isEmpty)
    }

    @Test func anEmptyIDPrefixOrOneLongerThanAnIDIsNotAnID() throws {
        // Given a history with a fetch
        try record(.succeeded(1), at: 1_000)
        let tooLong = String(repeating: "a", count: 37)

        // When it is looked up by no prefix, and by 37 hex digits
        // Then neither is an id
        #expect(throws: HistoryError.invalidID("")) { try store.read { db in try db.fetch(idPrefix: "") } }
        #expect(throws: HistoryError.invalidID(tooLong)) { try store.read { db in try db.fetch(idPrefix: tooLong) } }
        #expect(throws: HistoryError.invalidID("")) { try store.read { db in try db.session(idPrefix: "") } }
    }

    @Test func aFollowerIsGivenImportedFetchesOldestFirst() throws {
        // Given a follower, and two fetches imported newest first
        var cursor = try store.read { db in try db.cursor() }
        let fetches = [7_000, 6_000].map { start in
            Fetch(
                id: UUID(), sessionID: UUID(), source: "random", startedAt: Timestamp(millisecondsSince1970: Int64(start)),
                endedAt: Timestamp(millisecondsSince1970: Int64(start) + 5), durationMilliseconds: 5, outcome: .succeeded(9)
            )
        }
        try store.write { db in _ = try db.importFetches { insert in try fetches.forEach(insert) } }

        // When the follower asks what ended
        let ended = try store.read { db in try db.fetchesEnded(after: &cursor, matching: HistoryFilter()) }

        // Then it is given them by start, oldest first
        #expect(ended.map(\.id) == [fetches[1].id, fetches[0].id])
    }

    @Test func aFileSpaceCountsBytesFromPages() {
        // Given a file of 8 pages of 4 KiB, 2 of them free, and an empty file
        let space = FileSpace(pageSize: 4_096, pages: 8, freePages: 2)

        // Then its sizes are counted in pages, and an empty file has nothing free
        #expect(space.bytes == 32_768)
        #expect(space.freeBytes == 8_192)
        #expect(space.freeFraction == 0.25)
        #expect(FileSpace(pageSize: 4_096, pages: 0, freePages: 0).freeFraction == 0)
    }

    @Test func spaceIsGivenBackFromTheThresholdOnAndOnlyOutsideAWrite() throws {
        // Given a new history, with no free page
        let history = try HistoryStore.inMemory()
        let untouched = try history.reclaimSpace(minimumFreeFraction: 0)

        // and then 2,000 fetches, all but 100 deleted
        try history.write { db in
            _ = try db.importFetches { insert in
                for index in 0..<2_000 {
                    let start = Timestamp(millisecondsSince1970: 1_000 + Int64(index))
                    try insert(Fetch(
                        id: UUID(), sessionID: UUID(), source: "https://numbers.example/n?page=\(index)", startedAt: start,
                        endedAt: start, durationMilliseconds: 0, outcome: .failed(String(repeating: "x", count: 200))
                    ))
                }
            }
        }
        try history.write { db in _ = try db.deleteFetches(.keepingNewest(100)) }
        let space = try history.read { db in try db.space() }
        #expect(space.freePages > 0)

        // When space is to be given back above what is free, then at exactly what is free
        let aboveThreshold = try history.reclaimSpace(minimumFreeFraction: space.freeFraction + 0.01)
        let atThreshold = try history.reclaimSpace(minimumFreeFraction: space.freeFraction)

        // Then nothing was rewritten until the threshold was reached, and then every free page went
        #expect(HistoryStore.vacuumFreeFraction == 0.25)
        #expect(!untouched)
        #expect(!aboveThreshold)
        #expect(atThreshold)
        #expect(try history.read { db in try db.space() }.freePages == 0)
        #expect(try history.read { db in try db.fetches() }.count == 100)
        #expect(throws: RetentionError.insideTransaction) {
            try history.write { db in try db.reclaimSpace(minimumFreeFraction: 0) }
        }
    }
}

extension HistoryStoreAccessTests {
    @Test func sqliteFailuresComeOutNamingTheFile() async throws {
        // Given a history
        let store = try HistoryStore.inMemory()
        func isNamed(_ error: any Error) -> Bool {
            guard case HistoryError.sqlite(let path, let underlying) = error else { return false }
            return path == ":memory:" && underlying.message == "no such table: nowhere" && underlying.primaryCode == SQLITE_ERROR
        }

        // When a read asks SQLite for a table that is not there, in either API
        // Then SQLite's error comes out as the store's, naming the file
        #expect { try store.read { db in try db.execute("SELECT * FROM nowhere") } } throws: { isNamed($0) }
        await #expect { try await store.read { db in try db.execute("SELECT * FROM nowhere") } } throws: { isNamed($0) }
    }
}

/// The SQLite decoder reads a row by `StoredFetch`'s rules, one cell at a
/// time: cells an outcome gives no meaning to are not what it reads.
extension HistoryStoreTests {
    @Test func cellsAnOutcomeDoesNotUseChangeNothingAndMissingOnesReadLeniently() throws {
        // Given ended fetches whose rows hold cells their outcome does not use, or lack one it does
        let failed = try record(.failed("HTTP 503"), at: 1_000)
        let cancelled = try record(.cancelled(.superseded), at: 2_000)
        let succeeded = try record(.succeeded(7), at: 3_000)
        let bodyAlone = try record(.failed("HTTP 500"), at: 4_000)
        try store.write { db in
            try db.execute("PRAGMA ignore_check_constraints = ON")
            try db.execute("UPDATE fetch SET value = 99, cancel_reason = 'user' WHERE id = ?", [.text(failed.lowercased)])
            try db.execute("UPDATE fetch SET cancel_reason = NULL, error = 'stray' WHERE id = ?", [.text(cancelled.lowercased)])
            try db.execute("UPDATE fetch SET value = NULL, error = 'stray' WHERE id = ?", [.text(succeeded.lowercased)])
            try db.execute(
                "UPDATE fetch SET http_status = NULL, response_bytes = 12, response_body = 'busy' WHERE id = ?",
                [.text(bodyAlone.lowercased)]
            )
            try db.execute("PRAGMA ignore_check_constraints = OFF")
        }

        // When they are read back
        let read = try store.read { db in try [failed, cancelled, succeeded, bodyAlone].map { try db.fetch(idPrefix: $0.lowercased) } }

        // Then each reads as its outcome says: the stray cells ignored, a cancel without a reason
        // the user's, a success without a value JSON null, a body without a status no response
        #expect(read[0].outcome == .failed("HTTP 503"))
        #expect(read[1].outcome == .cancelled(.user))
        #expect(read[2].outcome == .succeeded(FetchValue(validJSON: "null")))
        #expect(read[3].outcome == .failed("HTTP 500") && read[3].response == nil)
    }
}
