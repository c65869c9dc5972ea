import Foundation
import Testing
@testable import FetchHistory

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
}
