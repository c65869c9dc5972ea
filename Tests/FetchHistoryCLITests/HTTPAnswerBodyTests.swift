import Foundation
import LoopbackServers
import Synchronization
import Testing

/// What `fetch --source URL` keeps of a failed answer's body (`--keep-body`):
/// its start, secrets hidden, and its Content-Type, carried by `show`,
/// `export` (and back through `import`), HAR, JUnit and the report.
@Suite("fetch --keep-body: the answer a server gave")
struct HTTPAnswerBodyTests {
    /// A 503 whose JSON body holds a token.
    static let busy = #"{"error":"busy","retryAfter":30,"token":"s3cr3t-t0ken"}"#
    static let busyKept = #"{"error":"busy","retryAfter":30,"token":"***"}"#

    /// A server answering `replies` in turn, one per request.
    static func server(answering replies: [LocalHTTPServer.Reply]) throws -> LocalHTTPServer {
        let served = Mutex(0)
        return try LocalHTTPServer { _ in
            served.withLock { count in
                defer { count += 1 }
                return count < replies.count ? replies[count] : .hang
            }
        }
    }

    /// The export's records as JSON objects.
    static func records(_ export: CLIResult) throws -> [[String: Any]] {
        try export.lines.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
    }

    @Test func aFailedAnswersBodyIsKeptWithItsTokenHiddenAndCarriedEverywhere() async throws {
        // Given a server that answers 503 with a JSON body holding a token, then 200 with a value
        let server = try Self.server(answering: [
            .answer(status: 503, contentType: "application/json", body: Data(Self.busy.utf8)),
            .answer(status: 200, contentType: "application/json", body: Data(#"{"token":"abc","n":1}"#.utf8)),
        ])
        defer { server.stop() }
        let sandbox = try Sandbox()

        // When two fetches ask it
        let fetched = try await sandbox.run("fetch", "--source", server.url("/n"), "--count", "2", "--interval", "0")
        #expect(fetched.status == 1, "\(fetched)")

        // Then the export keeps the failed answer's body, token hidden, its type, and that it is whole;
        // the answer that succeeded keeps only its value
        let export = try await sandbox.succeed("export", "--format", "jsonl")
        let records = try Self.records(export)
        try #require(records.count == 2, "\(export)")
        #expect(records[0]["body"] as? String == Self.busyKept)
        #expect(records[0]["contentType"] as? String == "application/json")
        #expect(records[0]["truncated"] as? Bool == false)
        #expect(records[0]["bytes"] as? Int == Self.busy.utf8.count)
        #expect(export.lines[0].hasSuffix(#","body":"{\"error\":\"busy\",\"retryAfter\":30,\"token\":\"***\"}","contentType":"application/json","truncated":false}"#), "\(export)")
        #expect(export.lines[1].hasSuffix(#","body":null,"contentType":null,"truncated":null}"#), "\(export)")
        let id = try #require(records[0]["id"] as? String)

        // and show prints it
        let shown = try await sandbox.succeed("show", id)
        #expect(shown.lines.contains("content type      application/json"), "\(shown)")
        #expect(shown.lines.contains("response body     \(Self.busyKept)"), "\(shown)")

        // and export → import → export gives the same bytes
        let file = sandbox.path("export.jsonl")
        try export.standardOutputData.write(to: URL(fileURLWithPath: file))
        let copy = sandbox.path("copy.sqlite")
        try await sandbox.succeed("import", "-d", copy, file)
        let again = try await sandbox.succeed("export", "-d", copy, "--format", "jsonl")
        #expect(again.standardOutput == export.standardOutput)

        // and HAR gives it as the response's content, with its type
        let harFile = sandbox.path("fetches.har")
        try await sandbox.succeed("export", "--format", "har", "--output", harFile)
        let har = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(filePath: harFile))) as? [String: Any])
        let entries = try #require((har["log"] as? [String: Any])?["entries"] as? [[String: Any]])
        let content = try #require(((entries.first?["response"] as? [String: Any])?["content"]) as? [String: Any])
        #expect(content["text"] as? String == Self.busyKept)
        #expect(content["mimeType"] as? String == "application/json")
        #expect(content["comment"] == nil)

