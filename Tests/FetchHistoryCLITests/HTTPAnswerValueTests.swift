import Foundation
import LoopbackServers
import Synchronization
import Testing

/// What `fetch --source URL` records of a 2xx answer: any JSON value, as the
/// server wrote it (white space between tokens dropped), or an integer in
/// plain text; anything else is a failed fetch whose error names what came.
@Suite("fetch --source URL records any JSON answer as the fetch's value")
struct HTTPAnswerValueTests {
    /// A server answering `bodies` in turn, one per request.
    static func server(answering replies: [LocalHTTPServer.Reply]) throws -> LocalHTTPServer {
        let served = Mutex(0)
        return try LocalHTTPServer { _ in
            served.withLock { count in
                defer { count += 1 }
                return count < replies.count ? replies[count] : .hang
            }
        }
    }

    /// (the body the server sends, the value the export holds)
    static let answers: [(body: String, contentType: String?, recorded: String)] = [
        ("3.5", "application/json", "3.5"),
        (#"{"value": 3.5}"#, "application/json", "3.5"),
        ("{ \"id\" : 7, \"name\" : \"Ada  L.\", \"tags\" : [ \"a\", \"b\" ] }", "application/json", #"{"id":7,"name":"Ada  L.","tags":["a","b"]}"#),
        ("[1, 2.50, \"three\"]\n", "application/json", #"[1,2.50,"three"]"#),
        (#""Grüße""#, "application/json", #""Grüße""#),
        ("true", nil, "true"),
        ("false", "text/plain", "false"),
        ("null", "application/json", "null"),
        ("1e400", "application/json", "1e400"),
        ("-0.0", "application/json", "-0.0"),
        (" 42\n", "text/plain", "42"),
        (#"{"number": 5, "unit": "apples"}"#, "application/json", "5"),
    ]

    @Test func decimalsObjectsArraysStringsAndLiteralsAreRecordedAsTheJSONTheyAre() async throws {
        // Given a server answering a JSON value of every kind, one per request
        let server = try Self.server(answering: Self.answers.map {
            .answer(status: 200, contentType: $0.contentType, body: Data($0.body.utf8))
        })
        defer { server.stop() }
        let sandbox = try Sandbox()

        // When a run of fetches asks it for each
        let result = try await sandbox.run(
            "fetch", "--source", server.url("/v"), "--count", String(Self.answers.count), "--interval", "0", "--format", "jsonl")

        // Then every fetch succeeded, and the export holds each value as the server wrote it,
        // with the status and the body's size
        #expect(result.status == 0, "\(result)")
        let exported = try await sandbox.run("export", "--format", "jsonl")
        try #require(exported.lines.count == Self.answers.count, "\(exported)")
        for (line, answer) in zip(exported.lines, Self.answers) {
            #expect(line.contains(#""outcome":"succeeded","cancelReason":null,"value":\#(answer.recorded),"error":null,"#), "\(line)")
            #expect(line.contains(#""status":200,"bytes":\#(answer.body.utf8.count)"#), "\(line)")
        }
        // and what fetch printed is what was recorded
        #expect(result.lines == exported.lines, "\(result)")
    }

    @Test func theDeepestAnswerFetchRecordsIsImportedBackFromItsExport() async throws {
        // Given a server answering arrays nested 64 deep, the most an answer may be
        let nested = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        let server = try Self.server(answering: [.answer(status: 200, contentType: "application/json", body: Data(nested.utf8))])
        defer { server.stop() }
        let sandbox = try Sandbox()

        // When fetched, exported, and the export imported into a new history
        try await sandbox.succeed("fetch", "--source", server.url("/deep"))
        let exported = try await sandbox.succeed("export", "--format", "jsonl").standardOutput
        #expect(exported.contains(#""value":\#(nested)"#), "\(exported)")
        let file = sandbox.path("deep.jsonl")
        try exported.write(toFile: file, atomically: true, encoding: .utf8)
        let copy = sandbox.path("copy.sqlite")
        let imported = try await sandbox.run("import", "--database", copy, file)

        // Then the import takes it, and exports it the same: the record around the value adds no depth
        #expect(imported.status == 0, "\(imported)")
        #expect(try await sandbox.succeed("export", "--database", copy, "--format", "jsonl").standardOutput == exported)
    }

    @Test func aBodyThatIsNeitherJSONNorANumberFailsNamingItsFirstCharactersAndItsType() async throws {
        // Given a server answering an HTML page holding an escape sequence, text with no
        // Content-Type, a long line of text, and nothing at all
        let page = "<!doctype html>\n<title>\u{1B}[31mOops</title>"
        let long = String(repeating: "abcdefghij", count: 12)
        let server = try Self.server(answering: [
            .answer(status: 200, contentType: "text/html; charset=utf-8", body: Data(page.utf8)),
            .answer(status: 200, contentType: nil, body: Data("forty-two".utf8)),
            .answer(status: 200, contentType: "text/plain", body: Data(long.utf8)),
            .answer(status: 200, contentType: "text/plain", body: Data()),
        ])
        defer { server.stop() }
        let sandbox = try Sandbox()

        // When a run of fetches asks it for each
        let result = try await sandbox.run("fetch", "--source", server.url("/v"), "--count", "4", "--interval", "0")

        // Then each fetch failed with one sentence naming what came: its first 80
        // characters, escaped where they would drive the terminal, and its Content-Type
        #expect(result.status == 1, "\(result)")
        let records = try await sandbox.exportedRecords()
        #expect(records.map(\.error) == [
            #"response is neither JSON nor a number: "<!doctype html>\n<title>\x1b[31mOops</title>" (Content-Type: text/html; charset=utf-8)"#,
            #"response is neither JSON nor a number: "forty-two""#,
            #"response is neither JSON nor a number: "\#(long.prefix(80))" (Content-Type: text/plain)"#,
            "response is empty (Content-Type: text/plain)",
        ], "\(records)")
        #expect(records.map(\.status) == [200, 200, 200, 200] && records.map(\.bytes) == [page.utf8.count, 9, 120, 0], "\(records)")
        #expect(!(result.standardOutput + result.standardError).contains("\u{1B}"), "\(result)")
    }
}
