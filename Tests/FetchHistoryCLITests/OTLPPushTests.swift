import Foundation
import Testing

/// `push` to a collector of OpenTelemetry spans (OTLP/HTTP), received by
/// `OTLPReceiver`: Python's `http.server` on 127.0.0.1, which decodes every
/// request with OpenTelemetry's own `opentelemetry-proto` package, strictly,
/// as `OTLPExportTests` reads an export.
@Suite("push to a collector of OpenTelemetry spans")
struct OTLPPushTests {
    /// `count` succeeded fetches a second apart, two hosts taking turns by the thousand.
    static func records(_ count: Int) -> [ExportRecord] {
        (0..<count).map { index in
            ExportRecord.make(
                "succeeded", id: Ids.fetch(index + 1), session: Ids.session(index / 10_000 + 1),
                at: Fixtures.day0 + Int64(index) * 1_000, duration: Int64(index % 900), value: index,
                host: index / 1_000 % 2 == 0 ? "ci-1" : "probe-3"
            )
        }
    }

    @Test func aPushOf100000FetchesCutOffByTheCollectorStoppingArrivesExactlyOnceWhenRunAgain() async throws {
        // Given a history of 100,000 fetches, and a collector that stops after answering 37 requests
        let sandbox = try Sandbox()
        let records = Self.records(100_000)
        try await sandbox.importRecords(records)
        let spans = sandbox.path("spans.jsonl")
        let first = try await OTLPReceiver.start(in: sandbox, spans: spans, stopAfter: 37)

        // When it is pushed to, the collector starts again on the same port, and the push is run again
        let cut = try await sandbox.run("push", "--to", first.url)
        _ = try await first.process.wait()
        let second = try await OTLPReceiver.start(in: sandbox, port: first.port, spans: spans)
        let again = try await sandbox.run("push", "--to", first.url)
        let nothing = try await sandbox.run("push", "--to", first.url)
        await second.stop()

        // Then the first push said in one line that it could not reach the collector, the second sent the rest,
        // a third had nothing to send, and the collector holds every fetch once, as a span of its session's trace
        let traces = "http://127.0.0.1:\(first.port)/v1/traces"
        // (refused, or lost: whether the client noticed the closed connection before it wrote on it)
        #expect(cut.status == 1 && cut.standardError.split(separator: "\n").count == 1, "\(cut)")
        #expect(cut.standardError.hasPrefix("error: cannot push to the collector at \(traces): connect"), "\(cut)")
        #expect(again.status == 0 && again.standardOutput == "pushed 63000 fetches as spans to \(traces)\n", "\(again)")
        #expect(nothing.status == 0 && nothing.standardOutput == "nothing to push to \(traces): it has every ended fetch\n", "\(nothing)")
        let received = try OTLPReceiver.spans(in: spans)
        #expect(received.count == 100_000)
        #expect(Set(received.map(\.spanId)).count == 100_000, "a span arrived twice")
        #expect(received.map(\.spanId) == records.map { OTLPExportTests.spanID($0.id) }, "in the history's order")
        #expect(received.map(\.traceId) == records.map { OTLPExportTests.hex($0.session) })
        #expect(received.map(\.host) == records.map(\.host))
        #expect(received.map(\.start) == records.map { UInt64($0.startedAt) * 1_000_000 }, "the history's times, to the millisecond")
        #expect(received.map(\.end) == records.map { UInt64($0.endedAt ?? 0) * 1_000_000 })
        #expect(received.allSatisfy { $0.status == 1 }, "succeeded: OK")
    }

    @Test func eachCollectorIsPushedToFromTheStartAndAFetchEndedSinceGoesNext() async throws {
        // Given a history of 4 fetches pushed to one collector
        let sandbox = try Sandbox()
        let records = Self.records(4)
        try await sandbox.importRecords(records)
        let first = try await OTLPReceiver.start(in: sandbox, spans: sandbox.path("first.jsonl"))
        try await sandbox.succeed("push", "--to", first.url)

        // When one more fetch is recorded, and the history is pushed to that collector and to another
        let more = ExportRecord.make("failed", id: Ids.fetch(900), session: Ids.session(9), at: Fixtures.day0 + 10_000_000)
        try await sandbox.importRecords([more])
        let other = try await OTLPReceiver.start(in: sandbox, spans: sandbox.path("other.jsonl"))
        let toFirst = try await sandbox.run("push", "--to", first.url)
        let toOther = try await sandbox.run("push", "--to", other.url)
        await first.stop()
        await other.stop()

        // Then the first got only the new fetch, the other all five: each remembers its own mark
        #expect(toFirst.standardOutput == "pushed 1 fetch as spans to \(first.url)/v1/traces\n", "\(toFirst)")
        #expect(toOther.standardOutput == "pushed 5 fetches as spans to \(other.url)/v1/traces\n", "\(toOther)")
        let all = (records + [more]).map { OTLPExportTests.spanID($0.id) }
        #expect(try OTLPReceiver.spans(in: sandbox.path("first.jsonl")).map(\.spanId) == all)
        #expect(try OTLPReceiver.spans(in: sandbox.path("other.jsonl")).map(\.spanId) == all)
    }

