import Foundation
import LoopbackServers
import Testing

/// Every table holds the width it is given — 60, 80, 100 or 160 columns —
/// with every kind of row on screen, and gives up the least useful cells
/// first: columns no row uses, the date today's rows share, then the ends
/// of free text (a URL keeps its host and the end of its path, an error its
/// first words).
@Suite("tables on narrow terminals")
struct NarrowTerminalTests {
    static let longURL = "https://numbers.example.org/api/v2/random/numbers/with/a/rather/long/path/latest"
    static let error = "the server answered HTTP 500 Internal Server Error after retrying"

    /// One session of every kind of row, from two hosts, one of them last
    /// year (so no part of the date can go): a long URL failing with HTTP
    /// 500, a timeout, a cancel, an interrupted fetch, a Japanese value.
    static func history() async throws -> Sandbox {
        let sandbox = try Sandbox()
        let lastYear = ISO.ms("2025-06-01T08:00:00")
        let records = [
            ExportRecord.make("failed", id: Ids.fetch(1), source: longURL, at: lastYear, duration: 61_234, error: error,
                              status: 500, bytes: 123_456, host: "probe-eu-west-17.example.internal"),
            ExportRecord.make("timed-out", id: Ids.fetch(2), source: longURL, at: Fixtures.day0, host: "ci"),
            ExportRecord.make("cancelled", id: Ids.fetch(3), at: Fixtures.day0 + 1000, host: "ci"),
            ExportRecord.make("interrupted", id: Ids.fetch(4), session: Ids.session(2), at: Fixtures.day0 + 2000, host: "ci"),
            ExportRecord.make("succeeded", id: Ids.fetch(5), session: Ids.session(2), at: Fixtures.day0 + 3000, value: 0, host: "ci"),
        ].map(\.jsonLine).map {
            $0.replacingOccurrences(of: "\"value\":0,", with: "\"value\":\"東京の天気は晴れ、明日は雨が降るでしょう\",")
        }
        try await sandbox.succeed("import", "-", stdin: Data((records.joined(separator: "\n") + "\n").utf8))
        return sandbox
    }

    static let commands: [[String]] = [
        ["list"], ["stats", "--by", "source"], ["stats", "--by", "outcome"], ["stats", "--by", "hour"],
        ["stats", "--by", "day"], ["stats", "--by", "host"], ["sessions"], ["stats", "--by", "problem"],
        ["stats", "--by", "source,problem"], ["stats", "--by", "problem,host", "--since", "2026-11-20", "--compare"],
        ["stats", "--by", "host,source", "--since", "2026-11-20", "--compare", "--summary"],
    ]

    @Test(arguments: [60, 80, 100, 160])
    func everyTableFitsTheWidth(_ columns: Int) async throws {
        // Given a history with every kind of row
        let sandbox = try await Self.history()

        for command in Self.commands {
            // When each table is shown at that width
            let result = try await sandbox.run(command, environment: sandbox.environment(.sandbox, ["COLUMNS": "\(columns)"]))

            // Then no line is wider
            #expect(result.status == 0, "\(command): \(result)")
            for line in result.lines {
                #expect(Cells.width(line) <= columns, "\(command) at \(columns): \(Cells.width(line)) cells: \(line)")
            }
        }
    }

    @Test(arguments: [60, 80])
    func aReplayFitsTheWidth(_ columns: Int) async throws {
        // Given a session recorded by the binary, of a source with a long URL that fails
        let sandbox = try Sandbox()
        let server = try LocalHTTPServer { _ in .answer(status: 500, body: Data(Self.error.utf8)) }
        defer { server.stop() }
        let fetched = try await sandbox.run(
            "fetch", "--source", server.url("/api/v2/random/numbers/with/a/rather/long/path/latest"), "--count", "2", "--interval", "0"
        )
        #expect(fetched.status == 1, "\(fetched)")

        // When it is replayed at that width
        let result = try await sandbox.run(["replay"], environment: sandbox.environment(.sandbox, ["COLUMNS": "\(columns)"]))

        // Then it matches, and no line is wider
        #expect(result.status == 0 && result.lines.last == "replay matches 2 fetches", "\(result)")
        for line in result.lines {
            #expect(Cells.width(line) <= columns, "\(Cells.width(line)) cells: \(line)")
        }
    }

