import Foundation
import LoopbackServers
import Testing

/// `export --format otlp`, read by OpenTelemetry's own reader: the
/// `opentelemetry-proto` Python package parses each line strictly into an
/// `ExportTraceServiceRequest` (unknown fields refused), after turning the
/// ids from OTLP/JSON's hex into the base64 protobuf's JSON mapping reads,
/// as an OTLP receiver does. README's test command installs the package
/// into `.build/otlp-venv`.
@Suite("export --format otlp")
struct OTLPExportTests {
    /// One span as the reader found it.
    struct Span: Decodable, Equatable {
        var line: Int
        /// Which resource of its line (0 the first).
        var resource: Int
        var host: String
        var service: String
        var scope: String
        var traceId: String
        var spanId: String
        var name: String
        var kind: Int
        var start: UInt64
        var end: UInt64
        var status: Int
        var message: String
        var attributes: [String: String]
        var events: [Event]

        struct Event: Decodable, Equatable {
            var name: String
            var time: UInt64
        }
    }

    static let python = DocsPage.root.appending(path: ".build/otlp-venv/bin/python")

    /// Python: `parse_request`, one OTLP/JSON request (a decoded JSON
    /// object) parsed strictly into an `ExportTraceServiceRequest`, its hex
    /// ids turned into base64 first, as an OTLP/JSON receiver does. The
    /// reader here and `OTLPReceiver` both use it.
    static let parseRequest = """
        import base64, json
        from google.protobuf import json_format
        from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

        def parse_request(document):
            for resource in document['resourceSpans']:
                for scope in resource['scopeSpans']:
                    for span in scope['spans']:
                        for key in ('traceId', 'spanId', 'parentSpanId'):
                            if key in span:
                                span[key] = base64.b64encode(bytes.fromhex(span[key])).decode()
            return json_format.Parse(json.dumps(document), ExportTraceServiceRequest())

        """

    static let reader = parseRequest + """
        import sys
        spans = []
        with open(sys.argv[1], encoding='utf-8') as file:
            for number, line in enumerate(file, 1):
                request = parse_request(json.loads(line))
                for index, resource in enumerate(request.resource_spans):
                    names = {a.key: a.value.string_value for a in resource.resource.attributes}
                    for scope in resource.scope_spans:
                        for span in scope.spans:
                            spans.append({
                                'line': number, 'resource': index, 'host': names['host.name'], 'service': names['service.name'],
                                'scope': scope.scope.name, 'traceId': span.trace_id.hex(), 'spanId': span.span_id.hex(),
                                'name': span.name, 'kind': span.kind,
                                'start': span.start_time_unix_nano, 'end': span.end_time_unix_nano,
                                'status': span.status.code, 'message': span.status.message,
                                'attributes': {a.key: str(getattr(a.value, a.value.WhichOneof('value'))) for a in span.attributes},
                                'events': [{'name': e.name, 'time': e.time_unix_nano} for e in span.events],
                            })
        print(json.dumps(spans))
        """

