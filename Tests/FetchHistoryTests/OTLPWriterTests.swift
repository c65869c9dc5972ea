import Foundation
import Testing
@testable import FetchHistoryInterchange
@testable import FetchHistoryModel

/// How `OTLPWriter` cuts its lines and makes its ids; what OpenTelemetry's
/// reader makes of a whole export is `OTLPExportTests`' (the CLI's tests).
struct OTLPWriterTests {
    static func fetch(_ number: Int, host: String, outcome: FetchOutcome? = .succeeded(1)) -> Fetch {
        Fetch(
            id: UUID(), sessionID: UUID(), source: "random", startedAt: Timestamp(millisecondsSince1970: Int64(number) * 1_000),
            endedAt: outcome == nil ? nil : Timestamp(millisecondsSince1970: Int64(number) * 1_000 + 5), outcome: outcome, host: host
        )
    }

    /// Each line's hosts (the resource's `host.name`) and span ids.
    static func lines(_ bytes: [UInt8]) throws -> [(host: String, spans: [String])] {
        try String(decoding: bytes, as: UTF8.self).split(separator: "\n").map { line in
            let request = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let resourceSpans = try #require((request["resourceSpans"] as? [[String: Any]])?.first)
            let attributes = try #require((resourceSpans["resource"] as? [String: Any])?["attributes"] as? [[String: Any]])
            let host = try #require(attributes.first { $0["key"] as? String == "host.name" }?["value"] as? [String: String])
            let spans = try #require((resourceSpans["scopeSpans"] as? [[String: Any]])?.first?["spans"] as? [[String: Any]])
            return (host["stringValue"] ?? "", spans.compactMap { $0["spanId"] as? String })
        }
    }

    @Test func aLineHoldsOneHostsSpansUpToItsLimitAndRunningFetchesWait() throws {
        let fetches = [
            Self.fetch(1, host: "a"), Self.fetch(2, host: "a"), Self.fetch(3, host: "a", outcome: nil),
            Self.fetch(4, host: "a"), Self.fetch(5, host: "b"), Self.fetch(6, host: "a"),
        ]
        var writer = OTLPWriter(scopeVersion: "test", spansPerLine: 2)
        var bytes: [UInt8] = []
        for fetch in fetches { writer.write(fetch, into: &bytes) }
        writer.end(into: &bytes)

        let lines = try Self.lines(bytes)
        #expect(lines.map(\.host) == ["a", "a", "b", "a"])
        #expect(lines.map(\.spans.count) == [2, 1, 1, 1])
        let ended = fetches.filter { $0.outcome != nil }
        #expect(lines.flatMap(\.spans) == ended.map { OTLPWriter.spanID(fetch: $0.id) })
        #expect((writer.written, writer.running) == (5, 1))
    }

    @Test func nothingWrittenIsNoLine() {
        var writer = OTLPWriter(scopeVersion: "test")
        var bytes: [UInt8] = []
        writer.write(Self.fetch(1, host: "a", outcome: nil), into: &bytes)
        writer.end(into: &bytes)
        #expect(bytes.isEmpty)
    }

    @Test func aTimeBefore1970IsWrittenAs1970sFirstInstant() throws {
        var fetch = Self.fetch(1, host: "a")
        fetch.startedAt = Timestamp(millisecondsSince1970: -5)
        var writer = OTLPWriter(scopeVersion: "test")
        var bytes: [UInt8] = []
        writer.write(fetch, into: &bytes)
        writer.end(into: &bytes)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains(#""startTimeUnixNano":"0""#))
        #expect(text.contains(#""endTimeUnixNano":"1005000000""#))
    }

    @Test func theIdsAreTheHistorysOwn() throws {
        let session = try #require(UUID(uuidString: "0193A5B2-7C00-7ABC-8DEF-0123456789AB"))
        let fetch = try #require(UUID(uuidString: "0193A5B2-7C01-7000-8000-00000000FF01"))
        #expect(OTLPWriter.traceID(session: session) == "0193a5b27c007abc8def0123456789ab")
        // 0193a5b2 7c017000 XOR 80000000 0000ff01
        #expect(OTLPWriter.spanID(fetch: fetch) == "8193a5b27c018f01")
    }
}
