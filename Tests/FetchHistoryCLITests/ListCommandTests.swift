import Foundation
import Testing

@Suite("list shows the history newest first, filtered")
struct ListCommandTests {
    /// A sandbox holding `Fixtures.standard`.
    private func standardHistory() async throws -> Sandbox {
        let sandbox = try Sandbox()
        try await sandbox.importRecords(Fixtures.standard)
        return sandbox
    }

    private func ids(_ records: [ExportRecord], where include: (ExportRecord) -> Bool = { _ in true }) -> [String] {
        ExportRecord.newestFirst(records.filter(include)).map(\.id)
    }

    @Test func listShowsTheNewestTwentyByDefaultNewestFirst() async throws {
        // Given 25 fetches
        let sandbox = try Sandbox()
        let records = Fixtures.succeeded(25)
        try await sandbox.importRecords(records.shuffled())

        // When listed with no options
        let result = try await sandbox.run("list", "--format", "jsonl")

        // Then the newest 20 come out, newest first
        #expect(result.status == 0, "\(result)")
        let listed = try result.lines.map { try ExportRecord(jsonLine: $0).id }
        #expect(listed == Array(ids(records).prefix(20)))
    }

    @Test func limitZeroListsEveryFetchAndAPositiveLimitCaps() async throws {
        // Given 25 fetches
        let sandbox = try Sandbox()
        let records = Fixtures.succeeded(25)
        try await sandbox.importRecords(records)

        // When listed with --limit 0 and --limit 3
        let all = try await sandbox.listedIDs([])
        let three = try await sandbox.run("list", "--limit", "3", "--format", "jsonl")

        // Then 0 means all 25, and 3 means the newest 3
        #expect(all == ids(records))
        #expect(try three.lines.map { try ExportRecord(jsonLine: $0).id } == Array(ids(records).prefix(3)))
    }

    @Test func listedRecordsAreTheImportedRecordsUnchanged() async throws {
        // Given the standard history
        let sandbox = try await standardHistory()

        // When listed as JSON lines
        let result = try await sandbox.run("list", "--limit", "0", "--format", "jsonl")

        // Then every field of every record is as imported (a running one reads as interrupted), newest first
        let listed = try result.lines.map(ExportRecord.init(jsonLine:))
        #expect(listed == ExportRecord.newestFirst(Fixtures.standard.map(Fixtures.asRead)))
    }