    /// The spans OpenTelemetry's reader finds in `file`; fails the test
    /// when it refuses the file.
    static func read(_ file: String, in sandbox: Sandbox, sourceLocation: SourceLocation = #_sourceLocation) async throws -> [Span] {
        #expect(
            FileManager.default.isExecutableFile(atPath: python.path),
            "\(python.path) is missing: README's test command makes it (opentelemetry-proto in a venv)",
            sourceLocation: sourceLocation
        )
        let result = try await FetchHistoryProcess.start(
            arguments: ["-c", reader, file], environment: ["PATH": "/usr/bin:/bin"],
            workingDirectory: sandbox.root, executable: python
        ).wait()
        try #require(result.status == 0, "OpenTelemetry's reader refused the file: \(result.standardError)", sourceLocation: sourceLocation)
        return try JSONDecoder().decode([Span].self, from: result.standardOutputData)
    }

    /// The id as OTLP writes it: the session's, its 32 hex digits.
    static func hex(_ id: String) -> String { id.replacingOccurrences(of: "-", with: "") }

    /// The fetch id's two halves folded together (XOR), 16 hex digits.
    static func spanID(_ id: String) -> String {
        let digits = Array(hex(id))
        let bytes = stride(from: 0, to: 32, by: 2).map { UInt8(String(digits[$0..<$0 + 2]), radix: 16)! }
        return (0..<8).map { String(format: "%02x", bytes[$0] ^ bytes[$0 + 8]) }.joined()
    }

    @Test func everyEndedFetchIsOneSpanThatOpenTelemetrysReaderAccepts() async throws {
        // Given an answer, a 503 and a timeout, really recorded, an interrupted fetch imported, and a fetch running
        let server = try LocalHTTPServer { request in
            request.contains("/busy") ? .answer(status: 503, body: Data("busy".utf8)) : .answer(status: 200, body: Data("42".utf8))
        }
        let sandbox = try Sandbox()
        try await sandbox.succeed("fetch", "--source", server.url("/n"))
        _ = try await sandbox.run("fetch", "--source", server.url("/busy"))
        _ = try await sandbox.run("fetch", "--latency", "5s", "--timeout", "50ms")
        try await sandbox.importRecords([.make("interrupted", id: Ids.fetch(1), session: Ids.session(7), at: 1_000_000, host: "probe-3")])
        let fetch = try await sandbox.start("fetch", "--latency", "1d")
        let running = try await sandbox.waitForFetch("running", of: fetch)
        let records = try await sandbox.exportedRecords()
        #expect(records.count == 5)

        // When exported as OTLP, twice
        let file = sandbox.path("traces.jsonl"), again = sandbox.path("again.jsonl")
        let export = try await sandbox.run("export", "--format", "otlp", "--output", file)
        try await sandbox.succeed("export", "--format", "otlp", "--output", again)

        // Then the four ended fetches are spans, each of its session's trace, the running one said to be left out
        #expect(export.status == 0, "\(export)")
        #expect(export.standardError == "left out 1 fetch still running (exported once ended); wrote 4\n")
        #expect(try Data(contentsOf: URL(filePath: file)) == Data(contentsOf: URL(filePath: again)))
        let spans = try await Self.read(file, in: sandbox)
        let ended = records.filter { $0.outcome != "running" }
        #expect(spans.map(\.spanId) == ended.map { Self.spanID($0.id) })
        for (span, record) in zip(spans, ended) {
            #expect(span.traceId == Self.hex(record.session), "\(record)")
            #expect(span.name == record.source)
            #expect(span.kind == 3, "a client span")
            #expect((span.service, span.scope) == ("fetch-history", "fetch-history"))
            #expect(span.start == UInt64(record.startedAt) * 1_000_000)
            #expect(span.end == UInt64(record.endedAt ?? record.startedAt) * 1_000_000)
            #expect(span.attributes["fetch_history.fetch_id"] == record.id)
            #expect(span.attributes["fetch_history.session"] == record.session)
            #expect(span.attributes["fetch_history.outcome"] == record.outcome)
            #expect(span.events.first == Span.Event(name: "tap", time: span.start))
        }

        // And each outcome has its status, attributes and events
        let byOutcome = Dictionary(zip(ended.map(\.outcome), spans), uniquingKeysWith: { first, _ in first })
        let answered = try #require(byOutcome["succeeded"]), busy = try #require(byOutcome["failed"])
        let late = try #require(byOutcome["timed-out"]), cut = try #require(byOutcome["interrupted"])
        #expect(answered.status == 1)
        #expect(answered.attributes["http.request.method"] == "GET")
        #expect(answered.attributes["url.full"] == server.url("/n"))
        #expect(answered.attributes["http.response.status_code"] == "200")
        #expect(answered.attributes["http.response.body.size"] == "2")
        #expect(answered.attributes["error.type"] == nil)
        let failed = try #require(ended.first { $0.outcome == "failed" })
        #expect((busy.status, busy.message) == (2, failed.error ?? ""))
        #expect(busy.attributes["http.response.status_code"] == "503")
        #expect(busy.attributes["error.type"] == "HTTP 503")
        #expect((late.status, late.message) == (2, "timed out after 50ms"))
        #expect(late.attributes["fetch_history.timeout_ms"] == "50")
        #expect(late.events.map(\.name) == ["tap", "deadline"])
        #expect(late.events.last?.time == late.end)
        #expect(late.attributes["url.full"] == nil, "the random source is no URL")
        #expect(cut.status == 2 && cut.message.hasPrefix("interrupted"))
        #expect(cut.host == "probe-3" && cut.end == cut.start)
        // The imported fetches are the oldest (1970): their host's resource comes first, in one line
        #expect((cut.line, cut.resource) == (1, 0))
        let others = spans.filter { $0.host != "probe-3" }
        #expect(Set(others.map(\.line)) == [1] && Set(others.map(\.resource)) == [1], "another host, another resource: this one's three")

        // When the running fetch ends, cancelled by Ctrl-C
        fetch.send(SIGINT)
        #expect(try await fetch.wait().status == 130)

        // Then it is exported too: no status (OTLP's unset), its reason, the tap and the cancel
        let afterwards = sandbox.path("afterwards.jsonl")
        try await sandbox.succeed("export", "--format", "otlp", "--output", afterwards)
        let all = try await Self.read(afterwards, in: sandbox)
        #expect(all.map(\.spanId) == spans.map(\.spanId) + [Self.spanID(running.id)])
        let cancelled = try #require(all.last)
        #expect(cancelled.status == 0 && cancelled.message.isEmpty)
        #expect(cancelled.attributes["fetch_history.outcome"] == "cancelled")
        #expect(cancelled.attributes["fetch_history.cancel_reason"] == "user")
        #expect(cancelled.attributes["error.type"] == nil, "a cancel is no error")
        #expect(cancelled.events.map(\.name) == ["tap", "cancel"])
        #expect(cancelled.events.last?.time == cancelled.end)
    }
}
