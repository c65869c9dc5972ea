import Foundation
import Testing
import FetchHistory
@testable import FetchHistoryInterchange
@testable import FetchHistoryModel
@testable import FetchHistoryStore
@testable import FetchHistoryViewState

/// `--source` is answered two ways: `list` resolves the sources first
/// (`Database.sources(matching:)`, a walk of the source index), a follower
/// and `sessions` match sources as they read (GLOB patterns). Both must
/// find the same fetches.
@Suite("Source matching finds the same sources by index walk and by pattern")
struct SourceMatchStoreTests {
    static let sources = [
        "random",  // 0
        "http://127.0.0.1:8080/number",  // 1
        "https://q.example?page=2",  // 2: the host ends at ?
        "https://f.example#top",  // 3: the host ends at #
        "https://q.example.org/n",  // 4: a longer host
        "http://h/[a]",  // 5: a literal [
        "http://h/a",  // 6
        "http://h/*x",  // 7: a literal *
        "http://h/?x",  // 8: a literal ?
        "https://bare.example",  // 9: a host with nothing after it
        "http://***:***@127.0.0.1:8080/n",  // 10: a user and password, hidden when recorded
        "https://***@h/b",  // 11: a user, hidden
    ]

    static func history() throws -> HistoryStore {
        let store = try HistoryStore.inMemory()
        try store.write { db in
            try db.importFetches { insert in
                for (index, source) in sources.enumerated() {
                    let start = Timestamp(millisecondsSince1970: 1_763_805_600_000 + Int64(index) * 1000)
                    try insert(Fetch(
                        id: UUID(), sessionID: UUID(), source: source, startedAt: start,
                        endedAt: start, durationMilliseconds: 0, outcome: .succeeded(1)
                    ))
                }
            }
        }
        return store
    }

    @Test(arguments: [
        ("q.example", [2]),
        ("f.example", [3]),
        ("127.0.0.1", [1, 10]),
        ("127.0.0.1:8080", [1, 10]),
        ("http://127.0.0.1:8080/n", [1, 10]),
        ("http://bob:pw@127.0.0.1:8080/n", [10]),
        ("http://***:***@127.0.0.1:8080/", [10]),
        ("https://h/", [11]),
        ("http://h/[", [5]),
        ("http://h/[a]", [5]),
        ("http://h/*", [7]),
        ("http://h/?", [8]),
        ("http://h/", [5, 6, 7, 8]),
        ("h", [5, 6, 7, 8, 11]),
        ("RANDOM", []),
        ("Q.EXAMPLE", []),
        ("HTTP://h/a", []),
        ("bare.example", [9]),
        ("bare.exam", []),
    ])
    func bothWaysFindTheSameSources(text: String, expected: [Int]) throws {
        // Given fetches from sources whose host ends at ?, # or /, and paths with [, * and ?
        let store = try Self.history()

        // When the text is matched by index walk and by pattern
        let walked = try store.read { db in try db.sources(matching: text) }
        let patterned = try store.read { db in try db.sessionSummaries(matching: SessionFilter(sourceMatching: text)) }.map(\.session.source)

        // Then both find exactly the expected sources
        let wanted = Set(expected.map { Self.sources[$0] })
        #expect(Set(walked) == wanted, "walk: \(text)")
        #expect(Set(patterned) == wanted, "pattern: \(text)")
        #expect(patterned.count == expected.count, "pattern: \(text)")
    }

    @Test(arguments: [
        ("http://127", ["http://127.0.0.1:8080/n", "http://127.0.0.1:8080/number"]),
        ("https://h", ["https://h/b"]),
        ("http://***", []),
        ("https://b", ["https://bare.example"]),
    ])
    func completionOffersASourceWithHiddenUserInfoAsAFilterFindsIt(typed: String, expected: [String]) throws {
        // Given the same sources, two recorded with their user info hidden
        let store = try Self.history()

        // When completion lists the sources that start with what was typed
        let offered = try store.read { db in try db.sources(startingWith: typed, limit: 100) }

        // Then a hidden user info is left out of what is offered, which --source finds
        #expect(offered == expected, "\(typed)")
    }
}