    @Test(arguments: ["succeeded", "failed", "cancelled", "timed-out", "interrupted", "running"])
    func outcomeFilterListsOnlyThatOutcome(outcome: String) async throws {
        // Given the standard history, with every outcome
        let sandbox = try await standardHistory()

        // When listed with --outcome
        let listed = try await sandbox.listedIDs(["--outcome", outcome])

        // Then exactly the fetches with that outcome come out; an imported running fetch has
        // no live recorder, so it counts as interrupted and never as running
        let expected = ids(Fixtures.standard.map(Fixtures.asRead)) { $0.outcome == outcome }
        #expect(listed == expected)
        if outcome != "running" { #expect(!listed.isEmpty) }
    }

    @Test func sourceFilterMatchesTheExactSourceItsHostOrAURLPrefix() async throws {
        // Given the standard history, with two sources: random and https://numbers.example/api
        let sandbox = try await standardHistory()

        // When listed by each source, by the URL's host, by a URL prefix, and by a plain prefix
        let random = try await sandbox.listedIDs(["--source", "random"])
        let other = try await sandbox.listedIDs(["--source", Fixtures.otherSource])
        let host = try await sandbox.listedIDs(["--source", "numbers.example"])
        let urlPrefix = try await sandbox.listedIDs(["--source", "https://numbers"])
        let plainPrefix = try await sandbox.listedIDs(["--source", "rand"])

        // Then each source gets its own fetches, as do its host and a URL prefix; text without
        // :// is a whole source or host, never a prefix
        #expect(random == ids(Fixtures.standard) { $0.source == "random" })
        #expect(other == ids(Fixtures.standard) { $0.source == Fixtures.otherSource })
        #expect(host == other)
        #expect(urlPrefix == other)
        #expect(plainPrefix.isEmpty)
    }

    @Test func sessionFilterTakesAFullIdOrAUniquePrefix() async throws {
        // Given the standard history, with sessions 5e550001-…, 5e550002-…, 5e550003-…
        let sandbox = try await standardHistory()
        let session = Ids.session(2)

        // When listed by the full id, by an upper-case full id, and by a unique prefix
        let full = try await sandbox.listedIDs(["--session", session])
        let upper = try await sandbox.listedIDs(["--session", session.uppercased()])
        let prefix = try await sandbox.listedIDs(["--session", "5e550002"])

        // Then each gives that session's fetches
        let expected = ids(Fixtures.standard) { $0.session == session }
        #expect(expected.count == 4)
        #expect(full == expected)
        #expect(upper == expected)
        #expect(prefix == expected)
    }

    @Test func anAmbiguousOrUnknownSessionPrefixIsAnError() async throws {
        // Given the standard history
        let sandbox = try await standardHistory()

        // When listed by a prefix three sessions share, and by one no session has
        let ambiguous = try await sandbox.run("list", "--session", "5e55000")
        let unknown = try await sandbox.run("list", "--session", "abc")

        // Then both exit 1 with a message saying why
        #expect(ambiguous.status == 1, "\(ambiguous)")
        #expect(ambiguous.standardError.hasPrefix("error:") && ambiguous.standardError.contains("several"), "\(ambiguous)")
        #expect(ambiguous.standardOutput.isEmpty)
        #expect(unknown.status == 1, "\(unknown)")
        #expect(unknown.standardError.hasPrefix("error:") && unknown.standardError.contains("abc"), "\(unknown)")
    }

    @Test func sinceIsInclusiveAndUntilExclusiveForISODateTimes() async throws {
        // Given the standard history, fetches at whole hours from 2026-11-20T10:00:00.250Z
        let sandbox = try await standardHistory()
        let start = Fixtures.day0 + Fixtures.day  // 2026-11-21T10:00:00.000Z, fetch 5's start

        // When listed from exactly one fetch's start to exactly another's
        let window = try await sandbox.listedIDs(["--since", "2026-11-21T10:00:00Z", "--until", "2026-11-21T12:00:00.000Z"])
        let offset = try await sandbox.listedIDs(["--since", "2026-11-21T11:00:00+01:00", "--until", "2026-11-21T13:00:00+01:00"])
        let milliseconds = try await sandbox.listedIDs(["--since", "2026-11-20T10:00:00.251Z", "--until", "2026-11-20T12:00:00.001Z"])

        // Then the --since fetch is in, the --until fetch is out, and zones and milliseconds count
        #expect(window == ids(Fixtures.standard) { $0.startedAt >= start && $0.startedAt < start + 2 * Fixtures.hour })
        #expect(window == [Ids.fetch(6), Ids.fetch(5)])
        #expect(offset == window)
        #expect(milliseconds == [Ids.fetch(3), Ids.fetch(2)])
    }

    @Test func datesAndZonelessTimesAreReadInTheLocalZone() async throws {
        // Given the standard history, and a user in UTC and one in Tokyo (UTC+9)
        let sandbox = try await standardHistory()
        let tokyo = sandbox.environment(.sandbox, ["TZ": "Asia/Tokyo"])

        // When listed with date-only and zone-less bounds
        let utcDay = try await sandbox.listedIDs(["--since", "2026-11-21", "--until", "2026-11-22"])
        let tokyoResult = try await sandbox.run(
            ["list", "--limit", "0", "--format", "jsonl", "--since", "2026-11-21T19:00:00", "--until", "2026-11-21T20:00:01"],
            environment: tokyo
        )

        // Then the bounds are read in the local zone: 19:00 in Tokyo is 10:00Z
        #expect(utcDay == ids(Fixtures.standard) { $0.startedAt >= Fixtures.day0 + Fixtures.day - 10 * Fixtures.hour && $0.startedAt < Fixtures.day0 + 2 * Fixtures.day - 10 * Fixtures.hour })
        #expect(utcDay.count == 4)
        #expect(try tokyoResult.lines.map { try ExportRecord(jsonLine: $0).id } == [Ids.fetch(6), Ids.fetch(5)], "\(tokyoResult)")
    }

    @Test func localTimesFollowTheZonesDaylightSavingTime() async throws {
        // Given fetches at noon UTC in winter and in summer, and a user in Paris (UTC+1, UTC+2 in summer)
        let sandbox = try Sandbox()
        let winterNoon: Int64 = 1_768_478_400_000  // 2026-01-15T12:00:00Z
        let summerNoon: Int64 = 1_784_116_800_000  // 2026-07-15T12:00:00Z
        try await sandbox.importRecords([
            ExportRecord.make("succeeded", id: Ids.fetch(1), at: winterNoon),
            ExportRecord.make("succeeded", id: Ids.fetch(2), at: summerNoon),
        ])
        let paris = sandbox.environment(.sandbox, ["TZ": "Europe/Paris"])

        // When listed as a table, and with zone-less bounds, in Paris
        let table = try await sandbox.run(["list"], environment: paris)
        let summer = try await sandbox.run(
            ["list", "--format", "jsonl", "--since", "2026-07-15T14:00:00", "--until", "2026-07-15T14:00:01"], environment: paris
        )
        let winter = try await sandbox.run(
            ["list", "--format", "jsonl", "--since", "2026-01-15T13:00:00", "--until", "2026-01-15T13:00:01"], environment: paris
        )

        // Then each time is shown and read with the offset of its own season
        #expect(table.standardOutput.contains("2026-07-15 14:00:00"), "\(table)")
        #expect(table.standardOutput.contains("2026-01-15 13:00:00"), "\(table)")
        #expect(try summer.lines.map { try ExportRecord(jsonLine: $0).id } == [Ids.fetch(2)], "\(summer)")
        #expect(try winter.lines.map { try ExportRecord(jsonLine: $0).id } == [Ids.fetch(1)], "\(winter)")
    }

    @Test func sinceAndUntilTakeDurationsMeaningThatLongAgo() async throws {
        // Given fetches 10 minutes, 3 hours, 3 days and 10 days old
        let sandbox = try Sandbox()
        let now = ISO.now
        let records = [
            ExportRecord.make("succeeded", id: Ids.fetch(1), at: now - 10 * 60_000),
            ExportRecord.make("failed", id: Ids.fetch(2), at: now - 3 * Fixtures.hour),
            ExportRecord.make("succeeded", id: Ids.fetch(3), at: now - 3 * Fixtures.day),
            ExportRecord.make("timed-out", id: Ids.fetch(4), at: now - 10 * Fixtures.day),
        ]
        try await sandbox.importRecords(records)

        // When listed with relative bounds
        let lastHour = try await sandbox.listedIDs(["--since", "1h"])
        let last90Minutes = try await sandbox.listedIDs(["--since", "90m"])
        let lastTwoDays = try await sandbox.listedIDs(["--since", "2d"])
        let lastWeek = try await sandbox.listedIDs(["--since", "7d"])
        let olderThanAnHour = try await sandbox.listedIDs(["--until", "1h"])
        let between = try await sandbox.listedIDs(["--since", "5d", "--until", "2h"])
        let seconds = try await sandbox.listedIDs(["--since", "1800s"])

        // Then each takes the fetches started in that window
        #expect(lastHour == [Ids.fetch(1)])
        #expect(last90Minutes == [Ids.fetch(1)])
        #expect(lastTwoDays == [Ids.fetch(1), Ids.fetch(2)])
        #expect(lastWeek == [Ids.fetch(1), Ids.fetch(2), Ids.fetch(3)])
        #expect(olderThanAnHour == [Ids.fetch(2), Ids.fetch(3), Ids.fetch(4)])
        #expect(between == [Ids.fetch(2), Ids.fetch(3)])
        #expect(seconds == [Ids.fetch(1)])
    }

    @Test func filtersCombine() async throws {
        // Given the standard history
        let sandbox = try await standardHistory()

        // When listed with outcome, source and a time bound together
        let listed = try await sandbox.listedIDs(["--outcome", "succeeded", "--source", "random", "--since", "2026-11-21"])

        // Then only fetches matching all of them come out
        #expect(listed == [Ids.fetch(9)])
    }

    @Test func tableFormatPrintsAHeaderAndOneAlignedRowPerFetch() async throws {
        // Given the standard history
        let sandbox = try await standardHistory()

        // When listed as a table (the default) in UTC
        let result = try await sandbox.run("list", "--limit", "4")

        // Then a header and four rows, newest first: short id, local start time, duration, outcome, result, source
        #expect(result.status == 0, "\(result)")
        try #require(result.lines.count == 5, "\(result)")
        let header = result.lines[0]
        for column in ["ID", "STARTED", "DURATION", "OUTCOME", "HTTP", "BYTES", "RESULT", "SOURCE"] {
            #expect(header.contains(column), "\(header)")
        }
        let newest = ExportRecord.newestFirst(Fixtures.standard).prefix(4)
        for (row, record) in zip(result.lines.dropFirst(), newest) {
            #expect(row.hasPrefix(String(record.id.prefix(8)) + "  "), "\(row)")
            let started = ISO.format(record.startedAt)
            #expect(row.contains(started.prefix(10) + " " + started.dropFirst(11).prefix(8)), "\(row)")
            #expect(row.contains(Fixtures.asRead(record).outcome), "\(row)")
            #expect(row.hasSuffix(record.source), "\(row)")
            #expect(!row.contains("\u{1B}["), "NO_COLOR and a pipe: no colour codes in \(row)")
        }
        // The failed fetch's two-line error stays on its row, its line break shown as \n.
        #expect(result.lines[1].contains(#"line one\nline two"#), "\(result.lines[1])")
        #expect(result.lines[2].contains("1.250s") && result.lines[2].contains(" 1 "), "\(result.lines[2])")
        // The HTTP fetch shows its status and size.
        #expect(result.lines[3].contains("  200  ") && result.lines[3].contains(" 4  "), "\(result.lines[3])")
        // Columns line up: OUTCOME starts at the same offset in the header and every row.
        let outcomeColumn = header.range(of: "OUTCOME")!.lowerBound.utf16Offset(in: header)
        for row in result.lines.dropFirst() {
            let outcome = row.dropFirst(outcomeColumn).prefix { $0 != " " }
            #expect(["succeeded", "failed", "cancelled", "timed-out", "interrupted"].contains(String(outcome)), "\(row)")
        }
    }

    @Test func durationAndBytesAreRightAlignedAndTheOtherColumnsLeftAligned() async throws {
        // Given one HTTP fetch whose duration, status, size and value are narrower than their headers
        let sandbox = try Sandbox()
        try await sandbox.importRecords([
            .make("succeeded", id: Ids.fetch(1), source: Fixtures.otherSource, at: Fixtures.day0, duration: 5, value: 1, status: 200, bytes: 2),
        ])

        // When listed
        let result = try await sandbox.run("list")

        // Then DURATION and BYTES end where their headers end; the other cells start where theirs start
        #expect(result.status == 0, "\(result)")
        #expect(result.lines == [
            "ID        STARTED              DURATION  OUTCOME    HTTP  BYTES  RESULT  SOURCE",
            "00000001  2026-11-20 10:00:00       5ms  succeeded  200       2  1       https://numbers.example/api",
        ], "\(result)")
    }

    @Test func theResultOfAFetchWithNeitherValueNorErrorSaysWhyOrIsADash() async throws {
        // Given the standard history: one fetch cancelled by the user, one superseded, one timed out, two interrupted
        let sandbox = try await standardHistory()

        // When each kind is listed
        let cancelled = try await sandbox.run("list", "--no-header", "--outcome", "cancelled")
        let timedOut = try await sandbox.run("list", "--no-header", "--outcome", "timed-out")
        let interrupted = try await sandbox.run("list", "--no-header", "--outcome", "interrupted", "--limit", "1")

        // Then a cancelled fetch's RESULT says who cancelled it; the others have none (and, with no
        // response on screen, there are no HTTP and BYTES columns)
        #expect(cancelled.lines == [
            "00000004  2026-11-21 09:00:00      30ms  cancelled  superseded by a newer fetch  random",
            "00000003  2026-11-20 12:00:00      40ms  cancelled  by the user                  random",
        ], "\(cancelled)")
        #expect(timedOut.lines == ["00000005  2026-11-21 10:00:00     500ms  timed-out  -       https://numbers.example/api"], "\(timedOut)")
        #expect(interrupted.lines == ["00000007  2026-11-21 12:00:00         -  interrupted  -       https://numbers.example/api"], "\(interrupted)")
    }

    @Test func eachOutcomeHasItsOwnColour() async throws {
        // Given a fetch running in a live process, and the standard history with every other outcome
        let sandbox = try await standardHistory()
        let live = try await sandbox.start("fetch", "--latency", "1d")
        _ = try await sandbox.waitForFetch(of: live)

        // When listed in colour
        let result = try await sandbox.run("list", "--limit", "0", "--color", "always")
        live.send(SIGKILL)
        _ = try await live.wait()

        // Then each outcome's cell is painted its colour: green, red, yellow, magenta, cyan
        #expect(result.status == 0, "\(result)")
        let painted = [
            ("32", "succeeded"), ("31", "failed"), ("33", "cancelled"), ("33", "timed-out"), ("35", "interrupted"), ("36", "running"),
        ]
        for (code, outcome) in painted {
            let cell = "\u{1B}[\(code)m" + outcome.padding(toLength: "interrupted".count, withPad: " ", startingAt: 0) + "\u{1B}[0m"
            #expect(result.standardOutput.contains("  " + cell + "  "), "\(outcome): \(result)")
        }
    }

    @Test func tableStartTimesAreInTheLocalZone() async throws {
        // Given the standard history and a user in Tokyo (UTC+9)
        let sandbox = try await standardHistory()

        // When listed as a table
        let result = try await sandbox.run(
            ["list", "--limit", "0"], environment: sandbox.environment(.sandbox, ["TZ": "Asia/Tokyo"])
        )

        // Then 2026-11-20T10:00:00.250Z shows as 19:00:00 local time
        let first = try #require(result.lines.last, "\(result)")
        #expect(first.hasPrefix(String(Ids.fetch(1).prefix(8))) && first.contains("2026-11-20 19:00:00"), "\(first)")
    }

    @Test func jsonFormatPrintsOneArrayOfExportRecords() async throws {
        // Given the standard history
        let sandbox = try await standardHistory()

        // When listed as JSON
        let result = try await sandbox.run("list", "--limit", "0", "--format", "json")

        // Then the output is one JSON array of the records, newest first
        #expect(result.status == 0, "\(result)")
        let array = try #require(try JSONSerialization.jsonObject(with: result.standardOutputData) as? [[String: Any]], "\(result)")
        let records = try array.map(ExportRecord.init(object:))
        #expect(records == ExportRecord.newestFirst(Fixtures.standard.map(Fixtures.asRead)))
    }

    @Test func anEmptyResultIsAnEmptyListNotAnError() async throws {
        // Given the standard history
        let sandbox = try await standardHistory()

        // When a filter matches nothing, in each format
        let table = try await sandbox.run("list", "--source", "nowhere")
        let json = try await sandbox.run("list", "--source", "nowhere", "--format", "json")
        let jsonl = try await sandbox.run("list", "--source", "nowhere", "--format", "jsonl")

        // Then each exits 0: the table says so on stderr, JSON is [], JSON lines is nothing
        #expect(table.status == 0 && table.standardOutput.isEmpty && table.standardError == "no fetches match\n", "\(table)")
        #expect(json.status == 0, "\(json)")
        #expect((try JSONSerialization.jsonObject(with: json.standardOutputData) as? [Any])?.isEmpty == true, "\(json)")
        #expect(jsonl.status == 0 && jsonl.standardOutput.isEmpty, "\(jsonl)")
    }
}