    @Test func theTeamHistoryPagesExampleRunsAsWritten() async throws {
        // Given a history of 3 fetches of the last minute, two collectors, and docs/team-history.md's OTLP block
        let sandbox = try Sandbox()
        let now = Int64(Date().timeIntervalSince1970 * 1_000) - 60_000
        let records = (0..<3).map { ExportRecord.make("succeeded", id: Ids.fetch($0 + 1), at: now + Int64($0) * 1_000) }
        try await sandbox.importRecords(records)
        let collector = try await OTLPReceiver.start(in: sandbox, spans: sandbox.path("collector.jsonl"))
        let backend = try await OTLPReceiver.start(in: sandbox, spans: sandbox.path("backend.jsonl"))
        let block = try DocsPage.block(after: "<!-- docs-sh: otlp ", fenced: "sh", in: "docs/team-history.md")
        let script = block.replacingOccurrences(of: "http://collector.example:4318", with: collector.url)
            .replacingOccurrences(of: "https://otlp.example.com", with: backend.url)
        #expect(script != block && script.contains(backend.url))

        // When it runs in a shell, fetch-history on its PATH
        var environment = sandbox.environment()
        environment["PATH"] = FetchHistoryProcess.binary.deletingLastPathComponent().path + ":/usr/bin:/bin"
        let result = try await sandbox.run(["-e", "-c", script], environment: environment, executable: URL(fileURLWithPath: "/bin/bash"))
        await collector.stop()
        await backend.stop()

        // Then it wrote the file, and each collector got every fetch once, the second with the API key
        #expect(result.status == 0, "\(result)")
        let ids = records.map { OTLPExportTests.spanID($0.id) }
        #expect(try await OTLPExportTests.read(sandbox.path("traces.jsonl"), in: sandbox).map(\.spanId) == ids)
        #expect(try OTLPReceiver.spans(in: sandbox.path("collector.jsonl")).map(\.spanId) == ids)
        let sent = try OTLPReceiver.spans(in: sandbox.path("backend.jsonl"))
        #expect(sent.map(\.spanId) == ids && sent.allSatisfy { $0.headers == ["x-api-key": "KEY"] }, "\(sent)")
    }

    @Test(arguments: [400, 401, 413, 500, 503])
    func aCollectorThatRefusesGetsOneSentenceAndExit1AndNothingIsMarkedSent(status: Int) async throws {
        // Given a history of 5 fetches, and a collector that answers every request with `status`
        let sandbox = try Sandbox()
        try await sandbox.importRecords(Self.records(5))
        let spans = sandbox.path("spans.jsonl")
        let refusing = try await OTLPReceiver.start(in: sandbox, spans: spans, status: status)

        // When it is pushed to, then, that collector gone, a working one on the same port is
        let refused = try await sandbox.run("push", "--to", refusing.url, "--format", "json")
        await refusing.stop()
        let working = try await OTLPReceiver.start(in: sandbox, port: refusing.port, spans: spans)
        let pushed = try await sandbox.run("push", "--to", working.url, "--format", "json")
        await working.stop()

        // Then the refusal is one sentence with the collector's words, exit 1, no summary;
        // and the next push sends all 5: nothing was marked sent
        let traces = "http://127.0.0.1:\(refusing.port)/v1/traces"
        #expect(refused.status == 1 && refused.standardOutput.isEmpty, "\(refused)")
        #expect(refused.standardError == "error: the collector at \(traces) refused the spans with HTTP \(status): the collector is busy\n")
        #expect(pushed.status == 0 && pushed.standardOutput == #"{"sent":5,"new":5,"alreadyThere":0,"rejected":0,"stillRunning":0}"# + "\n", "\(pushed)")
        #expect(try OTLPReceiver.spans(in: spans).count == 5)
    }

