import Foundation
import Testing

@Suite("--grep finds fetches by a piece of their error, source or value, ignoring case")
struct GrepTests {
    /// Imports `lines` (JSON records, one a line) as they are.
    private func history(_ lines: [String]) async throws -> Sandbox {
        let sandbox = try Sandbox()
        let file = sandbox.path("fixture.jsonl")
        try Data(lines.map { $0 + "\n" }.joined().utf8).write(to: URL(fileURLWithPath: file))
        let result = try await sandbox.run("import", file)
        #expect(result.status == 0, "\(result)")
        return sandbox
    }

    /// The ids `list --format tsv` prints for `arguments`, in order: TSV,
    /// because the tests' `ExportRecord` reads whole-number values only.
    private func listedIDs(_ sandbox: Sandbox, _ arguments: [String]) async throws -> [String] {
        let result = try await sandbox.run(["list", "--limit", "0", "--format", "tsv", "--no-header"] + arguments)
        #expect(result.status == 0, "\(result)")
        return result.lines.map { String($0.prefix { $0 != "\t" }) }
    }

    /// A succeeded record whose value is `json`, written as it is.
    private func succeeded(_ number: Int, value json: String, source: String = "random") -> String {
        ExportRecord.make("succeeded", id: Ids.fetch(number), source: source, at: Fixtures.day0 + Int64(number) * 1000, value: 1)
            .jsonLine.replacingOccurrences(of: "\"value\":1,", with: "\"value\":\(json),")
    }

    private func failed(_ number: Int, error: String, source: String = "random") -> String {
        ExportRecord.make("failed", id: Ids.fetch(number), source: source, at: Fixtures.day0 + Int64(number) * 1000, error: error)
            .jsonLine
    }

    @Test func caseIsIgnoredBeyondASCII() async throws {
        // Given errors in French and German, one é typed as e + U+0301, and an ASCII-only one
        let sandbox = try await history([
            failed(1, error: "échec de connexion"),
            failed(2, error: "Die Straße ist gesperrt"),
            failed(3, error: "e\u{301}chec decomposed"),
            failed(4, error: "echec without accent"),
            failed(5, error: "STRASSE IN CAPITALS"),
        ])

        // When searched in capitals, in lower case, and for ß and SS
        let capitals = try await listedIDs(sandbox, ["--grep", "ÉCHEC"])
        let lower = try await listedIDs(sandbox, ["--grep", "échec"])
        let sharpS = try await listedIDs(sandbox, ["--grep", "straße"])
        let doubleS = try await listedIDs(sandbox, ["--grep", "STRASSE"])

        // Then É finds é in either form and nothing without the accent; ß and SS find each other
        #expect(capitals == [Ids.fetch(3), Ids.fetch(1)])
        #expect(lower == capitals)
        #expect(sharpS == [Ids.fetch(5), Ids.fetch(2)])
        #expect(doubleS == sharpS)
    }

    @Test func percentUnderscoreAndBackslashAreLiteral() async throws {
        // Given errors with and without %, _ and \
        let sandbox = try await history([
            failed(1, error: "50% off"),
            failed(2, error: "500 off"),
            failed(3, error: "a_b"),
            failed(4, error: "axb"),
            failed(5, error: #"C:\temp"#),
            failed(6, error: "C:/temp"),
        ])

        // When searched for each special character
        let percent = try await listedIDs(sandbox, ["--grep", "%"])
        let underscore = try await listedIDs(sandbox, ["--grep", "a_b"])
        let backslash = try await listedIDs(sandbox, ["--grep", #":\t"#])
        let star = try await listedIDs(sandbox, ["--grep", "*"])

        // Then each matches only the text that has it (no LIKE or GLOB wildcard)
        #expect(percent == [Ids.fetch(1)])
        #expect(underscore == [Ids.fetch(3)])
        #expect(backslash == [Ids.fetch(5)])
        #expect(star.isEmpty)
    }

    @Test func theValueIsSearchedAsShownAndTheSourceToo() async throws {
        // Given an integer value, a JSON string value, and a fetch from an HTTP source
        let sandbox = try await history([
            succeeded(1, value: "424242"),
            succeeded(2, value: #""Hello, World""#),
            failed(3, error: "HTTP 503", source: "http://127.0.0.1:8080/number"),
            succeeded(4, value: "7"),
        ])

        // When searched for part of each
        let integer = try await listedIDs(sandbox, ["--grep", "2424"])
        let string = try await listedIDs(sandbox, ["--grep", "hello, world"])
        let quoted = try await listedIDs(sandbox, ["--grep", #""hello"#])
        let source = try await listedIDs(sandbox, ["--grep", "127.0.0.1:8080"])

        // Then the integer is searched in decimal, a string as its JSON text (quotes included),
        // and the source as recorded
        #expect(integer == [Ids.fetch(1)])
        #expect(string == [Ids.fetch(2)])
        #expect(quoted == [Ids.fetch(2)])
        #expect(source == [Ids.fetch(3)])
    }

    @Test func grepCombinesWithTheOtherFiltersOnListExportAndStats() async throws {
        // Given refused connections from two sources, one succeeded, and another failure
        let sandbox = try await history([
            failed(1, error: "connection refused"),
            failed(2, error: "Connection REFUSED", source: "http://127.0.0.1:8080/n"),
            failed(3, error: "timeout"),
            succeeded(4, value: #""refused""#),
        ])

        // When list, export and stats search with other filters
        let listed = try await listedIDs(sandbox, ["--grep", "refused", "--outcome", "failed", "--source", "127.0.0.1"])
        let exported = try await sandbox.run("export", "--format", "jsonl", "--grep", "REFUSED", "--outcome", "failed")
        let stats = try await sandbox.run("stats", "--format", "json", "--grep", "refused")

        // Then only the fetches matching every filter count
        #expect(listed == [Ids.fetch(2)])
        #expect(exported.status == 0, "\(exported)")
        #expect(try exported.lines.map { try ExportRecord(jsonLine: $0).id } == [Ids.fetch(1), Ids.fetch(2)])
        #expect(stats.status == 0, "\(stats)")
        #expect(stats.standardOutput.contains(#""total":3"#), "\(stats)")
        #expect(stats.standardOutput.contains(#""succeeded":1"#), "\(stats)")
    }

    @Test func anEmptyGrepOrSourceIsRefused() async throws {
        // Given a history
        let sandbox = try await history([failed(1, error: "x")])

        // When --grep or --source is empty (an unset variable)
        let grep = try await sandbox.run("list", "--grep", "")
        let source = try await sandbox.run("export", "--source", "")

        // Then each is a usage error saying so
        #expect(grep.status == 64, "\(grep)")
        #expect(grep.standardError.hasPrefix("error: --grep is empty"), "\(grep)")
        #expect(source.status == 64, "\(source)")
        #expect(source.standardError.hasPrefix("error: --source is empty"), "\(source)")
    }
}
