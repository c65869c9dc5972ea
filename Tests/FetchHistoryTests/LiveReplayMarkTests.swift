import FetchHistoryTesting
import Foundation
import Testing
import FetchHistory
@testable import FetchHistoryInterchange
@testable import FetchHistoryModel
@testable import FetchHistoryStore
@testable import FetchHistoryReplay
@testable import FetchHistoryViewState

/// The marks `replay --live` leaves on the sessions it records.
@Suite struct LiveReplayMarkTests {
    let store: HistoryStore
    let recorded: Session
    let live: Session

    init() throws {
        store = try .inMemory()
        (recorded, live) = try store.write { db in
            let recorded = try db.beginSession(source: "random", at: Timestamp(millisecondsSince1970: 1_000))
            let live = try db.beginSession(source: "random", at: Timestamp(millisecondsSince1970: 2_000))
            try db.markLiveReplay(live.id, of: recorded.id)
            return (recorded, live)
        }
    }

    @Test func theNewestRecordedSessionSkipsLiveReRuns() throws {
        let (newest, newestRecorded) = try store.read { db in (try db.newestSession(), try db.newestRecordedSession()) }
        #expect(newest?.id == live.id)
        #expect(newestRecorded?.id == recorded.id)
    }

    @Test func aHistoryOfLiveReRunsOnlyHasNoRecordedSession() throws {
        let only = try HistoryStore.inMemory()
        let found = try only.write { db in
            let session = try db.beginSession(source: "random", at: Timestamp(millisecondsSince1970: 1_000))
            try db.markLiveReplay(session.id, of: UUID())
            return try db.newestRecordedSession()
        }
        #expect(found == nil)
    }

    @Test func deletingASessionDeletesItsMarkAndDeletingTheOriginalKeepsIt() throws {
        // Given the live re-run's mark; when the original session is deleted, then the
        // re-run is still marked; when the re-run is deleted, its mark goes with it
        // (foreign keys are on: a dangling mark would refuse the delete)
        try store.write { db in
            try db.execute("DELETE FROM session WHERE id = ?", [.text(recorded.id.lowercased)])
            #expect(try db.scalarInt64("SELECT count(*) FROM live_replay") == 1)
            #expect(try db.newestRecordedSession() == nil)
            try db.execute("DELETE FROM session WHERE id = ?", [.text(live.id.lowercased)])
            #expect(try db.scalarInt64("SELECT count(*) FROM live_replay") == 0)
        }
    }

    @MainActor @Test func aRecorderMadeForASessionAlreadyBegunRecordsIntoIt() async throws {
        // Given a recorder for the live session, begun (and marked) beforehand
        let recorder = HistoryRecorder(store: store, session: live)

        // When a view state records a fetch through it
        let viewState = FetchViewState(client: YieldingStub(returning: 7), recorder: recorder, clock: ManualClock())
        try await viewState.fetch()

        // Then the fetch belongs to that session, and no session was begun for it
        let (fetches, sessions) = try await store.read { db in
            (try db.fetches(matching: HistoryFilter(sessionID: self.live.id)), try db.scalarInt64("SELECT count(*) FROM session"))
        }
        #expect(fetches.map(\.value) == [7])
        #expect(sessions == 2)
    }
}
