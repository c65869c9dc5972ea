import Foundation
import Testing

/// `list --follow` on a team history prints every push as it lands. A
/// follower reads the rows whose transaction (`pushed_xid`) its last
/// snapshot could not see and that are at least that snapshot's `xmin`:
/// on an idle server the next push's transaction is exactly that `xmin`,
/// and so is a push still open when the follower looked. Each test runs a
/// server of its own with autovacuum off, so that no other transaction
/// takes an id in between and these edges are the ones crossed.
@Suite("A team history's follower prints every push as it lands", .enabled(if: TestPostgresServer.isAvailable, TestPostgresServer.skipReason))
struct TeamHistoryFollowTests {
    /// Fetch `number`, succeeded, in a session of its own, `number` minutes after day 0.
    static func record(_ number: Int, host: String = "ci-1") -> ExportRecord {
        ExportRecord.make(
            "succeeded", id: Ids.fetch(number), session: Ids.session(number), at: Fixtures.day0 + Int64(number) * 60_000,
            value: number, host: host
        )
    }

    /// A team history of fetch 1 on an idle server of its own.
    static func idleTeam() async throws -> TeamFixture {
        let server = try await TestPostgresServer.startPrivate()
        try await server.stopAutovacuum()
        let team = try await TeamFixture(on: server)
        try await team.succeed(["push", "-d", try await team.localFile("first.sqlite", [record(1)]), "--to", team.url])
        return team
    }

    /// Pushes fetch `number` from a file of its own, as another host would.
    static func push(_ number: Int, to team: TeamFixture) async throws {
        let file = try await team.localFile("host-\(number).sqlite", [record(number, host: "probe-\(number)")])
        try await team.succeed(["push", "-d", file, "--to", team.url])
    }

    /// The ids of the fetches `result` printed, in order.
    static func printedIDs(_ result: CLIResult) throws -> [String] {
        try result.lines.map { try ExportRecord(jsonLine: $0).id }
    }

    @Test func aFollowerStartedOnAnIdleServerPrintsTheNextPushAndTheOneAfter() async throws {
        // Given an idle team history of one fetch, followed as JSON lines
        let team = try await Self.idleTeam()
        defer { Task { await team.server.stop() } }
        let follower = try await team.sandbox.start("list", "-d", team.url, "--follow", "--format", "jsonl")
        #expect(await follower.waitForPrintedLines(1), "the follower did not print the history")

        // When another host pushes a fetch, and then one more
        try await Self.push(2, to: team)
        let printedNext = await follower.waitForPrintedLines(2)
        try await Self.push(3, to: team)
        let printedAfter = await follower.waitForPrintedLines(3)

        // Then the follower prints each as it lands, once, and Ctrl-C ends it with exit 0
        follower.send(SIGINT)
        let result = try await follower.wait()
        #expect(printedNext && printedAfter, "\(result)")
        #expect(result.status == 0 && !result.wasSignalled, "\(result)")
        #expect(try Self.printedIDs(result) == [Ids.fetch(1), Ids.fetch(2), Ids.fetch(3)], "\(result)")
    }

    @Test func aPushInFlightWhenTheFollowerListedIsPrintedWhenItCommits() async throws {
        // Given an idle team history of one fetch, and a push of fetch 4 in flight:
        // its transaction has its id and its rows, and is not committed
        let team = try await Self.idleTeam()
        defer { Task { await team.server.stop() } }
        let inFlight = Self.record(4, host: "slow-host")
        let psql = try await PsqlSession.open(on: team.server, database: team.database)
        try await psql.run("""
            BEGIN;
            INSERT INTO fetch_history.session (id, started_at, source, host, process_id)
                VALUES ('\(inFlight.session)', \(inFlight.startedAt), 'random', 'slow-host', 4);
            INSERT INTO fetch_history.fetch (id, session_id, source, started_at, ended_at, duration_ms, outcome, value, host)
                VALUES ('\(inFlight.id)', '\(inFlight.session)', 'random', \(inFlight.startedAt), \(inFlight.endedAt ?? 0),
                        \(inFlight.durationMs ?? 0), 'succeeded', '4', 'slow-host');
            SELECT 'in flight as ' || pg_current_xact_id();
            """, marker: "inserted")
        #expect(psql.printedLine(startingWith: "in flight as ") != nil)

        // When a follower lists the history (as JSON lines), another host pushes fetch 2 while fetch 4 is still open,
        // then fetch 4's transaction commits, then another host pushes fetch 3
        let follower = try await team.sandbox.start("list", "-d", team.url, "--follow", "--format", "jsonl")
        let listed = await follower.waitForPrintedLines(1)
        try await Self.push(2, to: team)
        let printedPushWhileOpen = await follower.waitForPrintedLines(2)
        try await psql.run("COMMIT;", marker: "committed")
        let printedInFlight = await follower.waitForPrintedLines(3)
        try await Self.push(3, to: team)
        let printedNext = await follower.waitForPrintedLines(4)

        // Then it printed the history, the push made meanwhile, the push that was in flight once it committed,
        // and the next one, each once; and Ctrl-C ends it with exit 0
        follower.send(SIGINT)
        let result = try await follower.wait()
        await psql.close()
        #expect(listed, "the follower did not print the history: \(result)")
        #expect(printedPushWhileOpen && printedInFlight && printedNext, "\(result)")
        #expect(result.status == 0 && !result.wasSignalled, "\(result)")
        #expect(try Self.printedIDs(result) == [Ids.fetch(1), Ids.fetch(2), Ids.fetch(4), Ids.fetch(3)], "\(result)")
    }
}
