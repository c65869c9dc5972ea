import Foundation
import Testing

/// `list`'s table fits the width it is given (COLUMNS, or the terminal's own
/// size), measured in the cells a terminal shows, and is cut nowhere when
/// it goes to a pipe.
@Suite("the table fits the terminal's width, in display cells")
struct TableWidthTests {
    static let longURL = "https://numbers.example/api/v2/random/numbers/with/a/rather/long/path?format=plain&count=1"
    static let longValue = String(repeating: "x", count: 60)
    static let japanese = "東京の天気は晴れ、明日は雨が降るでしょう"

    /// Three fetches: a long value from `random`, a failed fetch of a long
    /// URL, and a Japanese string value with a combining accent.
    static func history() async throws -> Sandbox {
        let sandbox = try Sandbox()
        let records = [
            ExportRecord.make("succeeded", id: Ids.fetch(1), at: Fixtures.day0, value: 0).jsonLine
                .replacingOccurrences(of: "\"value\":0,", with: "\"value\":\"\(longValue)\","),
            ExportRecord.make("failed", id: Ids.fetch(2), source: longURL, at: Fixtures.day0 + 1000, error: "the server said no")
                .jsonLine,
            ExportRecord.make("succeeded", id: Ids.fetch(3), at: Fixtures.day0 + 2000, value: 0).jsonLine
                .replacingOccurrences(of: "\"value\":0,", with: "\"value\":\"\(japanese)e\u{301}\","),
        ]
        try await sandbox.succeed("import", "-", stdin: Data((records.joined(separator: "\n") + "\n").utf8))
        return sandbox
    }

    @Test(arguments: [80, 100, 160])
    func everyLineFitsCOLUMNS(_ columns: Int) async throws {
        // Given fetches with a long value, a long URL and Japanese text
        let sandbox = try await Self.history()

        // When listed with COLUMNS set
        let result = try await sandbox.run(["list"], environment: sandbox.environment(.sandbox, ["COLUMNS": "\(columns)"]))

        // Then no line is wider than the width, and every column still starts where its header does
        #expect(result.status == 0, "\(result)")
        try #require(result.lines.count == 4, "\(result)")
        for line in result.lines {
            #expect(Cells.width(line) <= columns, "\(Cells.width(line)) cells: \(line)")
        }
        Self.expectAligned(result.lines, "SOURCE")
        Self.expectAligned(result.lines, "RESULT")
    }

    @Test func aWideEnoughTerminalShowsAResultOfMoreThanFortyCellsWhole() async throws {
        // Given a value of 60 characters, and a URL of 91
        let sandbox = try await Self.history()

        // When listed 230 columns wide: room for both
        let result = try await sandbox.run(["list"], environment: sandbox.environment(.sandbox, ["COLUMNS": "230"]))

        // Then the room is used: the value is shown whole, the long URL too
        #expect(result.standardOutput.contains(Self.longValue), "\(result)")
        #expect(result.standardOutput.contains(Self.longURL), "\(result)")
    }

    @Test func japaneseTextCountsTwoCellsACharacterAndAnAccentNone() async throws {
        // Given a Japanese value (and an e with a combining accent)
        let sandbox = try await Self.history()

        // When listed to a pipe, wide enough for everything
        let result = try await sandbox.run(["list"], environment: sandbox.environment(.sandbox, ["COLUMNS": "200"]))

        // Then SOURCE starts at the same cell in every row, the Japanese one included
        #expect(result.standardOutput.contains(Self.japanese), "\(result)")
        Self.expectAligned(result.lines, "SOURCE")
    }

    @Test func koreanTextCountsTwoCellsASyllable() async throws {
        // Given a Korean value beside a number
        let sandbox = try Sandbox()
        let korean = "안녕하세요 세계"
        try await sandbox.succeed("import", "-", stdin: Data((
            ExportRecord.make("succeeded", id: Ids.fetch(1), at: Fixtures.day0, value: 7).jsonLine + "\n"
                + ExportRecord.make("succeeded", id: Ids.fetch(2), at: Fixtures.day0 + 1000, value: 0).jsonLine
                .replacingOccurrences(of: "\"value\":0,", with: "\"value\":\"\(korean)\",") + "\n"
        ).utf8))

        // When listed wide enough for everything
        let result = try await sandbox.run(["list"], environment: sandbox.environment(.sandbox, ["COLUMNS": "200"]))

        // Then SOURCE starts at the same cell in every row
        #expect(result.standardOutput.contains(korean), "\(result)")
        Self.expectAligned(result.lines, "SOURCE")
    }

