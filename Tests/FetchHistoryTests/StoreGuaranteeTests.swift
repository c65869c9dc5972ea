import CSQLite
import Foundation
import Testing
import FetchHistory
@testable import FetchHistoryInterchange
@testable import FetchHistoryModel
@_spi(Benchmarks) @testable import FetchHistoryStore
@testable import FetchHistoryViewState

/// What `HistoryStore` promises beyond its queries: snapshots, and failures
/// as values an app can switch over.
@Suite struct StoreGuaranteeTests {
    @Test func aReadCannotChangeTheHistory() throws {
        // Given a history of one fetch
        let store = try HistoryStore.inMemory()
        let session = try store.write { db in try db.beginSession(source: "random") }
        try store.write { db in try db.recordStart(of: UUID(), in: session, at: .now) }

        // When a read tries to delete it, by a statement and by a script
        let byStatement = #expect(throws: HistoryError.self) { try store.read { db in try db.execute("DELETE FROM fetch") } }
        let byScript = #expect(throws: HistoryError.self) { try store.read { db in try db.executeScript("DELETE FROM fetch") } }

        // Then SQLite's read-only code is thrown, the fetch is still there and writes go on
        for refusal in [byStatement, byScript] {
            guard case .sqlite(_, let error) = refusal else { Issue.record("not a SQLite error: \(String(describing: refusal))"); continue }
            #expect(error.primaryCode == SQLITE_READONLY)
        }
        #expect(try store.read { db in try db.fetches() }.count == 1)
        try store.write { db in try db.recordStart(of: UUID(), in: session, at: .now) }
        #expect(try store.read { db in try db.fetches() }.count == 2)
    }

    @Test func readsBetweenWritesDoNotMakeTheWritesCompileTheirSQLAgain() throws {
        // Given a store whose recording statements are prepared
        let store = try HistoryStore.inMemory()
        let session = try store.write { db in try db.beginSession(source: "random") }
        let id = UUID()
        try store.write { db in try db.recordStart(of: id, in: session, at: .now) }

        // When reads come between writes, as `fetch` reads back each fetch it recorded
        for _ in 0..<3 {
            _ = try store.read { db in try db.fetches() }
            try store.write { db in try db.recordStart(of: UUID(), in: session, at: .now) }
        }

        // Then SQLite never had to prepare the write again (a statement
        // expired by the reads is re-prepared on its next step)
        let repreparations = try store.write { db in
            sqlite3_stmt_status(try db.prepare(HistorySQL.insertFetch).handle, Int32(SQLITE_STMTSTATUS_REPREPARE), 0)
        }
        #expect(repreparations == 0)
    }

    @Test func everyQueryOfOneReadSeesTheSameSnapshot() throws {
        // Given one fetch in a file, and a second store on the same file
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appending(path: "history.sqlite").path
        let reader = try HistoryStore(path: path, access: .create)
        let writer = try HistoryStore(path: path, access: .readWrite)
        let session = try writer.write { db in try db.beginSession(source: "random") }
        try writer.write { db in try db.recordStart(of: UUID(), in: session, at: .now) }

        // When the second store records a fetch between two queries of one read
        let counts = try reader.read { db in
            let before = try db.fetches().count
            try writer.write { db in try db.recordStart(of: UUID(), in: session, at: .now) }
            return (before, try db.fetches().count)
        }

        // Then both queries saw the one fetch; the next read sees both
        #expect(counts.0 == 1 && counts.1 == 1)
        #expect(try reader.read { db in try db.fetches().count } == 2)
    }

    @Test func aWriteInsideAReadIsRefusedAndWritesNothing() throws {
        // Given an empty history in a file
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try HistoryStore(path: folder.appending(path: "history.sqlite").path, access: .create)

        // When a read tries to begin a session
        let attempt = Result { try store.read { db in try db.beginSession(source: "random") } }

        // Then SQLite refused it, nothing was written, and a write still writes
        #expect(throws: HistoryError.self) { try attempt.get() }
        #expect(try store.read { db in try db.newestSession() } == nil)
        let session = try store.write { db in try db.beginSession(source: "random") }
        #expect(try store.read { db in try db.newestSession() }?.id == session.id)
    }