@Suite("Measured durations line up and read back")
struct MeasuredDurationTests {
    @Test(arguments: [
        (999, "999ms"), (1_000, "1.000s"), (59_999, "59.999s"), (60_000, "1m00.000s"), (63_500, "1m03.500s"),
        (600_001, "10m00.001s"), (3_723_000, "62m03.000s"),
    ] as [(Int64, String)])
    func aDurationIsWrittenWithThreeDecimalsAndTwoDigitSecondsPastAMinute(milliseconds: Int64, shown: String) async throws {
        // Given a fetch that took that long
        let sandbox = try Sandbox()
        try await sandbox.importRecords([.make("succeeded", id: Ids.fetch(1), at: Fixtures.day0, duration: milliseconds)])

        // When it is listed and shown
        let list = try await sandbox.succeed("list", "--no-header")
        let show = try await sandbox.succeed("show", Ids.fetch(1))

        // Then its duration reads the same in both, and as a duration again
        let cells = list.lines.first?.split(separator: " ", omittingEmptySubsequences: true) ?? []
        #expect(cells.count > 3 && cells[3] == shown, "\(list)")
        #expect(show.lines.contains { $0.hasPrefix("duration") && $0.hasSuffix(" " + shown) }, "\(show)")
        let timeout = try await sandbox.run("fetch", "--timeout", shown, "--latency", "0")
        #expect(timeout.status == 0, "\(shown): \(timeout)")
    }
}
