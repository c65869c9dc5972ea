import Foundation
import Testing
import FetchHistory
@testable import FetchHistoryInterchange
@testable import FetchHistoryModel
@testable import FetchHistoryStore
@testable import FetchHistoryViewState

/// What a record means when it is read back: the edges of what an export
/// (or a script's rewrite of one) may hold.
@Suite("An imported record means what its fields say, at their edges")
struct ImportedRecordMeaningTests {
    static let start = Timestamp(millisecondsSince1970: 1_763_805_600_000)

    static func fetch(_ outcome: FetchOutcome, source: String = "random", response: SourceResponse? = nil) -> Fetch {
        Fetch(
            id: UUID(), sessionID: UUID(), source: source, startedAt: start,
            endedAt: Timestamp(millisecondsSince1970: start.millisecondsSince1970 + 30), durationMilliseconds: 30,
            outcome: outcome, response: response
        )
    }

    static func read(_ line: String) throws -> [Fetch] {
        var fetches: [Fetch] = []
        try FetchRecordReader(data: Data((line + "\n").utf8)).forEach { fetches.append($0) }
        return fetches
    }

    @Test func aResponseOfZeroBytesIsKept() throws {
        // Given a fetch whose server answered an empty body (HTTP 204)
        let empty = Self.fetch(.failed("response is empty"), source: "http://h/n", response: SourceResponse(status: 204, bytes: 0))

        // When its export record is read back
        let read = try Self.read(FetchJSON.string(empty))

        // Then it is accepted, with its status and its zero bytes
        #expect(read == [empty])
        #expect(read.first?.response == SourceResponse(status: 204, bytes: 0))
    }

    @Test(arguments: [
        #""cancelReason":null,"#,
        "",
    ])
    func aCancelledFetchWithoutAReasonWasCancelledByTheUser(reason: String) throws {
        // Given a cancelled fetch's record whose cancelReason is null or left out
        // (docs/formats.md: as in exports written before the reason was kept)
        let cancelled = Self.fetch(.cancelled(.superseded))
        let line = FetchJSON.string(cancelled).replacingOccurrences(of: #""cancelReason":"superseded","#, with: reason)
        #expect(line != FetchJSON.string(cancelled))

        // When it is read
        let read = try Self.read(line)

        // Then the user cancelled it
        #expect(read.map(\.outcome) == [.cancelled(.user)])
    }

    @Test func theEscapedSlashThatJSONEncoderWritesIsASlash() throws {
        // Given a record rewritten by a JSONEncoder, which writes / as \/
        let fetch = Self.fetch(.succeeded(FetchValue(validJSON: #""a/b""#)), source: "https://numbers.example/n")
        let line = FetchJSON.string(fetch).replacingOccurrences(of: "/", with: #"\/"#)
        #expect(line.contains(#"https:\/\/numbers.example\/n"#))

        // When it is read
        let read = try Self.read(line)

        // Then every \/ is a / in the record's strings; a value keeps its JSON
        // text as written, which decodes to the same string
        #expect(read.first?.source == "https://numbers.example/n")
        #expect(try read.first?.value?.decoded(as: String.self) == "a/b")
    }
}

extension ImportedRecordMeaningTests {
    @Test func keysInAnyOrderUnknownKeysAndMissingKeysReadAsTheExportMeans() throws {
        // Given a record rewritten by another tool: its keys reversed, one key
        // of its own added, and the null keys of its script left out
        let fetch = Self.fetch(.timedOut, source: "https://numbers.example/n")
        var members: [(String, String)] = []
        var parser = JSONParser(bytes: Array(FetchJSON.string(fetch).utf8))
        try parser.members { key, parser throws(JSONSyntaxError) in
            let name = try parser.string(key)
            let value = try parser.value()
            members.append((name, String(decoding: parser.bytes[(value.start - (value.kind == .string ? 1 : 0))..<(value.end + (value.kind == .string ? 1 : 0))], as: UTF8.self)))
        }
        let rewritten = members.reversed().filter { $0.1 != "null" }.map { "\"\($0.0)\": \($0.1)" } + [#""note": {"by": ["a", 1]}"#]
        let line = "{ " + rewritten.joined(separator: ", ") + " }"

        // When it is read
        let read = try Self.read(line)

        // Then it is the same fetch
        #expect(read == [fetch], "\(line)")
    }
}
