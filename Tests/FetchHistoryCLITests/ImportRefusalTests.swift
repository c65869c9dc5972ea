import Foundation
import Testing

/// What `import` says about input that is not an export, or an export cut
/// short: what the user gave and what it reads instead, not where a JSON
/// parser gave up; and nothing imported, not even a new empty database.
@Suite("import says what its input is when it is not an export")
struct ImportRefusalTests {
    static let expected = "import reads JSON Lines or a JSON array of records, as `export` writes them"

    /// Runs `import` of `bytes`, written to a file, into a database that does
    /// not exist yet; expects it refused with exactly `message` and nothing made.
    static func expectRefused(
        _ bytes: Data, _ message: String, in sandbox: Sandbox, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let file = sandbox.path("input-\(UUID().uuidString.prefix(8))")
        try bytes.write(to: URL(fileURLWithPath: file))
        let target = sandbox.path("target-\(UUID().uuidString.prefix(8)).sqlite")
        let result = try await sandbox.run("import", "-d", target, file)
        #expect(result.status == 1, "\(result)", sourceLocation: sourceLocation)
        #expect(result.standardError == "error: \(file): \(message); nothing was imported\n", "\(result)", sourceLocation: sourceLocation)
        #expect(result.standardOutput.isEmpty, "\(result)", sourceLocation: sourceLocation)
        #expect(!FileManager.default.fileExists(atPath: target), "a database was left behind", sourceLocation: sourceLocation)
    }

    @Test func whatListWritesAsTSVOrCSVIsCalledByItsHeader() async throws {
        // Given a history, listed as TSV
        let sandbox = try Sandbox()
        try await sandbox.importRecords(Fixtures.standard)
        let tsv = try await sandbox.succeed("list", "--format", "tsv")

        // When that, and a CSV with a header, are imported
        // Then each is refused as not an export, naming its first columns
        try await Self.expectRefused(
            tsv.standardOutputData,
            "not a fetch-history export: its first line is a TSV header (id, session, source, …); \(Self.expected)", in: sandbox)
        try await Self.expectRefused(
            Data("id,outcome,durationMs\nab12,succeeded,300\n".utf8),
            "not a fetch-history export: its first line is a CSV header (id, outcome, durationMs); \(Self.expected)", in: sandbox)
        try await Self.expectRefused(
            Data("ab12\tsucceeded\t300\n".utf8),
            "not a fetch-history export: its first line is tab-separated values (TSV); \(Self.expected)", in: sandbox)
    }

    @Test func plainTextBinaryAndADatabaseAreCalledWhatTheyAre() async throws {
        // Given an empty sandbox and a history file
        let sandbox = try Sandbox()
        try await sandbox.importRecords(Fixtures.standard)
        let database = try Data(contentsOf: URL(fileURLWithPath: sandbox.database))

        // When text (that a JSON parser takes for a misspelt null), text with an escape
        // sequence, a long line, binary data and the history file itself are imported
        // Then each is refused as not an export, saying what it is; text is quoted, safely
        try await Self.expectRefused(
            Data("nothing to see here\nreally\n".utf8),
            #"not a fetch-history export: its first line is text ("nothing to see here"); \#(Self.expected)"#, in: sandbox)
        try await Self.expectRefused(
            Data("\u{1B}[2J cleared, oh\n".utf8),
            #"not a fetch-history export: its first line is text ("\x1b[2J cleared, oh"); \#(Self.expected)"#, in: sandbox)
        try await Self.expectRefused(
            Data((String(repeating: "word ", count: 20) + "\n").utf8),
            #"not a fetch-history export: its first line is text ("word word word word word word word word…"); \#(Self.expected)"#,
            in: sandbox)
        try await Self.expectRefused(
            Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00]),
            "not a fetch-history export: it is binary data, not text; \(Self.expected)", in: sandbox)
        try await Self.expectRefused(
            database,
            "not a fetch-history export: it is an SQLite database; \(Self.expected)"
                + " (to copy a history: `fetch-history export -d FILE | fetch-history import -`)", in: sandbox)
    }

    @Test func anExportCutShortSaysItEndsInsideARecordAndImportsNothing() async throws {
        // Given a history of two fetches, exported as JSON Lines and as a JSON array
        let sandbox = try Sandbox()
        try await sandbox.importRecords(Array(Fixtures.standard.prefix(2)))
        let lines = try await sandbox.succeed("export", "--format", "jsonl").standardOutput
        let array = try await sandbox.succeed("export", "--format", "json").standardOutput

        // When each is cut short: the lines just after a comma in the second record,
        // the array just after the comma that ends the first record, and just after it
        let secondLine = try #require(lines.split(separator: "\n").last)
        let cutInRecord = try #require(secondLine.firstIndex(of: ","))
        let linesCut = lines[..<secondLine.startIndex] + secondLine[...cutInRecord]
        let firstEnd = try #require(array.range(of: "},")?.upperBound)
        let arrayCut = String(array[..<firstEnd])
        let arrayEnd = try #require(array.range(of: "}", options: .backwards)?.upperBound)
        let arrayUnclosed = String(array[..<arrayEnd])

        // Then each says the input ends inside the record or the array, with the
        // record's number and where it starts, and nothing is imported
        try await Self.expectRefused(
            Data(linesCut.utf8), "record 2 (line 2, column 1): the input ends inside this record, as if it was cut short", in: sandbox)
        let arrayCutPlace = Self.place(ofEndOf: arrayCut)
        try await Self.expectRefused(
            Data(arrayCut.utf8), "\(arrayCutPlace): the input ends inside the JSON array, after record 1, as if it was cut short", in: sandbox)
        try await Self.expectRefused(
            Data(arrayUnclosed.utf8),
            "\(Self.place(ofEndOf: arrayUnclosed)): the input ends inside the JSON array, after record 2, as if it was cut short", in: sandbox)
    }

    /// "line L, column C" of the end of `text`, columns counted in bytes.
    static func place(ofEndOf text: String) -> String {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        return "line \(lines.count), column \((lines.last?.utf8.count ?? 0) + 1)"
    }
}
