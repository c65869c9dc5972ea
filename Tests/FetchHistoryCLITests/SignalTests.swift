import FetchHistory
import Foundation
import LoopbackServers
import Synchronization
import Testing

@Suite("Signals cancel the fetch in flight and record it")
struct SignalTests {
    @Test(arguments: [(SIGINT, Int32(130), "user", "by the user"), (SIGTERM, Int32(143), "terminated", "terminated")])
    func aSignalDuringAFetchRecordsItAsCancelledForItsReason(signal: Int32, expectedStatus: Int32, reason: String, shown: String) async throws {
        // Given a fetch that would take a day, recorded as running
        let sandbox = try Sandbox()
        let child = try await sandbox.start("fetch", "--latency", "1d")
        let running = try await sandbox.waitForFetch(of: child)
        let listedRunning = try await sandbox.listedIDs(["--outcome", "running"])
        #expect(listedRunning == [running.id], "list --outcome running shows the live fetch")

        // When the signal arrives
        child.send(signal)
        let result = try await child.wait()

        // Then it exits 128 + signal (long before the day is up), and the fetch is recorded as
        // cancelled: by the user at the terminal (Ctrl-C), or because the program was told to stop
        // (SIGTERM: a shutdown, a CI time limit), which nobody at a terminal did
        #expect(result.status == expectedStatus && !result.wasSignalled, "\(result)")
        let records = try await sandbox.exportedRecords()
        try #require(records.count == 1, "\(records)")
        #expect(records[0].id == running.id)
        #expect(records[0].outcome == "cancelled", "\(records[0])")
        #expect(records[0].cancelReason == reason, "\(records[0])")
        #expect(records[0].endedAt != nil, "\(records[0])")
        #expect(try await sandbox.succeed("list").lines.last?.contains("  cancelled  \(shown)  ") == true)
        #expect(try await sandbox.listedIDs(["--outcome", "running"]).isEmpty)
    }

    @Test func aSecondCtrlCEndsTheProcessAtOnceWhileTheFirstIsStillBeingRecorded() async throws {
        // Given an HTTP fetch in flight, recorded as running, and the history's write lock held by
        // another connection, so that recording a cancellation would wait (10 s, three times)
        let server = try HangUpServer()
        defer { server.stop() }
        let sandbox = try Sandbox()
        let child = try await sandbox.start("fetch", "--source", server.url)
        let running = try await sandbox.waitForFetch(of: child)
        try #require(await server.waitForRequest(), "the fetch never asked the server")
        let lock = try await HistoryWriteLock.take(sandbox.database)
        defer { lock.release() }

        // When Ctrl-C arrives, is taken (the fetch's request is dropped: the first Ctrl-C
        // cancelled it), and arrives again (two sent within a millisecond or so arrive as one,
        // measured: hence the wait for a sign that the first was taken)
        child.send(SIGINT)
        try #require(await server.waitForHangUp(), "the first Ctrl-C did not cancel the request")
        child.send(SIGINT)
        let result = try await child.wait()
        lock.release()

        // Then the second one ended the process itself, by SIGINT, without waiting for the lock,
        // so the cancellation was never recorded: the fetch reads as interrupted
        #expect(result.wasSignalled && result.status == SIGINT, "\(result)")
        let records = try await sandbox.exportedRecords()
        #expect(records.map(\.id) == [running.id], "\(records)")
        #expect(records.map(\.outcome) == ["interrupted"], "\(records)")
    }

    @Test func sigintBetweenFetchesExits130WithoutStartingTheNextFetch() async throws {
        // Given the first of two fetches done and a day's pause before the second
        let sandbox = try Sandbox()
        let child = try await sandbox.start("fetch", "--count", "2", "--interval", "1d", "--latency", "0")
        let first = try await sandbox.waitForFetch("succeeded", of: child)

        // When Ctrl-C arrives during the pause
        child.send(SIGINT)
        let result = try await child.wait()

        // Then it exits 130 (long before the day is up), and the history holds only the first fetch
        #expect(result.status == 130 && !result.wasSignalled, "\(result)")
        #expect(!result.standardError.contains("error"), "\(result)")
        let records = try await sandbox.exportedRecords()
        #expect(records.map(\.id) == [first.id], "\(records)")
    }

