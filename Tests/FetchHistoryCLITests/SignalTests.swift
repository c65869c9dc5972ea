import Foundation
import Testing

@Suite("Signals cancel the fetch in flight and record it")
struct SignalTests {
    @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func aSignalDuringAFetchRecordsItAsCancelledByTheUser(signal: Int32, expectedStatus: Int32) async throws {
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
        // cancelled by the user
        #expect(result.status == expectedStatus && !result.wasSignalled, "\(result)")
        let records = try await sandbox.exportedRecords()
        try #require(records.count == 1, "\(records)")
        #expect(records[0].id == running.id)
        #expect(records[0].outcome == "cancelled", "\(records[0])")
        #expect(records[0].cancelReason == "user", "\(records[0])")
        #expect(records[0].endedAt != nil, "\(records[0])")
        #expect(try await sandbox.listedIDs(["--outcome", "running"]).isEmpty)
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
        let child = try await sandbox.start("fetch", "--latency", "30s")
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