    @Test(arguments: [
        (SQLITE_BUSY, HistoryError.locked(path: "h.sqlite")),
        (SQLITE_LOCKED, .locked(path: "h.sqlite")),
        (SQLITE_BUSY | (2 << 8), .locked(path: "h.sqlite")),
        (SQLITE_FULL, .full(path: "h.sqlite")),
    ])
    func sqlitesLockAndFullErrorsAreTheirOwnValues(code: Int32, expected: HistoryError) {
        // Given SQLite's error for a lock held too long or a full disk
        let error = SQLiteError(code: code, message: "from SQLite")

        // When the store names it
        let named = HistoryError(error, path: "h.sqlite")

        // Then it is the value an app switches over, and says the write was not made
        #expect(named == expected)
        #expect(named.description.hasSuffix("the write was not made"))
    }

    @Test func aLockedStoreSaysHowLongItWaited() {
        #expect(HistoryError.locked(path: "h.sqlite").description
            == "h.sqlite stayed locked by other processes for more than 30 seconds; the write was not made")
    }

    @Test func aDamagedFileIsRefusedAsDamagedAndLeftAsItWas() throws {
        // Given a history whose header names an impossible page size
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appending(path: "history.sqlite").path
        try HistoryStore(path: path, access: .create).write { db in _ = try db.beginSession(source: "random") }
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        bytes[16] = 0x00
        bytes[17] = 0x03
        try bytes.write(to: URL(fileURLWithPath: path))

        // When it is opened for writing
        // Then it is refused as damaged, keeping SQLite's error, and not written to
        do {
            _ = try HistoryStore(path: path, access: .readWrite)
            Issue.record("a damaged file was opened")
        } catch {
            guard case .cannotOpen(path, .damaged(let underlying)) = error else {
                Issue.record("expected .damaged, got \(error)")
                return
            }
            #expect([SQLITE_CORRUPT, SQLITE_NOTADB].contains(underlying.primaryCode), "\(underlying)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
    }
}

extension StoreGuaranteeTests {
    /// The one test that holds a lock for a set time: what it proves is that
    /// a write outlasts SQLite's busy timeout, so the lock must be held past it.
    @Test func aWriteWaitsOutALockHeldLongerThanOneBusyTimeout() async throws {
        // Given a history whose write lock another connection holds, and a store whose busy
        // timeout is a millisecond and whose pause before the next try tells the test it began
        // and waits for the test to let it end
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appending(path: "history.sqlite").path
        _ = try HistoryStore(path: path, access: .create)
        let (paused, pausing) = AsyncStream.makeStream(of: UInt32.self)
        let resume = DispatchSemaphore(value: 0)
        let store = try HistoryStore(
            path: path, access: .readWrite, migrator: Migrator(),
            lockWait: Database.LockWait(timeoutMilliseconds: 1) { microseconds in
                pausing.yield(microseconds)
                resume.wait()
            }
        )
        let holder = try Database(path: path, access: .readWrite)
        try holder.execute("BEGIN IMMEDIATE")

        // When a write starts, outlasts its busy timeout, and the lock is let go during its pause
        let write = Task { try await store.write { db in try db.beginSession(source: "random") } }
        let pause = try await withTimeout { await paused.first { _ in true } }
        try holder.execute("ROLLBACK")
        resume.signal()

        // Then the write was retried after the first pause (50-100 ms) and made
        let session = try await withTimeout { try await write.value }
        #expect((50_000...100_000).contains(pause ?? 0), "\(String(describing: pause))")
        #expect(try await store.read { db in try db.session(id: session.id) } == session)
    }
}