    @Test func theEndpointAndHeadersComeFromOpenTelemetrysVariablesAndNoSecretIsPrinted() async throws {
        // Given a history of 3 fetches, a collector, and OpenTelemetry's variables naming it, with an API key
        let sandbox = try Sandbox()
        try await sandbox.importRecords(Self.records(3))
        let spans = sandbox.path("spans.jsonl")
        let receiver = try await OTLPReceiver.start(in: sandbox, spans: spans)
        let secret = "s3cr3t-9F41"
        let variables = [
            "OTEL_EXPORTER_OTLP_ENDPOINT": receiver.url + "/",
            // A Content-Type among them, as another exporter's settings have it: the body is JSON all the same
            "OTEL_EXPORTER_OTLP_HEADERS": " x-api-key = \(secret)%2C+1 , x-team=probes,Content-Type=application/x-protobuf",
        ]

        // When push is run with no --to, then with a header written wrong, then to a collector that refuses
        // and echoes the key it was given
        let pushed = try await sandbox.run(["push"], environment: sandbox.environment(.sandbox, variables))
        var wrong = variables
        wrong["OTEL_EXPORTER_OTLP_HEADERS"] = "x-api-key=\(secret),\(secret)"
        let refused = try await sandbox.run(["push"], environment: sandbox.environment(.sandbox, wrong))
        let echoing = try await OTLPReceiver.start(in: sandbox, spans: sandbox.path("none.jsonl"), status: 401)
        var toEchoing = variables
        toEchoing["OTEL_EXPORTER_OTLP_ENDPOINT"] = echoing.url
        let unauthorized = try await sandbox.run(["push"], environment: sandbox.environment(.sandbox, toEchoing))
        await receiver.stop()
        await echoing.stop()

        // Then the spans went to /v1/traces with the headers decoded, and the key was printed nowhere
        #expect(pushed.status == 0 && pushed.standardOutput == "pushed 3 fetches as spans to \(receiver.url)/v1/traces\n", "\(pushed)")
        let received = try OTLPReceiver.spans(in: spans)
        #expect(received.count == 3)
        #expect(received.allSatisfy { $0.headers == ["x-api-key": "\(secret),+1", "x-team": "probes"] }, "\(received)")
        #expect(refused.status == 64, "\(refused)")
        #expect(refused.standardError.hasPrefix("error: OTEL_EXPORTER_OTLP_HEADERS takes name=value pairs separated by commas; pair 2 is not one"))
        #expect(unauthorized.status == 1, "\(unauthorized)")
        #expect(unauthorized.standardError.hasSuffix("refused the spans with HTTP 401: the collector is busy (key ***)\n"), "\(unauthorized)")
        let printed = [pushed, refused, unauthorized].map { $0.standardOutput + $0.standardError }.joined()
        #expect(!printed.contains(secret))
    }

    @Test func spansTheCollectorRejectsAreSaidAndNotSentAgain() async throws {
        // Given a history of 3 fetches, and a collector that takes requests but rejects 2 spans of each (OTLP's partial success)
        let sandbox = try Sandbox()
        try await sandbox.importRecords(Self.records(3))
        let receiver = try await OTLPReceiver.start(in: sandbox, spans: sandbox.path("spans.jsonl"), reject: 2)

        // When it is pushed to, twice
        let pushed = try await sandbox.run("push", "--to", receiver.url, "--format", "json")
        let again = try await sandbox.run("push", "--to", receiver.url)
        await receiver.stop()

        // Then the first push counts them rejected, says so and exits 1; the second has nothing to send
        let traces = "\(receiver.url)/v1/traces"
        #expect(pushed.status == 1, "\(pushed)")
        #expect(pushed.standardOutput == #"{"sent":3,"new":1,"alreadyThere":0,"rejected":2,"stillRunning":0}"# + "\n")
        #expect(pushed.standardError == "error: the collector at \(traces) rejected 2 spans (OTLP partial success); they are remembered as sent and not sent again\n")
        #expect(again.status == 0 && again.standardOutput == "nothing to push to \(traces): it has every ended fetch\n", "\(again)")
    }

    @Test(arguments: [
        (["--to", "http://"], "error: --to takes a collector's http:// or https:// URL with a host, not 'http://'"),
        (["--to", "https:/collector"], "error: --to takes a collector's http:// or https:// URL with a host, not 'https:/collector'"),
        ([], "error: say where to push: --to postgres://… (a team history) or http(s)://… (a collector of spans), or set FETCH_HISTORY_REMOTE or OTEL_EXPORTER_OTLP_ENDPOINT"),
    ])
    func aWrongCollectorURLOrNoneIsAUsageError(arguments: [String], message: String) async throws {
        // Given a history of one fetch
        let sandbox = try Sandbox()
        try await sandbox.importRecords(Self.records(1))

        // When it is pushed to a URL that names no collector, or to nothing
        let result = try await sandbox.run(["push"] + arguments)

        // Then it is refused as a usage error, in one line
        #expect(result.status == 64, "\(result)")
        #expect(result.standardError.split(separator: "\n").first.map(String.init) == message, "\(result)")
    }
}

