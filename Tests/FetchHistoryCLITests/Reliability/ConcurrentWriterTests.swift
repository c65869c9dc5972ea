import Foundation
import LoopbackServers
import Synchronization
import Testing

extension ReliabilityTests {
    @Suite("Concurrent writers lose nothing")
    struct ConcurrentWriters {
        @Test func eightProcessesRecordingIntoOneNewDatabaseLoseNoFetch() async throws {
            // Given a database that does not exist yet, and a server that holds each writer's
            // first request until all eight are waiting, so that they really run at once however
            // the machine schedules their launches
            let sandbox = try Sandbox()
            let processes = 8, fetchesEach = 300
            let seen = Mutex(Set<String>())
            let allWaiting = DispatchGroup()
            for _ in 0..<processes { allWaiting.enter() }
            let server = try LocalHTTPServer { requestLine in
                // Each connection has a thread of its own: blocking it holds that writer only.
                let writer = requestLine.split(separator: " ").dropFirst().first.map(String.init) ?? ""
                if seen.withLock({ $0.insert(writer).inserted }) { allWaiting.leave() }
                _ = allWaiting.wait(timeout: .now() + 60)
                return .answer(status: 200, body: Data("7".utf8))
            }
            defer { server.stop() }

            // When 8 processes each record 300 fetches into it
            var children: [FetchHistoryProcess] = []
            for writer in 0..<processes {
                children.append(try await sandbox.start(
                    "fetch", "--source", server.url("/writer-\(writer)"), "--count", "\(fetchesEach)", "--interval", "0",
                    "--format", "jsonl"
                ))
            }
            var results: [CLIResult] = []
            for child in children { results.append(try await child.wait(limit: .seconds(240))) }

            // Then all were alive at one moment
            let events = results.flatMap { [($0.launchedAt, 1), ($0.exitedAt, -1)] }.sorted { ($0.0, $0.1) < ($1.0, $1.1) }
            var alive = 0, peak = 0
            for (_, change) in events {
                alive += change
                peak = max(peak, alive)
            }
            #expect(peak == processes, "the writers did not all run at once")

            // and each exited 0, printed its 300 fetches and not one error or lock message
            var errors = 0
            for result in results {
                let quiet = result.standardError.isEmpty && !result.standardOutput.lowercased().contains("locked")
                if !quiet || result.status != 0 || result.wasSignalled { errors += 1 }
                #expect(result.status == 0 && !result.wasSignalled, "\(result)")
                #expect(result.standardError.isEmpty, "\(result)")
                #expect(!result.standardError.lowercased().contains("locked"), "\(result)")
                #expect(result.lines.count == fetchesEach, "\(result)")
            }

            // and the history holds every printed fetch exactly once, succeeded, in 8 sessions
            let printed = results.flatMap(\.lines)
            let exported = try await sandbox.run("export", "--format", "jsonl")
            #expect(exported.status == 0, "\(exported)")
            let records = try exported.lines.map { try ExportRecord(jsonLine: $0) }
            let ids = records.map(\.id)
            let distinct = Set(ids)
            let printedIDs = Set(try printed.map { try ExportRecord(jsonLine: $0).id })
            let lost = printedIDs.subtracting(distinct).count
            #expect(records.count == processes * fetchesEach, "\(records.count) rows")
            #expect(distinct.count == processes * fetchesEach, "\(ids.count - distinct.count) ids recorded twice")
            #expect(lost == 0, "\(lost) printed fetches are missing from the history")
            #expect(Set(printed) == Set(exported.lines), "what was printed is not what was recorded")
            let succeeded = records.filter { $0.outcome == "succeeded" }.count
            #expect(succeeded == records.count, "\(records.count - succeeded) fetches did not succeed")
            let sessions = Set(records.map(\.session)).count
            #expect(sessions == processes)
            let sessionRows = try await SQLiteProbe.integer(sandbox.database, "SELECT count(*) FROM session")
            #expect(sessionRows == Int64(processes))
            let integrity = await SQLiteProbe.integrityCheck(sandbox.database)
            #expect(integrity == "ok")

            Reliability.summary(
                "concurrent writers: \(processes) processes (up to \(peak) at once) × \(fetchesEach) fetches = \(distinct.count) recorded "
                    + "(\(succeeded) succeeded, \(sessions) sessions), \(lost) lost, \(records.count - distinct.count) duplicated, "
                    + "\(errors) processes with errors, integrity \(integrity)"
            )
        }
    }
}
