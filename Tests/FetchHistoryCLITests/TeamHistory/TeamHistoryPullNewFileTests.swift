import Foundation
import Testing

/// A pull into a history that is not there yet builds it beside, as an
/// import does (`ImportNewFileTests`): killed at any moment, absent or
/// complete, and the next command leaves nothing beside it.
@Suite("pull into a new history: built beside it, all or nothing")
struct TeamHistoryPullNewFileTests {
    @Test func aPullKilledAtAnyMomentLeavesTheHistoryAbsentOrCompleteAndNothingBesideIt() async throws {
        let rounds = Reliability.setting("PULL_KILLS", default: 12)
        var random = Reliability.random(for: "pull kills")
        // Given a team history of 5,000 fetches
        let team = try await TeamFixture()
        let local = try await team.localFile("local.sqlite", Fixtures.succeeded(5_000))
        try await team.succeed(["push", "-d", local, "--to", team.url], limit: TeamFixture.bigLimit)
        // The size a whole pull's file reaches.
        let reference = team.sandbox.path("reference.sqlite")
        let whole = try await team.succeed(["pull", "-d", reference, "--from", team.url], limit: TeamFixture.bigLimit)
        #expect(whole.standardOutput.hasSuffix(": 5000 new, 0 already here\n"), "\(whole)")
        #expect(try ImportNewFileTests.files(besides: reference) == ["reference.sqlite"])
        let wholeSize = try #require(FileManager.default.attributesOfItem(atPath: reference)[.size] as? Int)

        var absent = 0, complete = 0
        for round in 1...rounds {
            // When a pull into a new file is killed once the file it builds has grown past a random size
            let history = team.sandbox.path("pulled-\(round).sqlite")
            let building = history + "-import"
            let killAt = Int.random(in: 0...(wholeSize * 5 / 4), using: &random)
            let context = "round \(round), killed once the build passed \(killAt) of \(wholeSize) bytes (seed \(Reliability.seed))"
            let child = try await team.sandbox.start(["pull", "-d", history, "--from", team.url])
            await ImportNewFileTests.kill(child, once: building, reaches: killAt)
            _ = try await child.wait(limit: .seconds(120))

            // Then the history is absent or holds all 5,000, and after the next command nothing is beside it
            if FileManager.default.fileExists(atPath: history) {
                complete += 1
                let export = try await team.sandbox.run("export", "--database", history, "--format", "jsonl")
                #expect(export.lines.count == 5_000, "\(context): \(export.lines.count) fetches")
            } else {
                absent += 1
            }
            _ = try await team.sandbox.run("list", "--database", history)
            #expect(try ImportNewFileTests.files(besides: history).allSatisfy { !$0.contains("-import") }, "\(context)")
        }
        Reliability.summary("pull kills: \(rounds) rounds, history absent after \(absent), complete after \(complete)")
        #expect(absent > 0, "no kill landed during a pull's build")
    }

    @Test func aLongPullCountsOnATerminalErasesItsLineAndWritesNothingIntoAPipe() async throws {
        // Given a team history of 40,000 fetches: seconds of pull in a debug build
        let team = try await TeamFixture()
        let local = try await team.localFile("local.sqlite", Fixtures.succeeded(40_000))
        try await team.succeed(["push", "-d", local, "--to", team.url], limit: TeamFixture.bigLimit)

        // When it is pulled on a terminal into a new history, and into the one it came from (a transaction in it)
        for (history, summary) in [(team.sandbox.path("shown.sqlite"), "40000 new, 0 already here"), (local, "0 new, 40000 already here")] {
            let child = try await TerminalProcess.start(
                ["pull", "-d", history, "--from", team.url], environment: team.sandbox.environment(), workingDirectory: team.sandbox.root
            )
            let counted = await child.waitForTranscript(limit: TeamFixture.bigLimit) {
                $0.range(of: #"pulling… [1-9][0-9]* fetches, [0-9]+ a second"#, options: .regularExpression) != nil
            }
            let shown = try await child.wait(limit: TeamFixture.bigLimit)

            // Then the terminal showed the count rising as it went, and kept only the summary
            #expect(counted, "\(history): \(shown.transcript.debugDescription)")
            #expect(shown.status == 0 && !shown.wasSignalled)
            let screen = TerminalScreen(shown.transcript)
            #expect(screen.lines.count == 2 && screen.lines[0].hasSuffix(": \(summary)") && screen.lines[1].isEmpty, "\(screen.lines)")
        }
        // and a pull through pipes writes its summary alone, nothing on standard error
        let piped = try await team.succeed(["pull", "-d", team.sandbox.path("piped.sqlite"), "--from", team.url], limit: TeamFixture.bigLimit)
        #expect(piped.standardError.isEmpty && piped.standardOutput.hasSuffix(": 40000 new, 0 already here\n"), "\(piped)")
    }
}
