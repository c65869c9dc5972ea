import Foundation
import LoopbackServers
import Testing

/// `fetch … | head -1`: once the reader has gone, fetch stops at once —
/// the fetch in flight recorded as cancelled, nothing more fetched — and
/// ends quietly with 0, as `export | head` does.
@Suite("fetch stops when the reader of its output goes away")
struct FetchClosedPipeTests {
    @Test func theFetchInFlightWhenTheReaderLeavesIsCancelledAndNoMoreFollow() async throws {
        // Given a server that answers the first request and never the others
        let gate = try LocalHTTPServer.answeringOnlyTheFirst()
        defer { gate.stop() }
        let sandbox = try Sandbox()
        let child = try await FetchHistoryProcess.start(
            arguments: ["fetch", "--source", gate.url("/n"), "--count", "15", "--interval", "0"],
            environment: sandbox.environment(), workingDirectory: sandbox.root, standardOutput: .manual
        )

        // When the reader takes the first line, and leaves once the second fetch is in flight
        let output = try #require(child.standardOutputHandle)
        let line = await readFirstLine(output)
        while gate.requests.count < 2, child.isRunning { await Task.yield() }
        try output.close()
        let result = try await child.wait()

        // Then fetch ended by itself, quietly, with 0
        #expect(line.contains("succeeded"), "\(line)")
        #expect(result.status == 0 && !result.wasSignalled, "\(result)")
        #expect(result.standardErrorData.isEmpty, "\(result)")
        // And the history holds the printed fetch and the one in flight, cancelled; no third was asked for
        let records = try await sandbox.exportedRecords().sorted { $0.startedAt < $1.startedAt }
        #expect(records.map(\.outcome) == ["succeeded", "cancelled"], "\(records)")
        #expect(records.last?.cancelReason == "user", "\(records)")
        #expect(gate.requests.count == 2, "\(gate.requests)")
    }

    @Test func manyFetchesIntoHeadMinusOneStopWhenHeadLeaves() async throws {
        // Given the command, with far more fetches than could ever
        // run before the test's reader gets to them (1,000 × 200 ms)
        let sandbox = try Sandbox()
        let child = try await FetchHistoryProcess.start(
            arguments: ["fetch", "--count", "1000", "--interval", "100ms", "--latency", "100ms"],
            environment: sandbox.environment(), workingDirectory: sandbox.root, standardOutput: .manual
        )

        // When `head -1` takes one line and leaves
        let line = await readFirstLineAndClose(try #require(child.standardOutputHandle))
        let leftAt = Int64(Date().timeIntervalSince1970 * 1000)
        let result = try await child.wait(limit: .seconds(30))

        // Then it ended by itself, quietly, with 0
        #expect(!line.isEmpty)
        #expect(result.status == 0 && !result.wasSignalled && result.standardErrorData.isEmpty, "\(result)")
        // And no fetch started after the reader left, but for one that may
        // have started while the news travelled (a few milliseconds); none is left running
        let records = try await sandbox.exportedRecords()
        let startedAfter = records.filter { $0.startedAt > leftAt }
        #expect(startedAfter.count <= 1, "\(startedAfter.count) fetches started after the reader left: \(startedAfter)")
        #expect(records.count < 1000)
        #expect(!records.contains { $0.outcome == "running" || $0.outcome == "interrupted" }, "\(records)")
    }

    /// Reads `handle` up to the first newline, on a thread of its own, and leaves it open.
    private func readFirstLine(_ handle: FileHandle) async -> String {
        await withCheckedContinuation { (continuation: CheckedContinuation<String, Never>) in
            Thread {
                var line = Data()
                while case let chunk = handle.nextChunk(), !chunk.isEmpty {
                    if let newline = chunk.firstIndex(of: UInt8(ascii: "\n")) {
                        line.append(chunk[chunk.startIndex..<newline])
                        break
                    }
                    line.append(chunk)
                }
                continuation.resume(returning: String(decoding: line, as: UTF8.self))
            }.start()
        }
    }
}
