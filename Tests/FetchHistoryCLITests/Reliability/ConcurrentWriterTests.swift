import Foundation
import LoopbackServers
import Synchronization
import Testing

extension ReliabilityTests {
    @Suite("Concurrent writers lose nothing")
    struct ConcurrentWriters {
        @Test func eightProcessesRecordingIntoOneNewDatabaseLoseNoFetch() async throws {
            // Given a database that does not exist yet, and a server that holds each writer's
            // first request until all eight are waiting, so that they really run at once
            let sandbox = try Sandbox()
            let processes = 8, fetchesEach = 300
            let seen = Mutex(Set<String>())
            let allWaiting = DispatchGroup()
            for _ in 0..<processes { allWaiting.enter() }
            let allAtOnce = Mutex(true)
            let server = try LocalHTTPServer { requestLine in
                // Each connection has a thread of its own: blocking it holds that writer only.
                let writer = requestLine.split(separator: " ").dropFirst().first.map(String.init) ?? ""
                if seen.withLock({ $0.insert(writer).inserted }) { allWaiting.leave() }
                if allWaiting.wait(timeout: .now() + 50) == .timedOut { allAtOnce.withLock { $0 = false } }
                return .answer(status: 200, body: Data("7".utf8))
            }
            defer { server.stop() }

            // When 8 processes each record 300 fetches into it, started together by one shell (one
            // launch: the tests' launches wait their turn, seconds each on a loaded machine, which
            // held the first writers' requests past the client's 60 s idle timeout)
            let writers = (0..<processes).map { server.url("/writer-\($0)") }
            let script = """
                bin=$1; shift; i=0
                for url in "$@"; do
                    ("$bin" fetch --source "$url" --count \(fetchesEach) --interval 0 --format jsonl >out-$i 2>err-$i
                     echo $? >status-$i) &
                    i=$((i + 1))
                done
                wait
                """
            let shell = try await FetchHistoryProcess.start(
                arguments: ["-c", script, "sh", FetchHistoryProcess.binary.path] + writers, environment: sandbox.environment(),
                workingDirectory: sandbox.root, executable: URL(fileURLWithPath: "/bin/sh")
            ).wait(limit: .seconds(240))
            #expect(shell.status == 0, "\(shell)")
            let results = try (0..<processes).map { writer in
                try WriterResult(
                    status: String(contentsOfFile: sandbox.path("status-\(writer)"), encoding: .utf8),
                    output: String(contentsOfFile: sandbox.path("out-\(writer)"), encoding: .utf8),
                    errors: String(contentsOfFile: sandbox.path("err-\(writer)"), encoding: .utf8)
                )
            }

            // Then all were waiting on the server at one moment
            let peak = allAtOnce.withLock { $0 } ? processes : 0
            #expect(peak == processes, "the writers did not all run at once")

            // and each exited 0, printed its 300 fetches and not one error or lock message: standard
            // error holds the run's summary line alone, every fetch succeeded
            let summary = "\(fetchesEach) fetches: \(fetchesEach) succeeded; p50 "
            var errors = 0
            for result in results {
                let onlySummary = result.errors.hasPrefix(summary) && result.errors.count { $0 == "\n" } == 1
                let quiet = onlySummary && !result.output.lowercased().contains("locked")
                if !quiet || result.status != "0\n" { errors += 1 }
                #expect(result.status == "0\n", "\(result)")
                #expect(onlySummary, "\(result)")
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

/// What one writer left behind: its exit status (a line), its standard output and error.
private struct WriterResult: CustomStringConvertible {
    var status: String
    var output: String
    var errors: String

    var lines: [String] { output.split(separator: "\n").map(String.init) }
    var description: String { "exit \(status.trimmingCharacters(in: .whitespacesAndNewlines)); stderr: \(errors); stdout: \(output.prefix(2_000))" }
}
