import FetchHistoryTesting
import Foundation
import Testing
import FetchHistory
@testable import FetchHistoryModel
@testable import FetchHistoryStore

/// `HistoryRecorder.recordReadingBack`: the end written, and the fetch
/// handed back as the history holds it, for a caller that prints each one.
@Suite struct HistoryRecorderReadBackTests {
    @Test func theFetchHandedBackIsTheOneTheHistoryHolds() async throws {
        // Given a fetch started in a session that began at the epoch
        let recorder = try await HistoryRecorder.inMemory()
        let id = UUID.timeOrdered()
        try await recorder.record(FetchStart(id: id, offset: .milliseconds(5)))

        // When it ends with a value and a response, read back as it is written
        let value = try FetchValue(encoding: 42)
        let fetch = try await recorder.recordReadingBack(FetchEnd(
            id: id, offset: .milliseconds(12), duration: .milliseconds(7), outcome: .succeeded(value),
            cause: .answer(value), response: SourceResponse(status: 200, bytes: 2)
        ))

        // Then it is ended, with what was recorded, and is what a read finds
        #expect(fetch.id == id)
        #expect(fetch.outcome == .succeeded(value))
        #expect(fetch.durationMilliseconds == 7)
        #expect(fetch.endedAt == Timestamp(millisecondsSince1970: 12))
        #expect(fetch.response?.status == 200)
        #expect(try await recorder.store.read { db in try db.fetch(id: id) } == fetch)
    }

    @Test func aFetchNeverStartedIsRefusedAndNothingIsWritten() async throws {
        let recorder = try await HistoryRecorder.inMemory()
        let id = UUID.timeOrdered()

        await #expect(throws: HistoryError.notRunning(id)) {
            try await recorder.recordReadingBack(FetchEnd(id: id, offset: .zero, duration: .zero, outcome: .timedOut, cause: .timeout))
        }
        #expect(try await recorder.timeline() == [])
    }
}