    @Test func zeroWidthCharactersTakeNoCell() async throws {
        // Given a value with a zero width space and a word joiner in it, beside a plain number
        let sandbox = try Sandbox()
        let invisible = "zero\u{200B}width\u{2060}joined"
        try await sandbox.succeed("import", "-", stdin: Data((
            ExportRecord.make("succeeded", id: Ids.fetch(1), at: Fixtures.day0, value: 7).jsonLine + "\n"
                + ExportRecord.make("succeeded", id: Ids.fetch(2), at: Fixtures.day0 + 1000, value: 0).jsonLine
                .replacingOccurrences(of: "\"value\":0,", with: "\"value\":\"\(invisible)\",") + "\n"
        ).utf8))

        // When listed wide enough for everything
        let result = try await sandbox.run(["list"], environment: sandbox.environment(.sandbox, ["COLUMNS": "200"]))

        // Then the characters are printed, and SOURCE starts at the same cell in every row
        #expect(result.status == 0 && result.lines.count == 3, "\(result)")
        #expect(result.lines[1].contains("\"\(invisible)\"  random"), "\(result)")
        Self.expectAligned(result.lines, "SOURCE")
    }

    @Test func resultAndSourceNeverGetNarrowerThanTheirHeaders() async throws {
        // Given a long value and a long URL
        let sandbox = try await Self.history()

        // When listed 30 columns wide: less than the fixed columns alone take
        let result = try await sandbox.run(["list"], environment: sandbox.environment(.sandbox, ["COLUMNS": "30"]))

        // Then DURATION goes, the date drops the year the rows share with today, and RESULT and
        // SOURCE keep the six cells of their headers: the headers whole, the cells cut to six (an
        // error to its first characters, never back to a word shorter than twelve; a URL to its
        // host's start)
        #expect(result.status == 0, "\(result)")
        #expect(result.lines == [
            "ID        STARTED         OUTCOME    RESULT  SOURCE",
            "00000003  11-20 10:00:02  succeeded  \"東京…  random",
            "00000002  11-20 10:00:01  failed     the s…  …numb…",
            "00000001  11-20 10:00:00  succeeded  \"xxxx…  random",
        ], "\(result)")
    }

    @Test(arguments: [70, 80, 100])
    func twoSourcesNeverShowTheSameCell(_ columns: Int) async throws {
        // Given fetches of two URLs that differ only in the middle of their paths
        let sandbox = try Sandbox()
        let sources = ["https://api.example.com/v1/accounts/users", "https://api.example.com/v2/accounts/users"]
        try await sandbox.importRecords(sources.enumerated().map { index, source in
            .make("failed", id: Ids.fetch(index + 1), source: source, at: Fixtures.day0 + Int64(index) * 1000,
                  error: "connection refused by 10.0.0.7:8080 while reading", status: 503, bytes: 12)
        })

        // When they are listed at that width
        let result = try await sandbox.run(["list", "--no-header"], environment: sandbox.environment(.sandbox, ["COLUMNS": "\(columns)"]))

        // Then each row's SOURCE cell differs from the other's, each a cut of its own URL, and the lines fit
        #expect(result.status == 0 && result.lines.count == 2, "\(result)")
        let cells = result.lines.compactMap { $0.split(separator: " ").last.map(String.init) }
        #expect(Set(cells).count == 2, "\(result)")
        for (cell, source) in zip(cells, sources.reversed()) {
            #expect(cell.split(separator: "…").allSatisfy { source.contains($0) }, "\(cell) of \(source)")
        }
        for line in result.lines { #expect(Cells.width(line) <= columns, "\(line)") }
    }

    @Test func aPipeWithoutCOLUMNSCutsNoSource() async throws {
        // Given a long URL
        let sandbox = try await Self.history()

        // When listed to a pipe with no COLUMNS
        let result = try await sandbox.run("list")

        // Then the URL is whole, at the end of its row
        #expect(result.lines.contains { $0.hasSuffix(Self.longURL) }, "\(result)")
    }

    @Test func theTerminalsOwnWidthIsUsedWhenCOLUMNSIsUnset() async throws {
        // Given a terminal 100 columns wide (a pseudo-terminal made by script(1))
        let sandbox = try await Self.history()
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "script(1) from util-linux is needed")

        // When list runs on it
        let command = "stty cols 100 rows 40; exec '\(FetchHistoryProcess.binary.path)' list"
        let result = try await sandbox.run(
            ["-qec", command, "/dev/null"], environment: sandbox.environment(.sandbox, ["TERM": "xterm"]),
            executable: URL(fileURLWithPath: "/usr/bin/script")
        )

        // Then every line fits in 100 cells
        #expect(result.status == 0, "\(result)")
        let lines = result.standardOutput.split(separator: "\r\n").map(String.init)
        try #require(lines.count == 4, "\(result)")
        for line in lines {
            #expect(Cells.width(line) <= 100, "\(Cells.width(line)) cells: \(line)")
        }
    }

    /// The header's `column` starts at the same cell as that column in every row:
    /// the cell before it is a space in every line, and the one before that too.
    static func expectAligned(_ lines: [String], _ column: String, sourceLocation: SourceLocation = #_sourceLocation) {
        guard let header = lines.first, let range = header.range(of: column) else {
            Issue.record("no \(column) in \(lines)", sourceLocation: sourceLocation)
            return
        }
        let start = Cells.width(String(header[..<range.lowerBound]))
        for line in lines.dropFirst() {
            let before = Cells.prefix(line, cells: start)
            #expect(before.hasSuffix("  ") && Cells.width(before) == start, "\(column) at cell \(start): \(line)", sourceLocation: sourceLocation)
        }
    }

    @Test(arguments: [1, 3])
    func ofAResultAndASourceEquallyWideTheResultGivesUpCellsFirst(missing: Int) async throws {
        // Given one fetch whose RESULT and SOURCE cells are both 30 cells wide, from last year
        // (so that the date has nothing to give up)
        let sandbox = try Sandbox()
        let value = "\"" + String(repeating: "v", count: 28) + "\""
        // (a source that is not a URL: a URL is cut around its host, not at its end)
        let source = "source-" + String(repeating: "s", count: 23)
        try await sandbox.succeed("import", "-", stdin: Data((
            ExportRecord.make("succeeded", id: Ids.fetch(1), source: source, at: ISO.ms("2025-06-01T08:00:00"), value: 0).jsonLine
                .replacingOccurrences(of: "\"value\":0,", with: "\"value\":\(value),") + "\n"
        ).utf8))
        let whole = try await sandbox.succeed("list", "--no-header")
        let row = try #require(whole.lines.first)
        #expect(row.hasSuffix(value + "  " + source), "\(whole)")

        // When listed `missing` cells narrower than the row, after the three DURATION gives up
        // first for its short header (TIME)
        let narrow = try await sandbox.run(
            ["list", "--no-header"], environment: sandbox.environment(.sandbox, ["COLUMNS": "\(Cells.width(row) - 3 - missing)"])
        )

        // Then RESULT gives up the first cell, then they take turns: the wider first
        let cutValue = String(value.prefix(30 - (missing + 1) / 2 - 1)) + "…"
        let cutSource = missing == 1 ? source : String(source.prefix(30 - missing / 2 - 1)) + "…"
        #expect(narrow.lines.first?.hasSuffix(cutValue + "  " + cutSource) == true, "\(narrow)")
    }

    @Test func fetchsRowsFitEightyColumns() async throws {
        // Given an empty sandbox and an 80-column width
        let sandbox = try Sandbox()

        // When two fetches are printed as they end
        let result = try await sandbox.run(
            ["fetch", "--count", "2", "--latency", "0", "--interval", "0"],
            environment: sandbox.environment(.sandbox, ["COLUMNS": "80"])
        )

        // Then each row fits, with its outcome and its source
        #expect(result.status == 0 && result.lines.count == 2, "\(result)")
        for line in result.lines {
            #expect(Cells.width(line) <= 80 && line.contains("succeeded") && line.hasSuffix("random"), "\(Cells.width(line)) cells: \(line)")
        }
    }
}
