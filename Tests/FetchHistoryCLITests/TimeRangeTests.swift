import Foundation
import Testing

/// `now`, `today` and `yesterday` wherever a time is taken, and a range
/// that ends before it starts refused rather than listed as empty.
@Suite("Times: now, today, yesterday, and ranges that cannot hold a fetch")
struct TimeRangeTests {
    /// Fourteen hours ahead of UTC, written as POSIX TZ (no zone files
    /// needed): far from UTC, so a UTC midnight taken for the local one
    /// shows.
    static let zone = "<+14>-14"
    static let zoneOffset: Int64 = 14 * Fixtures.hour

    /// The local midnight that started today in `zone`.
    static func todayMidnight() -> Int64 {
        let local = ISO.now + zoneOffset
        return local - (local % Fixtures.day) - zoneOffset
    }

    /// Fetches around yesterday's and today's local midnights, and one an
    /// hour from now, each in a session of its own; fetch n is `names[n - 1]`.
    static let names = ["beforeYesterday", "yesterdayFirst", "yesterdayLast", "todayFirst", "inAnHour"]

    static func history(today midnight: Int64) -> [ExportRecord] {
        let starts = [midnight - Fixtures.day - 1, midnight - Fixtures.day, midnight - 1, midnight, ISO.now + Fixtures.hour]
        return starts.enumerated().map { index, start in
            ExportRecord.make("succeeded", id: Ids.fetch(index + 1), session: Ids.session(index + 1), at: start)
        }
    }

    /// Runs `body` on a sandbox holding `history`, again if the local date
    /// changed meanwhile (a test started a moment before midnight).
    static func aroundMidnight(_ body: (Sandbox) async throws -> Void) async throws {
        for _ in 0..<2 {
            let midnight = todayMidnight()
            let sandbox = try Sandbox()
            try await sandbox.importRecords(history(today: midnight))
            try await body(sandbox)
            if todayMidnight() == midnight { return }
        }
    }

    static func environment(_ sandbox: Sandbox) -> [String: String] {
        sandbox.environment(.sandbox, ["TZ": zone])
    }

    static func listed(_ sandbox: Sandbox, _ filter: [String]) async throws -> [String] {
        let result = try await sandbox.run(["list", "--limit", "0", "--format", "jsonl"] + filter, environment: environment(sandbox))
        #expect(result.status == 0, "\(result)")
        return try result.lines.map { line in
            let id = try ExportRecord(jsonLine: line).id
            return names[Int(id.prefix(8), radix: 16)! - 1]
        }
    }

    @Test(arguments: [
        (["--since", "today"], ["inAnHour", "todayFirst"]),
        (["--since", "TODAY"], ["inAnHour", "todayFirst"]),
        (["--since", "yesterday", "--until", "today"], ["yesterdayLast", "yesterdayFirst"]),
        (["--until", "yesterday"], ["beforeYesterday"]),
        (["--until", "now"], ["todayFirst", "yesterdayLast", "yesterdayFirst", "beforeYesterday"]),
        (["--since", "now"], ["inAnHour"]),
        (["--since", "Yesterday", "--until", "now"], ["todayFirst", "yesterdayLast", "yesterdayFirst"]),
    ])
    func todayAndYesterdayAreLocalMidnightsAndNowIsNow(_ filter: [String], _ expected: [String]) async throws {
        try await Self.aroundMidnight { sandbox in
            // Given fetches on either side of yesterday's and today's local midnights, and one an hour from now

            // When listed from or until now, today or yesterday, in a zone 14 hours ahead of UTC
            let listed = try await Self.listed(sandbox, filter)

            // Then today starts at the local midnight, yesterday at the one before, and now is now
            #expect(listed == expected, "\(filter)")
        }
    }

    @Test func everyCommandThatTakesATimeTakesTheNamedOnes() async throws {
        try await Self.aroundMidnight { sandbox in
            // Given fetches around yesterday's and today's local midnights
            let environment = Self.environment(sandbox)

            // When stats, export, sessions and prune are given today or yesterday
            let stats = try await sandbox.run(["stats", "--since", "today", "--format", "json"], environment: environment)
            let export = try await sandbox.run(["export", "--since", "yesterday", "--until", "today", "--format", "jsonl"], environment: environment)
            let sessions = try await sandbox.run(["sessions", "--since", "yesterday", "--until", "today", "--format", "jsonl"], environment: environment)
            let prune = try await sandbox.run(["prune", "--before", "today", "--dry-run"], environment: environment)

            // Then each reads them as list does
            let object = try #require(try JSONSerialization.jsonObject(with: stats.standardOutputData) as? [String: Any], "\(stats)")
            #expect(object["total"] as? Int == 2, "\(stats)")
            #expect(try export.lines.map { try ExportRecord(jsonLine: $0).id } == [2, 3].map(Ids.fetch), "\(export)")
            #expect(sessions.status == 0 && sessions.lines.count == 2, "\(sessions)")
            #expect(sessions.lines.first?.contains(Ids.session(3)) == true && sessions.lines.last?.contains(Ids.session(2)) == true, "\(sessions)")
            #expect(prune.status == 0 && prune.standardOutput.hasPrefix("would delete 3 fetches"), "\(prune)")
        }
    }

    static let emptyRanges: [([String], String)] = [
        (["--since", "2h", "--until", "1d"], "the range is empty because it ends before it starts: --since 2h is later than --until 1d"),
        (["--since", "today", "--until", "yesterday"], "the range is empty because it ends before it starts: --since today is later than --until yesterday"),
        (["--until", "2026-11-20", "--since", "2026-11-21T00:00:00Z"],
         "the range is empty because it ends before it starts: --since 2026-11-21T00:00:00Z is later than --until 2026-11-20"),
        (["--since", "now", "--until", "now"], "the range is empty because it ends where it starts: --since now is the moment --until now is"),
        (["--until", "2026-11-22", "--since", "2026-11-22"],
         "the range is empty because it ends where it starts: --since 2026-11-22 is the moment --until 2026-11-22 is"),
    ]

    @Test(arguments: ["list", "stats", "export", "sessions", "pull"], emptyRanges)
    func aRangeThatEndsBeforeItStartsIsRefusedInOneSentence(_ command: String, _ range: ([String], String)) async throws {
        // Given the standard history
        let sandbox = try Sandbox()
        try await sandbox.importRecords(Fixtures.standard)

        // When a command is given a time range that no moment is in
        let remote = command == "pull" ? ["--from", "postgres://nobody@127.0.0.1:9/none"] : []
        let result = try await sandbox.run([command] + remote + range.0)

        // Then it is a usage error saying why the range is empty, not an empty answer, and nothing changed
        #expect(result.status == 64, "\(result)")
        #expect(result.standardError.hasPrefix("error: \(range.1)\n"), "\(result)")
        #expect(result.standardError.components(separatedBy: "error:").count == 2, "\(result)")
        #expect(!result.standardError.contains("no fetches match") && result.standardOutput.isEmpty, "\(result)")
        #expect(try await sandbox.listedIDs([]).count == Fixtures.standard.count)
    }
}
