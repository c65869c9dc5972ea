import Foundation
import LoopbackServers
import Synchronization
import Testing

/// The HTTP source, against a server on 127.0.0.1 run by the test.
///
/// (The brief this suite was written from expected `--source https://…` to be
/// refused as "not supported"; the HTTP source landed while it was written,
/// so these tests check what it does instead.)
@Suite("fetch --source URL asks an HTTP server and records its answer")
struct HTTPSourceTests {
    @Test func aNumberFromTheServerIsRecordedWithItsStatusAndSize() async throws {
        // Given a server answering 42
        let server = try LocalHTTPServer { _ in .answer(status: 200, body: Data("42\n".utf8)) }
        defer { server.stop() }
        let sandbox = try Sandbox()

        // When a fetch asks it
        let result = try await sandbox.run("fetch", "--source", server.url("/number"), "--format", "jsonl")

        // Then it succeeds with 42, status 200 and 3 bytes, and the source is the URL
        #expect(result.status == 0, "\(result)")
        let records = try await sandbox.exportedRecords()
        try #require(records.count == 1, "\(records)")
        #expect(records[0].outcome == "succeeded" && records[0].value == 42, "\(records[0])")
        #expect(records[0].status == 200 && records[0].bytes == 3, "\(records[0])")
        #expect(records[0].source == server.url("/number"))
        #expect(try ExportRecord(jsonLine: try #require(result.lines.first)) == records[0])
        #expect(server.requests == ["GET /number HTTP/1.1"])
    }

    @Test func aRunExitsOneWhenAnyFetchFailedThoughTheFirstAndTheLastSucceeded() async throws {
        // Given a server answering its first and third requests, and 503 to its second
        let served = Mutex(0)
        let server = try LocalHTTPServer { _ in
            served.withLock { count in
                count += 1
                return count == 2 ? .answer(status: 503, body: Data("busy".utf8)) : .answer(status: 200, body: Data("7".utf8))
            }
        }
        defer { server.stop() }
        let sandbox = try Sandbox()

        // When a run of three fetches asks it
        let result = try await sandbox.run("fetch", "--source", server.url("/n"), "--count", "3", "--interval", "0")

        // Then all three are recorded, and the run exits 1 for the one that failed
        let records = try await sandbox.exportedRecords()
        #expect(records.map(\.outcome) == ["succeeded", "failed", "succeeded"], "\(records)")
        #expect(result.status == 1, "\(result)")
    }

    @Test func anErrorStatusIsAFailedFetchWithThatStatus() async throws {
        // Given a server answering 503
        let server = try LocalHTTPServer { _ in .answer(status: 503, body: Data("busy".utf8)) }
        defer { server.stop() }
        let sandbox = try Sandbox()

        // When a fetch asks it
        let result = try await sandbox.run("fetch", "--source", server.url("/n"))

        // Then it exits 1 and records a failure with status 503 and the body's size
        #expect(result.status == 1, "\(result)")
        let record = try #require(try await sandbox.exportedRecords().first)
        #expect(record.outcome == "failed" && record.error == "HTTP 503", "\(record)")
        #expect(record.status == 503 && record.bytes == 4, "\(record)")
        #expect(result.lines.first?.contains("503") == true, "\(result)")
    }

    @Test func aBodyThatIsNotANumberIsAFailedFetch() async throws {
        // Given a server answering text
        let server = try LocalHTTPServer { _ in .answer(status: 200, body: Data("forty-two".utf8)) }
        defer { server.stop() }
        let sandbox = try Sandbox()

        // When a fetch asks it
        let result = try await sandbox.run("fetch", "--source", server.url("/n"))

        // Then it exits 1 and the failure quotes the body
        #expect(result.status == 1, "\(result)")
        let record = try #require(try await sandbox.exportedRecords().first)
        #expect(record.outcome == "failed" && record.error?.contains("forty-two") == true, "\(record)")
        #expect(record.status == 200 && record.bytes == 9, "\(record)")
    }

