import Foundation
import LoopbackServers
import Testing

/// `export --format har`: every field HAR 1.2 requires, with its type,
/// checked by the test's own reading of the specification, and the same
/// file accepted by an independent reader (Debian's node-har-validator, the
/// HAR JSON schema the `request` and `har` npm packages validate with).
@Suite("export --format har")
struct HARExportTests {
    static func exported(_ sandbox: Sandbox, _ arguments: String..., sourceLocation: SourceLocation = #_sourceLocation) async throws -> (har: [String: Any], file: String, result: CLIResult) {
        let file = sandbox.path("fetches-\(UUID().uuidString).har")
        let result = try await sandbox.run(["export", "--format", "har", "--output", file] + arguments)
        #expect(result.status == 0, "\(result)", sourceLocation: sourceLocation)
        let data = try Data(contentsOf: URL(filePath: file))
        let har = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any], sourceLocation: sourceLocation)
        #expect(HARSpec.violations(har) == [], sourceLocation: sourceLocation)
        return (har, file, result)
    }

    /// har-validator's verdict on the file: nil when valid, else its errors.
    static func independentVerdict(_ file: String, in sandbox: Sandbox) async throws -> String? {
        let script = """
            const validate = require('har-validator');
            const har = JSON.parse(require('fs').readFileSync(process.argv[1], 'utf8'));
            validate.har(har).then(() => process.exit(0)).catch(e => { console.error(JSON.stringify(e.errors || e.message)); process.exit(1); });
            """
        let node = try await FetchHistoryProcess.start(
            arguments: ["-e", script, file], environment: ["PATH": "/usr/bin:/bin", "NODE_PATH": "/usr/share/nodejs"],
            workingDirectory: sandbox.root, executable: URL(fileURLWithPath: "/usr/bin/node")
        ).wait()
        return node.status == 0 ? nil : "status \(node.status): \(node.standardError)"
    }

    static func entries(_ har: [String: Any]) -> [[String: Any]] {
        ((har["log"] as? [String: Any])?["entries"] as? [[String: Any]]) ?? []
    }

    @Test func recordedHTTPFetchesBecomeEntriesAnIndependentReaderAccepts() async throws {
        // Given an answer, a 503, a refused connection and a random fetch, really recorded
        let server = try LocalHTTPServer { request in
            request.contains("/busy") ? .answer(status: 503, body: Data("busy".utf8)) : .answer(status: 200, body: Data("42".utf8))
        }
        let refused = try LocalHTTPServer.closedPort()
        let sandbox = try Sandbox()
        try await sandbox.succeed("fetch", "--source", server.url("/n?page=2&q=a%20b"))
        _ = try await sandbox.run("fetch", "--source", server.url("/busy"))
        _ = try await sandbox.run("fetch", "--source", "http://127.0.0.1:\(refused)/n")
        try await sandbox.succeed("fetch")

        // When exported as HAR
        let (har, file, result) = try await Self.exported(sandbox)

        // Then the three HTTP fetches are entries, oldest first, and the random one is counted as skipped
        #expect(result.standardError == "skipped 1 fetch whose source is not an HTTP(S) URL; wrote 3\n", "\(result)")
        let entries = Self.entries(har)
        #expect(entries.count == 3)
        let requests = entries.compactMap { $0["request"] as? [String: Any] }
        let responses = entries.compactMap { $0["response"] as? [String: Any] }
        #expect(requests.map { $0["url"] as? String } == [server.url("/n?page=2&q=a%20b"), server.url("/busy"), "http://127.0.0.1:\(refused)/n"])
        let query = (requests[0]["queryString"] as? [[String: String]]) ?? []
        #expect(query == [["name": "page", "value": "2"], ["name": "q", "value": "a b"]], "\(query)")
        #expect(responses.map { $0["status"] as? Int } == [200, 503, 0])
        let content = responses[0]["content"] as? [String: Any]
        #expect(content?["text"] as? String == "42" && content?["size"] as? Int == 2 && content?["mimeType"] as? String == "application/json")
        let own = entries.compactMap { $0["_fetchHistory"] as? [String: Any] }
        #expect(own.map { $0["outcome"] as? String } == ["succeeded", "failed", "failed"])
        // And the fetch's own fields name how it ended and where it was recorded; none was cancelled
        #expect(own.map { $0["endedBy"] as? String } == ["answer", "failure", "failure"], "\(own)")
        #expect(own.allSatisfy { $0["host"] as? String == thisHostName() && $0["cancelReason"] is NSNull && $0.keys.contains("timeoutMs") }, "\(own)")
        #expect((entries[1]["_error"] as? String)?.contains("503") == true, "\(entries[1])")
        #expect(entries[0]["_error"] is NSNull)
        // And one page per session, each entry pointing at its own
        let pages = ((har["log"] as? [String: Any])?["pages"] as? [[String: Any]]) ?? []
        #expect(pages.count == 3)
        #expect(Set(entries.compactMap { $0["pageref"] as? String }) == Set(pages.compactMap { $0["id"] as? String }))

        // And an independent reader accepts the file
        let verdict = try await Self.independentVerdict(file, in: sandbox)
        #expect(verdict == nil, "\(verdict ?? "")")
    }

    @Test func aRedactedSecretStaysRedactedAndNoneIsAdded() async throws {
        // Given fetches from a URL with a user, a password and a token
        let server = try LocalHTTPServer { _ in .answer(status: 200, body: Data("7".utf8)) }
        let sandbox = try Sandbox()
        let secretURL = server.url("/n?token=tok-SECRET-1&page=2").replacingOccurrences(of: "http://", with: "http://bob:pw-SECRET-2@")
        try await sandbox.succeed("fetch", "--source", secretURL)

        // When exported as HAR
        let (har, file, _) = try await Self.exported(sandbox)

        // Then no secret is in the file, and the parameters say where one was
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(!text.contains("SECRET") && !text.contains("bob"), "\(text)")
        let request = Self.entries(har).first?["request"] as? [String: Any]
        #expect((request?["url"] as? String)?.contains("***:***@") == true, "\(request ?? [:])")
        #expect((request?["queryString"] as? [[String: String]]) == [["name": "token", "value": "***"], ["name": "page", "value": "2"]])
        #expect(try await Self.independentVerdict(file, in: sandbox) == nil)
    }

    @Test func theFetchsOwnFieldsGoUnderFetchHistoryAndAFetchWithoutAnswerHasStatusZero() async throws {
        // Given the standard history: four fetches of an HTTPS source (timed out, two interrupted, one answered)
        let sandbox = try Sandbox()
        try await sandbox.importRecords(Fixtures.standard)

        // When exported as HAR, filtered as list filters
        let (har, file, result) = try await Self.exported(sandbox)
        let (answered, _, _) = try await Self.exported(sandbox, "--status", "200")

        // Then each becomes an entry that says how it ended, and the six random fetches are counted
        #expect(result.standardError == "skipped 6 fetches whose source is not an HTTP(S) URL; wrote 4\n", "\(result)")
        let entries = Self.entries(har)
        let own = entries.compactMap { $0["_fetchHistory"] as? [String: Any] }
        #expect(own.map { $0["id"] as? String } == [5, 6, 7, 8].map { Ids.fetch($0) })
        #expect(own.map { $0["outcome"] as? String } == ["timed-out", "interrupted", "interrupted", "succeeded"])
        #expect(own.map { $0["session"] as? String } == [Ids.session(2), Ids.session(2), Ids.session(2), Ids.session(3)])
        #expect(entries.map { ($0["response"] as? [String: Any])?["status"] as? Int } == [0, 0, 0, 200])
        #expect(entries.map { $0["time"] as? Int } == [500, 0, 0, 950])
        #expect(entries.map { $0["startedDateTime"] as? String } == [5, 6, 7, 8].map { ISO.format(Fixtures.standard[$0 - 1].startedAt) })
        #expect(Self.entries(answered).count == 1)
        #expect(try await Self.independentVerdict(file, in: sandbox) == nil)
    }

    @Test func importedURLsNoURICouldHoldAreEncodedAndTheirParametersDecodedAsBrowsersDo() async throws {
        // Given imported fetches from URLs a URI cannot hold as written: a space, a stray %, a letter
        // past ASCII, a control character; and parameters with +, escapes and a malformed one
        let sandbox = try Sandbox()
        try await sandbox.importRecords([
            .make("succeeded", id: Ids.fetch(1), source: "https://h.example/p?q=a b&e=%2B%25&f=%zz&g=x+y&h&i=%+f", at: Fixtures.day0),
            .make("succeeded", id: Ids.fetch(2), source: "https://h.example/caf\u{E9}/\u{1}#frag?x=1", at: Fixtures.day0 + 1_000),
        ])

        // When exported as HAR
        let (har, file, _) = try await Self.exported(sandbox)

        // Then each URL is written with those bytes percent-encoded and the rest as recorded
        let requests = Self.entries(har).compactMap { $0["request"] as? [String: Any] }
        #expect(requests.map { $0["url"] as? String } == [
            "https://h.example/p?q=a%20b&e=%2B%25&f=%25zz&g=x+y&h&i=%25+f", "https://h.example/caf%C3%A9/%01#frag?x=1",
        ])
        // And the parameters are split and decoded as a browser lists them, the malformed escape kept
        #expect((requests.first?["queryString"] as? [[String: String]]) == [
            ["name": "q", "value": "a b"], ["name": "e", "value": "+%"], ["name": "f", "value": "%zz"],
            ["name": "g", "value": "x y"], ["name": "h", "value": ""], ["name": "i", "value": "% f"],
        ])
        #expect((requests.last?["queryString"] as? [[String: String]]) == [], "a ? in the fragment starts no query")
        // And the independent reader accepts the archive
        #expect(try await Self.independentVerdict(file, in: sandbox) == nil)
    }

    @Test func anEmptyHistoryIsAnEmptyArchive() async throws {
        let sandbox = try Sandbox()
        try await sandbox.importRecords([.make("succeeded", id: Ids.fetch(1), at: Fixtures.day0)])
        let (har, file, result) = try await Self.exported(sandbox, "--grep", "nothing like this")
        #expect(Self.entries(har).isEmpty && result.standardError.isEmpty, "\(result)")
        #expect(try await Self.independentVerdict(file, in: sandbox) == nil)
    }
}