        // and JUnit in the failure's text
        let junit = try await sandbox.succeed("export", "--format", "junit")
        let failure = #"<failure type="failed" message="HTTP 503">HTTP 503"#
            + "\n\nresponse body (46 bytes, Content-Type: application/json):\n"
            + #"{"error":"busy","retryAfter":30,"token":"***"}</failure>"#
        #expect(junit.standardOutput.contains(failure), "\(junit)")

        // and the report in the fetch's details
        let report = try await sandbox.succeed("report", "--output", "-")
        #expect(report.standardOutput.replacingOccurrences(of: "&quot;", with: "\"").contains("body · application/json \(Self.busyKept)"))

        // and the token itself is nowhere
        for output in [export.standardOutput, shown.standardOutput, junit.standardOutput, report.standardOutput,
                       try String(contentsOfFile: harFile, encoding: .utf8)] {
            #expect(!output.contains("s3cr3t"))
        }
    }

    @Test func aFormEncodedBodyHasItsSecretFieldsHidden() async throws {
        // Given a server that answers 401 with form fields, a password and a session among them
        let body = "error=denied&password=hunter2&next=%2Flogin&Session=abc123"
        let server = try Self.server(answering: [
            .answer(status: 401, contentType: "application/x-www-form-urlencoded", body: Data(body.utf8)),
        ])
        defer { server.stop() }
        let sandbox = try Sandbox()

        // When fetched
        _ = try await sandbox.run("fetch", "--source", server.url("/login"))

        // Then the fields are kept but the secret ones' values
        let records = try Self.records(try await sandbox.succeed("export", "--format", "jsonl"))
        #expect(records.first?["body"] as? String == "error=denied&password=***&next=%2Flogin&Session=***")
        #expect(records.first?["contentType"] as? String == "application/x-www-form-urlencoded")
    }

    @Test func aBodyOverTheKeptBytesIsCutThereAndSaysSo() async throws {
        // Given a server that answers 500 with 100 bytes of text
        let body = String(repeating: "0123456789", count: 10)
        let server = try Self.server(answering: [.answer(status: 500, contentType: "text/plain", body: Data(body.utf8))])
        defer { server.stop() }
        let sandbox = try Sandbox()

        // When fetched keeping 16 bytes
        _ = try await sandbox.run("fetch", "--source", server.url("/n"), "--keep-body", "16")

        // Then 16 bytes are kept, the body marked as truncated, and its whole size recorded
        let export = try await sandbox.succeed("export", "--format", "jsonl")
        let record = try #require(try Self.records(export).first)
        #expect(record["body"] as? String == String(body.prefix(16)))
        #expect(record["truncated"] as? Bool == true)
        #expect(record["bytes"] as? Int == 100)
        // and show says it went on
        let shown = try await sandbox.succeed("show", try #require(record["id"] as? String))
        #expect(shown.standardOutput.contains("response body     0123456789012345\n" + String(repeating: " ", count: 18) + "… (truncated: the body went on)\n"), "\(shown)")
    }

    @Test func keepBodyZeroKeepsNone() async throws {
        // Given a server that answers 503 with a body
        let server = try Self.server(answering: [.answer(status: 503, contentType: "application/json", body: Data(Self.busy.utf8))])
        defer { server.stop() }
        let sandbox = try Sandbox()

        // When fetched with --keep-body 0
        _ = try await sandbox.run("fetch", "--source", server.url("/n"), "--keep-body", "0")

        // Then the status and size are recorded, and no body
        let export = try await sandbox.succeed("export", "--format", "jsonl")
        #expect(export.lines.first?.contains(#""status":503,"bytes":55,"#) == true, "\(export)")
        #expect(export.lines.first?.hasSuffix(#""body":null,"contentType":null,"truncated":null}"#) == true, "\(export)")
    }

    @Test(arguments: [
        (["--keep-body", "65537"], "error: --keep-body must be at most 65536 (64 KiB), not 65537"),
        (["--keep-body", "-1"], "error: --keep-body must be 0 or more, not -1"),
        (["--keep-body", "1024"], "error: --keep-body applies to an http(s) --source only"),
    ])
    func aKeptSizeOutOfBoundsIsAUsageError(_ case: (arguments: [String], message: String)) async throws {
        // Given an HTTP source (or the random one, for the last)
        let sandbox = try Sandbox()
        let source = `case`.message.contains("applies") ? [] : ["--source", "http://127.0.0.1:1/n"]

        // When fetch is given the size, then it is refused in one sentence, as a usage error
        let result = try await sandbox.run(["fetch"] + source + `case`.arguments)
        #expect(result.status == 64, "\(result)")
        #expect(result.standardError.hasPrefix(`case`.message), "\(result)")
    }

    @Test func theLargestKeptSizeIsTaken() async throws {
        // Given a port nothing listens on
        let sandbox = try Sandbox()
        let port = try LocalHTTPServer.closedPort()

        // When fetch keeps 64 KiB, then the size is taken: the fetch runs, and fails on the refused connection
        let result = try await sandbox.run("fetch", "--source", "http://127.0.0.1:\(port)/n", "--keep-body", "65536")
        #expect(result.status == 1, "\(result)")
        #expect(!result.standardError.contains("--keep-body"), "\(result)")
    }

    @Test func anExportOfAnEarlierVersionWithoutTheBodyFieldsStillImports() async throws {
        // Given a record of a 503 as an earlier version exported it: no body, contentType or truncated
        let sandbox = try Sandbox()
        let old = ExportRecord.make("failed", id: Ids.fetch(1), at: 1_700_000_000_000, error: "HTTP 503", status: 503, bytes: 4)
        #expect(!old.jsonLine.contains("body"))

        // When imported
        try await sandbox.importRecords([old])

        // Then it exports with the new fields null
        let export = try await sandbox.succeed("export", "--format", "jsonl")
        #expect(export.lines.first?.contains(#""status":503,"bytes":4,"#) == true, "\(export)")
        #expect(export.lines.first?.hasSuffix(#""body":null,"contentType":null,"truncated":null}"#) == true, "\(export)")
    }

    @Test(arguments: [
        ("failed", #""body":"x","contentType":null,"truncated":null"#, "'truncated' must be true or false when 'body' is given"),
        ("failed", #""body":null,"contentType":"text/plain","truncated":null"#, "'contentType' is given but 'body' is null"),
        ("failed", #""body":"x","contentType":null,"truncated":"no""#, "'truncated' must be true or false, not a string"),
        ("succeeded", #""body":"x","contentType":null,"truncated":false"#, "'body' must be null for a succeeded fetch"),
    ])
    func aBodyImportCannotHaveBeenRecordedIsRefused(_ case: (outcome: String, fields: String, message: String)) async throws {
        // Given a fetch's record whose body fields say what recording never writes
        let sandbox = try Sandbox()
        let record = ExportRecord.make(`case`.outcome, id: Ids.fetch(1), at: 1_700_000_000_000, error: "HTTP 503", status: 503, bytes: 1)
        let line = String(record.jsonLine.dropLast()) + "," + `case`.fields + "}\n"
        let file = sandbox.path("bad.jsonl")
        try Data(line.utf8).write(to: URL(fileURLWithPath: file))

        // When imported, then it is refused naming what is wrong
        let result = try await sandbox.run("import", file)
        #expect(result.status != 0, "\(result)")
        #expect(result.standardError.contains(`case`.message), "\(result)")
    }
}