    @Test func intoAPipeFetchPrintsAnErrorWhole() async throws {
        // Given a server answering text that makes a long error
        let body = "forty-two, or so the server says, in so many words"
        let server = try LocalHTTPServer { _ in .answer(status: 200, body: Data(body.utf8)) }
        defer { server.stop() }
        let sandbox = try Sandbox()

        // When a fetch asks it, printing its table into a pipe
        let result = try await sandbox.run("fetch", "--source", server.url("/n"))

        // Then the row holds the error whole, which the table would cut to 40 cells on a terminal
        let record = try #require(try await sandbox.exportedRecords().first)
        let error = try #require(record.error, "\(record)")
        #expect(error.count > 40, "\(error)")
        #expect(result.standardOutput.contains(error), "\(result)")
    }

    @Test func aBodyOverOneMebibyteIsCutOffAndFails() async throws {
        // Given a server answering 3 MiB of digits
        let server = try LocalHTTPServer { _ in .answer(status: 200, body: Data(repeating: UInt8(ascii: "7"), count: 3 << 20)) }
        defer { server.stop() }
        let sandbox = try Sandbox()

        // When a fetch asks it
        let result = try await sandbox.run("fetch", "--source", server.url("/huge"))

        // Then it fails as too large, having read a little over 1 MiB and not all of it
        #expect(result.status == 1, "\(result)")
        let record = try #require(try await sandbox.exportedRecords().first)
        #expect(record.outcome == "failed" && record.error?.contains("larger than 1 MiB") == true, "\(record)")
        #expect((record.bytes ?? 0) > 1 << 20 && (record.bytes ?? .max) < 3 << 20, "\(record)")
    }

    @Test func aRefusedConnectionIsAFailedFetchNamingTheHost() async throws {
        // Given a port nothing listens on
        let port = try LocalHTTPServer.closedPort()
        let sandbox = try Sandbox()

        // When a fetch asks it
        let result = try await sandbox.run("fetch", "--source", "http://127.0.0.1:\(port)/n")

        // Then it exits 1 and records a failure with no status
        #expect(result.status == 1, "\(result)")
        let record = try #require(try await sandbox.exportedRecords().first)
        #expect(record.outcome == "failed", "\(record)")
        #expect(record.error?.contains("127.0.0.1") == true, "\(record)")
        #expect(record.status == nil && record.bytes == nil, "\(record)")
    }

    @Test func withoutItsCompanionBinaryAnHTTPFetchSaysWhatIsMissing() async throws {
        // Given fetch-history alone in a folder, without fetch-history-http beside it
        let sandbox = try Sandbox()
        let alone = URL(fileURLWithPath: sandbox.path("fetch-history"))
        try FileManager.default.copyItem(at: FetchHistoryProcess.binary, to: alone)

        // When it is asked to fetch over HTTP
        let result = try await sandbox.run(["fetch", "--source", "http://127.0.0.1:9/n"], executable: alone)

        // Then it names what is missing and where, exits 1, and creates no database
        #expect(result.status == 1, "\(result)")
        #expect(result.standardError.hasPrefix("error: fetching over HTTP needs fetch-history-http beside this program, at \(sandbox.path("fetch-history-http"))"), "\(result)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.database))
    }