/// HAR 1.2's required fields and their types, as the specification lists
/// them (http://www.softwareishard.com/blog/har-12-spec/), read by the test.
enum HARSpec {
    static func violations(_ har: [String: Any]) -> [String] {
        var found: [String] = []
        func require(_ object: [String: Any]?, _ path: String, _ fields: [(String, (Any) -> Bool)]) {
            guard let object else { return found.append("\(path) is not an object") }
            for (name, isValid) in fields {
                guard let value = object[name] else { found.append("\(path).\(name) is missing"); continue }
                if !isValid(value) { found.append("\(path).\(name) has the wrong type or value: \(value)") }
            }
        }
        let string: (Any) -> Bool = { $0 is String }
        let integer: (Any) -> Bool = { $0 is Int }
        let array: (Any) -> Bool = { $0 is [Any] }
        let object: (Any) -> Bool = { $0 is [String: Any] }
        // ISO 8601, as HAR asks; these are always UTC with milliseconds.
        let date: (Any) -> Bool = { ($0 as? String).map { ISO.parse($0) != nil } ?? false }
        let nonNegative: (Any) -> Bool = { ($0 as? Double).map { $0 >= 0 } ?? false }

        let log = har["log"] as? [String: Any]
        require(log, "log", [("version", { $0 as? String == "1.2" }), ("creator", object), ("entries", array)])
        require(log?["creator"] as? [String: Any], "log.creator", [("name", string), ("version", string)])
        for (index, page) in ((log?["pages"] as? [Any]) ?? []).enumerated() {
            require(page as? [String: Any], "pages[\(index)]", [("startedDateTime", date), ("id", string), ("title", string), ("pageTimings", object)])
        }
        for (index, item) in ((log?["entries"] as? [Any]) ?? []).enumerated() {
            let entry = item as? [String: Any], path = "entries[\(index)]"
            require(entry, path, [
                ("startedDateTime", date), ("time", nonNegative), ("request", object), ("response", object), ("cache", object), ("timings", object),
            ])
            let request = entry?["request"] as? [String: Any]
            require(request, "\(path).request", [
                ("method", string), ("url", string), ("httpVersion", string), ("cookies", array), ("headers", array),
                ("queryString", array), ("headersSize", integer), ("bodySize", integer),
            ])
            for (number, pair) in ((request?["queryString"] as? [Any]) ?? []).enumerated() {
                require(pair as? [String: Any], "\(path).request.queryString[\(number)]", [("name", string), ("value", string)])
            }
            let response = entry?["response"] as? [String: Any]
            require(response, "\(path).response", [
                ("status", integer), ("statusText", string), ("httpVersion", string), ("cookies", array), ("headers", array),
                ("content", object), ("redirectURL", string), ("headersSize", integer), ("bodySize", integer),
            ])
            require(response?["content"] as? [String: Any], "\(path).response.content", [("size", integer), ("mimeType", string)])
            let timings = entry?["timings"] as? [String: Any]
            require(timings, "\(path).timings", [("send", nonNegative), ("wait", nonNegative), ("receive", nonNegative)])
            // The entry's time is the sum of its timings, leaving out the -1s of "not known".
            let sum = (timings ?? [:]).values.compactMap { $0 as? Double }.filter { $0 >= 0 }.reduce(0, +)
            if let time = entry?["time"] as? Double, time != sum { found.append("\(path).time \(time) is not the sum of its timings \(sum)") }
        }
        return found
    }
}
