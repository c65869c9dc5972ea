import Foundation
import Testing
import FetchHistory
@testable import FetchHistoryInterchange
@testable import FetchHistoryModel
@testable import FetchHistoryStore
@testable import FetchHistoryViewState

/// `--source` is answered two ways: `list` resolves the sources first
/// (`Database.sources(matching:)`, a walk of the source index), a follower
/// matches sources recorded later (`HistoryFilter.sourceMatching`, GLOB
/// patterns). Both must find the same fetches.
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
        ("127.0.0.1", [1]),
        ("http://h/[", [5]),
        ("http://h/[a]", [5]),
        ("http://h/*", [7]),
        ("http://h/?", [8]),
        ("http://h/", [5, 6, 7, 8]),
        ("h", [5, 6, 7, 8]),
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
        let patterned = try store.read { db in try db.fetches(matching: HistoryFilter(sourceMatching: text)) }.map(\.source)

        // Then both find exactly the expected sources
        let wanted = Set(expected.map { Self.sources[$0] })
        #expect(Set(walked) == wanted, "walk: \(text)")
        #expect(Set(patterned) == wanted, "pattern: \(text)")
        #expect(patterned.count == expected.count, "pattern: \(text)")
    }
}