    @Test func underSwiftRunAnHTTPFetchGivesTheCommandThatWorks() async throws {
        // Given fetch-history alone in a SwiftPM build folder, as `swift run fetch-history` leaves it
        let sandbox = try Sandbox()
        let folder = sandbox.path(".build/debug")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let alone = URL(fileURLWithPath: folder + "/fetch-history")
        try FileManager.default.copyItem(at: FetchHistoryProcess.binary, to: alone)

        // When it is asked to fetch over HTTP, with a secret and a shell-special character in the URL
        let result = try await sandbox.run(
            ["fetch", "--source", "http://127.0.0.1:9/n?token=S3CR3T&page=2", "--count", "2"], executable: alone)

        // Then it gives the exact command that works, quoted for the shell, the secret hidden
        #expect(result.status == 1, "\(result)")
        #expect(result.standardError.contains(
            "run `swift run fetch-history-http fetch --source 'http://127.0.0.1:9/n?token=***&page=2' --count 2`"),
            "\(result)")
        #expect(!result.standardError.contains("S3CR3T"), "\(result)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.database))
    }

    @Test func secretsInTheURLAreNeverRecordedOrPrinted() async throws {
        // Given a server, and a URL with a password and a token
        let server = try LocalHTTPServer { _ in .answer(status: 200, body: Data("{\"number\": 5}".utf8)) }
        defer { server.stop() }
        let sandbox = try Sandbox()
        let url = "http://alice:hunter2@127.0.0.1:\(server.port)/n?api_key=S3CR3T-T0K3N&page=2"

        // When fetches use it (one shown as JSON), and the history is listed, shown and exported
        let fetched = try await sandbox.run("fetch", "--source", url, "--format", "jsonl", "--count", "2", "--interval", "0")
        let listed = try await sandbox.run("list")
        let exported = try await sandbox.run("export")
        let record = try #require(try await sandbox.exportedRecords().first)
        let shown = try await sandbox.run("show", record.id)

        // Then the token reached the server, but no output and no byte of the database holds a secret
        #expect(fetched.status == 0, "\(fetched)")
        #expect(server.requests.first?.contains("api_key=S3CR3T-T0K3N") == true, "\(server.requests)")
        #expect(record.value == 5)
        #expect(record.source == "http://***:***@127.0.0.1:\(server.port)/n?api_key=***&page=2", "\(record)")
        for output in [fetched, listed, exported, shown] {
            let text = output.standardOutput + output.standardError
            #expect(!text.contains("S3CR3T") && !text.contains("hunter2"), "\(output)")
        }
        for suffix in ["", "-wal", "-journal"] where FileManager.default.fileExists(atPath: sandbox.database + suffix) {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: sandbox.database + suffix))
            #expect(bytes.range(of: Data("S3CR3T".utf8)) == nil, "secret in history.sqlite\(suffix)")
            #expect(bytes.range(of: Data("hunter2".utf8)) == nil, "password in history.sqlite\(suffix)")
        }
    }

    @Test func aServerSlowerThanTheTimeoutIsRecordedAsTimedOut() async throws {
        // Given a server that never answers
        let server = try LocalHTTPServer { _ in .hang }
        defer { server.stop() }
        let sandbox = try Sandbox()

        // When a fetch with a 200 ms timeout asks it
        let result = try await sandbox.run("fetch", "--source", server.url("/slow"), "--timeout", "200ms")

        // Then it exits 1, recorded as timed-out at its deadline (without the timeout it would
        // have waited for URLSession's own, a minute, and been recorded as failed)
        #expect(result.status == 1, "\(result)")
        let record = try #require(try await sandbox.exportedRecords().first)
        #expect(record.outcome == "timed-out", "\(record)")
        #expect(record.durationMs == 200, "\(record)")
    }

    @Test func sigintDuringAnHTTPFetchRecordsItAsCancelled() async throws {
        // Given a fetch waiting on a server that never answers
        let server = try LocalHTTPServer { _ in .hang }
        defer { server.stop() }
        let sandbox = try Sandbox()
        let child = try await sandbox.start("fetch", "--source", server.url("/slow"))
        let running = try await sandbox.waitForFetch(of: child)

        // When Ctrl-C arrives
        child.send(SIGINT)
        let result = try await child.wait()

        // Then it exits 130 and the fetch is recorded as cancelled by the user
        #expect(result.status == 130, "\(result)")
        let records = try await sandbox.exportedRecords()
        #expect(records.map(\.id) == [running.id])
        #expect(records.first?.outcome == "cancelled" && records.first?.cancelReason == "user", "\(records)")
    }
}
