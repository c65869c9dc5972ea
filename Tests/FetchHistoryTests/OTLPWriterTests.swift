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

    /// Each line's resources: their host (the resource's `host.name`) and span ids.
    static func lines(_ bytes: [UInt8]) throws -> [[Resource]] {
        try String(decoding: bytes, as: UTF8.self).split(separator: "\n").map { line in
            let request = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            return try #require(request["resourceSpans"] as? [[String: Any]]).map { resourceSpans in
                let attributes = try #require((resourceSpans["resource"] as? [String: Any])?["attributes"] as? [[String: Any]])
                let host = try #require(attributes.first { $0["key"] as? String == "host.name" }?["value"] as? [String: String])
                let spans = try #require((resourceSpans["scopeSpans"] as? [[String: Any]])?.first?["spans"] as? [[String: Any]])
                return Resource(host: host["stringValue"] ?? "", spans: spans.compactMap { $0["spanId"] as? String })
            }
        }
    }

    struct Resource: Equatable {
        var host: String
        var spans: [String]
    }

    @Test func aLineHoldsSpansUpToItsLimitEachHostsRunAResourceAndRunningFetchesWait() throws {
        let fetches = [
            Self.fetch(1, host: "a"), Self.fetch(2, host: "a"), Self.fetch(3, host: "a", outcome: nil),
            Self.fetch(4, host: "a"), Self.fetch(5, host: "b"), Self.fetch(6, host: "a"),
        ]
        var writer = OTLPWriter(scopeVersion: "test", spansPerLine: 2)
        var bytes: [UInt8] = []
        for fetch in fetches { writer.write(fetch, into: &bytes) }
        writer.end(into: &bytes)

        let id = { (number: Int) in OTLPWriter.spanID(fetch: fetches[number - 1].id) }
        #expect(try Self.lines(bytes) == [
            [Resource(host: "a", spans: [id(1), id(2)])],
            [Resource(host: "a", spans: [id(4)]), Resource(host: "b", spans: [id(5)])],
            [Resource(host: "a", spans: [id(6)])],
        ])
        #expect((writer.written, writer.running) == (5, 1))
    }

    @Test func aRequestIsOneLineOfEveryEndedFetchWithoutItsNewline() throws {
        let fetches = [Self.fetch(1, host: "a"), Self.fetch(2, host: "b", outcome: nil), Self.fetch(3, host: "b")]
        let (body, spans) = try #require(OTLPWriter.request(of: fetches, scopeVersion: "test"))
        #expect(spans == 2)
        #expect(body.last == UInt8(ascii: "}"))
        #expect(try Self.lines(body) == [[
            Resource(host: "a", spans: [OTLPWriter.spanID(fetch: fetches[0].id)]),
            Resource(host: "b", spans: [OTLPWriter.spanID(fetch: fetches[2].id)]),
        ]])
        #expect(OTLPWriter.request(of: [Self.fetch(1, host: "a", outcome: nil)], scopeVersion: "test") == nil)
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