    @Test(arguments: [80, 100, 160])
    func aURLKeepsItsHostAndAnErrorItsFirstWords(_ columns: Int) async throws {
        // Given a failed fetch of a long URL
        let sandbox = try Sandbox()
        try await sandbox.succeed("import", "-", stdin: Data((ExportRecord.make(
            "failed", id: Ids.fetch(1), source: Self.longURL, at: Fixtures.day0, error: Self.error, status: 500, bytes: 1234
        ).jsonLine + "\n").utf8))

        // When listed at that width
        let result = try await sandbox.run(["list", "--no-header"], environment: sandbox.environment(.sandbox, ["COLUMNS": "\(columns)"]))

        // Then SOURCE starts with the host (and, with room for it, ends with the path's last
        // segment), and RESULT is the error's start: its first words, or, when those would be
        // fewer than twelve characters, its first characters
        let row = try #require(result.lines.first, "\(result)")
        #expect(Cells.width(row) <= columns, "\(row)")
        let source = try #require(row.split(separator: " ").last, "\(row)")
        #expect(source.hasPrefix("…numbers.exam"), "\(row)")
        if columns >= 160 { #expect(source == "…numbers.example.org/…/latest", "\(row)") }
        let shown = try #require(row.firstRange(of: "the server"), "\(row)")
        let start = String(row[shown.lowerBound...].prefix { $0 != "…" }).trimmingCharacters(in: .whitespaces)
        #expect(Self.error.hasPrefix(start) && start.count >= 12, "\(row)")
    }

    @Test func columnsNoRowUsesGoAndTodaysRowsShowOnlyTheTimeWhenSpaceIsShort() async throws {
        // Given fetches of the random source, recorded now
        let sandbox = try Sandbox()
        try await sandbox.succeed("fetch", "--count", "2", "--latency", "0", "--interval", "0")

        // When listed at 60 columns, and to a pipe
        let narrow = try await sandbox.run(["list"], environment: sandbox.environment(.sandbox, ["COLUMNS": "60"]))
        let piped = try await sandbox.run("list")

        // Then neither has HTTP or BYTES (no row has a response); the narrow one drops the date today's rows share
        for result in [narrow, piped] {
            #expect(result.lines.first?.split(separator: " ") == ["ID", "STARTED", "DURATION", "OUTCOME", "RESULT", "SOURCE"], "\(result)")
        }
        let today = try #require(piped.lines.dropFirst().first?.split(separator: " ").dropFirst().first, "\(piped)")
        #expect(today.count == 10 && today.contains("-"), "\(piped)")
        let time = try #require(narrow.lines.dropFirst().first?.split(separator: " ").dropFirst().first, "\(narrow)")
        #expect(time.count == 8 && time.contains(":"), "\(narrow)")
    }

    @Test func pipedFetchesAreOneShortLineEachInListsOrder() async throws {
        // Given an empty history
        let sandbox = try Sandbox()

        // When three fetches go to a pipe (no COLUMNS), then the history is listed to a pipe
        let fetched = try await sandbox.succeed("fetch", "--count", "3", "--latency", "0", "--interval", "0")
        let listed = try await sandbox.succeed("list")

        // Then each printed fetch fits an 80-column terminal, and its cells line up with list's columns
        #expect(fetched.lines.count == 3, "\(fetched)")
        for line in fetched.lines {
            #expect(Cells.width(line) <= 80, "\(Cells.width(line)) cells: \(line)")
            let cells = line.split(separator: " ", omittingEmptySubsequences: true)
            let row = try #require(listed.lines.first { $0.hasPrefix(cells[0]) }, "\(listed)")
            #expect(row.split(separator: " ", omittingEmptySubsequences: true) == cells, "\(line) / \(row)")
        }
    }

    @Test func statsByEveryStatusFitsEightyColumnsWithShortHeaders() async throws {
        // Given a history with every status, from one source
        let sandbox = try await Self.history()

        // When stats --by outcome is shown at 80 columns and to a pipe
        let narrow = try await sandbox.run(["stats", "--by", "host"], environment: sandbox.environment(.sandbox, ["COLUMNS": "60"]))
        let piped = try await sandbox.run("stats", "--by", "host")

        // Then the pipe has every long header, the narrow screen the short ones
        let wide = try #require(piped.lines.first { $0.hasPrefix("HOST") }, "\(piped)")
        #expect(wide.contains("SUCCEEDED") && wide.contains("SUCCESS RATE"), "\(piped)")
        let short = try #require(narrow.lines.first { $0.hasPrefix("HOST") }, "\(narrow)")
        #expect(short.contains("OK") && short.contains(" RATE") && !short.contains("SUCCEEDED"), "\(narrow)")
    }

    @Test func countsNoGroupHasGoFirstSoLongHeadersStay() async throws {
        // Given succeeded, cancelled and timed-out fetches: no failed, interrupted or running one
        let sandbox = try Sandbox()
        try await sandbox.importRecords([
            .make("succeeded", id: Ids.fetch(1), at: Fixtures.day0), .make("succeeded", id: Ids.fetch(2), at: Fixtures.day0 + 1),
            .make("cancelled", id: Ids.fetch(3), at: Fixtures.day0 + 2), .make("timed-out", id: Ids.fetch(4), at: Fixtures.day0 + 3),
        ])

        // When stats --by source is shown at 90 columns (its whole table takes 120)
        let result = try await sandbox.run(["stats", "--by", "source"], environment: sandbox.environment(.sandbox, ["COLUMNS": "90"]))

        // Then the three columns of zeros go, and the others keep their long headers
        #expect(result.lines.first { $0.hasPrefix("SOURCE") }?.split(separator: " ", omittingEmptySubsequences: true)
            == ["SOURCE", "FETCHES", "SUCCEEDED", "CANCELLED", "TIMED-OUT", "SUCCESS", "RATE", "P50", "P90", "P95", "P99"], "\(result)")
    }
}
