import Foundation
import Testing

@Suite("Problems, pairs, comparisons and thresholds read the same from a team history", .enabled(if: TestPostgresServer.isAvailable, TestPostgresServer.skipReason))
struct TeamHistoryProblemTests {
    @Test func everyNewReadingGivesTheSameBytesOnTheServerAsOnTheFile() async throws {
        // Given the generated history of problems in a file, pushed to an empty team history
        let team = try await TeamFixture()
        let local = try await team.localFile("problems.sqlite", ProblemHistory.records)
        try await team.succeed(["push", "-d", local, "--to", team.url])
        let lastDay = ["--since", ISO.format(ProblemHistory.day(3)), "--until", ISO.format(ProblemHistory.day(4))]

        // When each reading runs on the file and on the server
        let commands: [[String]] = [
            ["stats", "--by", "problem"], ["stats", "--by", "problem", "--format", "json"], ["stats", "--by", "problem", "--format", "csv"],
            ["stats", "--by", "source,problem", "--format", "json"], ["stats", "--by", "problem,host", "--format", "json"],
            ["stats", "--by", "day,problem", "--format", "json"], ["stats", "--by", "problem,outcome"], ["stats", "--by", "outcome,problem"],
            ["stats", "--by", "host,source", "--format", "json"], ["stats", "--by", "hour,status", "--format", "csv"],
            ["stats", "--by", "problem", "--compare", "--format", "json"] + lastDay, ["stats", "--by", "source,problem", "--compare"] + lastDay,
            ["stats", "--compare", "--format", "json"] + lastDay, ["stats", "--by", "problem", "--grep", "user"],
            ["stats", "--by", "problem", "--problem", "user <n> not found", "--format", "json"],
            ["stats", "--by", "source", "--problem", "timed out", "--format", "json"],
            ["list", "--problem", "user <n> not found", "--format", "jsonl"], ["list", "--problem", "timed out", "--problem", "HTTP 500"],
            ["list", "--problem", "interrupted", "--format", "jsonl"], ["list", "--problem", "connection refused by <ip>", "--limit", "1"],
            ["export", "--problem", "HTTP 503", "--format", "jsonl"], ["list", "--sort", "duration", "--limit", "0", "--format", "jsonl"],
            ["list", "--sort", "duration", "--problem", "timed out", "--limit", "3"],
            ["stats", "--format", "json", "--threshold", "p95<200ms", "--threshold", "failure-rate<10%"],
            ["export", "--format", "junit", "--threshold", "p95<1s"],
        ]
        for command in commands {
            let onFile = try await team.sandbox.run(command + ["-d", local])
            let onServer = try await team.sandbox.run(command + ["-d", team.url])

            // Then both give the same bytes and exit status
            #expect(onFile.status == onServer.status && [0, 99].contains(onFile.status), "\(command): \(onFile)")
            #expect(onServer.standardOutput == onFile.standardOutput, "\(command): \(onServer) vs \(onFile)")
            #expect(onServer.standardError == onFile.standardError, "\(command): \(onServer) vs \(onFile)")
        }
    }

    @Test func aFollowerOfTheServerPrintsOnlyTheProblemsNewFetches() async throws {
        // Given the generated history on a server, followed for one masked problem
        let team = try await TeamFixture()
        let local = try await team.localFile("problems.sqlite", ProblemHistory.records)
        try await team.succeed(["push", "-d", local, "--to", team.url])
        let follower = try await team.sandbox.start("list", "-d", team.url, "--follow", "--format", "jsonl", "--limit", "1", "--problem", "user <n> not found")
        #expect(await follower.waitForPrintedLines(1), "the follower did not print the history")

        // When another file pushes a user not found, another failure of that source, and one more user not found
        let later = ProblemHistory.day(5)
        let more = try await team.localFile("more.sqlite", [
            .make("failed", id: Ids.fetch(901), source: ProblemHistory.users, at: later, error: "user 99 not found", host: "ci-9"),
            .make("failed", id: Ids.fetch(902), source: ProblemHistory.users, at: later + 1, error: "user list unavailable", host: "ci-9"),
            .make("failed", id: Ids.fetch(903), source: ProblemHistory.users, at: later + 2, error: "user 1000 not found", host: "ci-9"),
        ])
        try await team.succeed(["push", "-d", more, "--to", team.url])
        let printed = await follower.waitForPrintedLines(3)
        follower.send(SIGINT)
        let result = try await follower.wait()

        // Then it printed those two, not the other failure
        #expect(printed, "\(result)")
        #expect(try result.lines.dropFirst().map { try ExportRecord(jsonLine: $0).id } == [Ids.fetch(901), Ids.fetch(903)], "\(result)")
    }
}
