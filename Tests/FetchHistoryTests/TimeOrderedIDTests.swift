import FetchHistory
import FetchHistoryTesting
import Foundation
import Testing

@Suite struct TimeOrderedIDTests {
    /// The Unix millisecond an id carries: its first 4 bytes are the low
    /// half, the next 2 the high half.
    static func millisecond(of id: UUID) -> Int64 {
        let bytes = withUnsafeBytes(of: id.uuid) { Array($0) }
        let low = bytes[0..<4].reduce(Int64(0)) { $0 << 8 | Int64($1) }
        let high = bytes[4..<6].reduce(Int64(0)) { $0 << 8 | Int64($1) }
        return high << 32 | low
    }

    @Test func idsMadeOneAfterAnotherSortInThatOrderAndDifferInTheirFirstEightCharacters() {
        // When ids are made one after another, many within one millisecond
        let ids = (0..<2_000).map { _ in UUID.timeOrdered().lowercased }

        // Then their text sorts in the order they were made, and the 8
        // characters `list` shows tell every one apart
        #expect(ids.sorted() == ids)
        #expect(Set(ids.map { $0.prefix(8) }).count == ids.count)
    }

    @Test func anIDCarriesTheMillisecondItWasMadeAtAndIsAVersion8UUID() {
        let before = Timestamp.now.millisecondsSince1970

        let id = UUID.timeOrdered()

        // Later than `before`, and not by much: other tests' ids may have
        // moved this process's id clock on by a millisecond each.
        let millisecond = Self.millisecond(of: id)
        #expect(millisecond >= before && millisecond < before + 60_000, "\(millisecond) vs \(before)")
        #expect(id.uuid.6 >> 4 == 8, "version")
        #expect(id.uuid.8 >> 6 == 0b10, "variant")
        #expect(UUID(uuidString: id.lowercased) == id)
    }

    @MainActor
    @Test func aViewStateRecordsItsFetchesAndSessionWithTimeOrderedIDs() async throws {
        // Given a view state recording into a history
        let before = Timestamp.now.millisecondsSince1970
        let recorder = try await HistoryRecorder.inMemory()
        let viewState = FetchViewState(client: APIClientStubWithTaskYield(returning: 7), recorder: recorder, clock: ManualClock())

        // When it fetches 20 times
        _ = try await withTimeout { try await viewState.fetch(count: 20, interval: .zero) }

        // Then the session's and the fetches' ids were made at recording
        // time, and the fetches' ids sort in the order they were recorded
        let session = recorder.session
        let ids = try await recorder.store.read { db in
            var ids: [UUID] = []
            try db.forEachFetch(matching: HistoryFilter(sessionID: session.id)) { ids.append($0.id) }
            return ids
        }
        #expect(ids.count == 20)
        #expect(ids.map(\.lowercased).sorted() == ids.map(\.lowercased))
        let after = Timestamp.now.millisecondsSince1970
        for id in ids + [session.id] {
            // Other tests' ids may have moved this process's id clock on by
            // a millisecond each: a few seconds at most.
            #expect((before..<after + 60_000).contains(Self.millisecond(of: id)), "\(id)")
        }
    }
}