    @Test func aFetchWhoseProcessWasKilledReadsAsInterrupted() async throws {
        // Given a fetch recorded as running
        let sandbox = try Sandbox()
        let child = try await sandbox.start("fetch", "--latency", "1d")
        let running = try await sandbox.waitForFetch(of: child)

        // When its process is killed outright, with no chance to record an end
        child.send(SIGKILL)
        let result = try await child.wait()
        #expect(result.wasSignalled && result.status == SIGKILL, "\(result)")

        // Then the fetch lists as interrupted, with no end, and no longer as running
        #expect(try await sandbox.listedIDs(["--outcome", "interrupted"]) == [running.id])
        #expect(try await sandbox.listedIDs(["--outcome", "running"]).isEmpty)
        let records = try await sandbox.exportedRecords()
        #expect(records.map(\.outcome) == ["interrupted"], "\(records)")
        #expect(records.first?.endedAt == nil && records.first?.durationMs == nil, "\(records)")
    }
}

/// An HTTP server on 127.0.0.1 that never answers: it says when a request
/// came, and when the client hung up on it (a cancelled fetch drops its
/// connection).
private final class HangUpServer: @unchecked Sendable {
    // Unchecked: the groups are entered once in init, then only left.

    var port: UInt16 { listener.port }
    private let listener: LoopbackListener
    private let seen = Mutex<(request: Bool, hangUp: Bool)>((false, false))
    /// Left when the first request's head has been read, or the server ended.
    private let requested = DispatchGroup()
    /// Left when the client of that request closed its connection, or the server ended.
    private let hungUp = DispatchGroup()

    init() throws {
        listener = try LoopbackListener()
        requested.enter()
        hungUp.enter()
        Thread { [self] in serveTheFirstConnection() }.start()
    }

    deinit { stop() }

    var url: String { "http://127.0.0.1:\(port)/n" }

    /// Whether a request came within `limit`.
    func waitForRequest(limit: Duration = FetchHistoryProcess.defaultTimeLimit) async -> Bool {
        await FetchHistoryProcess.wait(for: requested, limit: limit) && seen.withLock { $0.request }
    }

    /// Whether the client hung up within `limit`.
    func waitForHangUp(limit: Duration = FetchHistoryProcess.defaultTimeLimit) async -> Bool {
        await FetchHistoryProcess.wait(for: hungUp, limit: limit) && seen.withLock { $0.hangUp }
    }

    func stop() {
        listener.stop()
    }

    private var isStopped: Bool { listener.isStopped }

    private func serveTheFirstConnection() {
        var (requestLeft, hangUpLeft) = (false, false)
        // Both groups are left on every way out: a group released while entered crashes.
        defer {
            if !requestLeft { requested.leave() }
            if !hangUpLeft { hungUp.leave() }
            listener.close()
        }
        guard let connection = listener.nextConnection() else { return }
        defer { close(connection) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        var head = Data()
        var pollDescriptor = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
        while !isStopped {
            guard poll(&pollDescriptor, 1, 100) > 0 else { continue }
            let count = read(connection, &buffer, buffer.count)
            if count <= 0 {
                seen.withLock { $0.hangUp = true }
                hangUpLeft = true
                hungUp.leave()
                return
            }
            head.append(contentsOf: buffer[0..<count])
            if !requestLeft, head.range(of: Data("\r\n\r\n".utf8)) != nil {
                seen.withLock { $0.request = true }
                requestLeft = true
                requested.leave()
            }
        }
    }
}

/// Another connection's write transaction on a history (`BEGIN IMMEDIATE`),
/// held on a thread of its own, since SQLite's calls block, until released.
private final class HistoryWriteLock: @unchecked Sendable {
    // Unchecked: the semaphore and the mutex are the only state shared with the thread.

    private let releasing = DispatchSemaphore(value: 0)
    private let released = Mutex(false)

    private init() {}

    /// Returns once the lock is held.
    static func take(_ path: String) async throws -> HistoryWriteLock {
        let lock = HistoryWriteLock()
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            Thread {
                let database: Database
                do {
                    database = try Database(path: path, access: .readWrite)
                    try database.execute("BEGIN IMMEDIATE")
                } catch {
                    continuation.resume(throwing: error)
                    return
                }
                continuation.resume()
                lock.releasing.wait()
                try? database.execute("ROLLBACK")
            }.start()
        }
        return lock
    }

    /// Rolls the transaction back; only the first call counts.
    func release() {
        let wasReleased = released.withLock { value in
            defer { value = true }
            return value
        }
        if !wasReleased { releasing.signal() }
    }
}