/// A collector of spans for the tests: Python's `http.server` on 127.0.0.1,
/// decoding each request to `/v1/traces` strictly into an
/// `ExportTraceServiceRequest` with `opentelemetry-proto` (after turning
/// OTLP/JSON's hex ids into the base64 protobuf's JSON mapping reads), and
/// appending each span, with the request's `x-` headers, to a file. It
/// answers `status` (200: OTLP's success, with `reject` spans rejected as a
/// partial success), and exits after answering `stopAfter` requests (0:
/// never), as a collector stopped between two requests.
struct OTLPReceiver {
    let process: FetchHistoryProcess
    let port: Int

    var url: String { "http://127.0.0.1:\(port)" }

    struct Span: Decodable {
        var spanId: String
        var traceId: String
        var host: String
        var start: UInt64
        var end: UInt64
        var status: Int
        var headers: [String: String]
    }

    static let script = OTLPExportTests.parseRequest + """
        import os, sys
        from http.server import BaseHTTPRequestHandler, HTTPServer

        port, spans_path, status, stop_after, reject = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
        answered = 0

        class Receiver(BaseHTTPRequestHandler):
            protocol_version = 'HTTP/1.1'

            def log_message(self, *args):
                pass

            def answer(self, code, body):
                data = json.dumps(body).encode()
                self.send_response(code)
                self.send_header('Content-Type', 'application/json')
                self.send_header('Content-Length', str(len(data)))
                self.end_headers()
                self.wfile.write(data)
                self.wfile.flush()

            def do_POST(self):
                global answered
                body = self.rfile.read(int(self.headers['Content-Length']))
                if self.path != '/v1/traces' or self.headers['Content-Type'] != 'application/json':
                    self.answer(404, {'code': 5, 'message': 'no traces at ' + self.path})
                    return
                headers = {key.lower(): value for key, value in self.headers.items() if key.lower().startswith('x-')}
                if status != 200:
                    # A backend that echoes the key it was given, as some do
                    echoed = ' (key ' + headers['x-api-key'] + ')' if 'x-api-key' in headers else ''
                    self.answer(status, {'code': 14, 'message': 'the collector is busy' + echoed})
                    return
                request = parse_request(json.loads(body))
                with open(spans_path, 'a', encoding='utf-8') as spans:
                    for resource in request.resource_spans:
                        names = {a.key: a.value.string_value for a in resource.resource.attributes}
                        for scope in resource.scope_spans:
                            for span in scope.spans:
                                spans.write(json.dumps({
                                    'spanId': span.span_id.hex(), 'traceId': span.trace_id.hex(),
                                    'host': names['host.name'], 'start': span.start_time_unix_nano,
                                    'end': span.end_time_unix_nano, 'status': span.status.code, 'headers': headers,
                                }) + '\\n')
                self.answer(200, {'partialSuccess': {'rejectedSpans': str(reject), 'errorMessage': 'too old'}} if reject else {})
                answered += 1
                if answered == stop_after:
                    os._exit(0)

        server = HTTPServer(('127.0.0.1', int(port)), Receiver)
        print('listening', server.server_address[1], flush=True)
        server.serve_forever()
        """

    /// Starts the receiver on `port` (0: any free one) and returns once it listens.
    static func start(
        in sandbox: Sandbox, port: Int = 0, spans: String, status: Int = 200, stopAfter: Int = 0, reject: Int = 0,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> OTLPReceiver {
        #expect(
            FileManager.default.isExecutableFile(atPath: OTLPExportTests.python.path),
            "\(OTLPExportTests.python.path) is missing: README's test command makes it (opentelemetry-proto in a venv)",
            sourceLocation: sourceLocation
        )
        let process = try await FetchHistoryProcess.start(
            arguments: ["-c", script, String(port), spans, String(status), String(stopAfter), String(reject)],
            environment: ["PATH": "/usr/bin:/bin"], workingDirectory: sandbox.root, executable: OTLPExportTests.python
        )
        let listening = await process.waitForPrintedLines(1)
        let words = process.printedText.split(separator: " ")
        guard listening, words.first == "listening", let port = words.last.flatMap({ Int($0.dropLast()) }) else {
            let result = try await process.wait()
            throw OTLPReceiverFailure(result: result)
        }
        return OTLPReceiver(process: process, port: port)
    }

    /// Stops it, and returns once it has exited.
    func stop() async {
        process.send(SIGTERM)
        _ = try? await process.wait()
    }

    /// The spans received, in the order they came.
    static func spans(in file: String) throws -> [Span] {
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { return [] }
        return try text.split(separator: "\n").map { try JSONDecoder().decode(Span.self, from: Data($0.utf8)) }
    }
}

/// The receiver ended before it listened.
struct OTLPReceiverFailure: Error, CustomStringConvertible {
    var result: CLIResult
    var description: String { "the OTLP receiver did not start: \(result)" }
}
