import Foundation
import Testing

extension ReliabilityTests {
    @Suite("A killed process loses nothing it finished, and its fetch in flight reads as interrupted")
    struct KilledProcesses {
        /// Each round starts a writer of 1,000 quick fetches and SIGKILLs it
        /// at a random moment of its own progress — after a random number of
        /// recorded (printed) fetches, then a random number of executor turns
        /// into the next one — while a slow fetch of another process stays
        /// in flight in the same database the whole time. After each kill:
        /// the database is sound; every fetch the child printed (it prints a
        /// fetch after recording it) is in the export, byte for byte; what
        /// was exported before is still there, unchanged; at most one fetch
        /// more is new (the one in flight, now interrupted, or one recorded
        /// but not yet printed); nothing reads as running but the slow fetch,
        /// which never reads as interrupted.
        @Test func sigkillAtRandomMomentsLosesNoEndedFetchAndLeavesNoRunningOne() async throws {
            let kills = Reliability.setting("RELIABILITY_KILLS", default: 50)
            let maximumPrinted = 40
            var random = Reliability.random(for: "kills")
            let sandbox = try Sandbox()

            // Given a slow fetch of a process that stays alive throughout
            let slow = try await sandbox.start("fetch", "--latency", "1d")
            let slowFetch = try await sandbox.waitForFetch(of: slow)

            var previous = Set(try await sandbox.run("export", "--format", "jsonl").lines)
            var lostPrinted = 0
            var killedInFlight = 0, killedBetween = 0, printedTotal = 0, unprintedEnded = 0, integrityFailures = 0
            var checks = 0, strayRunning = 0, slowShownInterrupted = 0
            let started = ContinuousClock.now
            for round in 1...kills {
                // When a writer is killed at a random point of its run
                let printedBefore = Int.random(in: 0...maximumPrinted, using: &random)
                let turns = Int.random(in: 0...500, using: &random)
                let child = try await sandbox.start(
                    "fetch", "--count", "1000", "--latency", "1ms", "--interval", "0", "--format", "jsonl"
                )
                _ = await child.waitForPrintedLines(printedBefore)
                for _ in 0..<turns { await Task.yield() }
                child.send(SIGKILL)
                let delay = "\(printedBefore) printed + \(turns) turns"
                let result = try await child.wait(limit: .seconds(30))
                let context = "round \(round), killed after \(delay) (seed \(Reliability.seed))"
                #expect(result.wasSignalled && result.status == SIGKILL, "\(context): not killed: \(result)")
                #expect(result.standardError.isEmpty, "\(context): \(result)")

                // Then the database is sound
                let integrity = await SQLiteProbe.integrityCheck(sandbox.database)
                if integrity != "ok" { integrityFailures += 1 }
                #expect(integrity == "ok", "\(context)")

                // and every fetch it printed is recorded exactly as printed, and nothing earlier changed
                let printed = completeLines(result.standardOutputData)
                printedTotal += printed.count
                let export = try await sandbox.run("export", "--format", "jsonl")
                #expect(export.status == 0 && export.standardError.isEmpty, "\(context): \(export)")
                let now = Set(export.lines)
                let missingPrinted = printed.filter { !now.contains($0) }
                lostPrinted += missingPrinted.count
                #expect(missingPrinted.isEmpty, "\(context): printed but not recorded as printed: \(missingPrinted)")
                let changed = previous.subtracting(now)
                #expect(changed.isEmpty, "\(context): recorded before the kill, now missing or changed: \(changed)")
                #expect(printed.allSatisfy { jsonField("outcome", in: $0) == "succeeded" }, "\(context): \(printed)")

                // and at most one more fetch is new: the one in flight (interrupted) or one not yet printed (ended)
                let unprinted = now.subtracting(previous).subtracting(printed)
                #expect(unprinted.count <= 1, "\(context): \(unprinted.count) new fetches were never printed: \(unprinted)")
                for line in unprinted {
                    switch jsonField("outcome", in: line) {
                    case "interrupted": killedInFlight += 1
                    case "succeeded": unprintedEnded += 1
                    default: Issue.record("\(context): the fetch in flight reads as \(line)")
                    }
                }
                if unprinted.isEmpty { killedBetween += 1 }

                // and nothing reads as running but the slow fetch, which is never interrupted
                let running = now.filter { jsonField("outcome", in: $0) == "running" }.compactMap { jsonField("id", in: $0) }
                #expect(running == [slowFetch.id], "\(context): running: \(running)")
                strayRunning += running.filter { $0 != slowFetch.id }.count
                let interrupted = try await sandbox.listedIDs(["--outcome", "interrupted"])
                if interrupted.contains(slowFetch.id) || !running.contains(slowFetch.id) { slowShownInterrupted += 1 }
                #expect(!interrupted.contains(slowFetch.id), "\(context): the live slow fetch lists as interrupted")
                #expect(interrupted.count == killedInFlight, "\(context): \(interrupted.count) interrupted listed, \(killedInFlight) expected")
                #expect(slow.isRunning, "\(context): the slow fetch's process died")
                previous = now
                checks += 1
            }
            let elapsed = ContinuousClock.now - started

            // Finally the counts agree, and the slow fetch ends normally
            let stats = try await sandbox.run("stats", "--format", "json")
            let counts = try #require(try JSONSerialization.jsonObject(with: stats.standardOutputData) as? [String: Any])["counts"]
                as? [String: Int]
            #expect(counts?["interrupted"] == killedInFlight, "\(stats)")
            #expect(counts?["running"] == 1, "\(stats)")
            #expect(counts?["succeeded"] == printedTotal + unprintedEnded, "\(stats)")
            slow.send(SIGTERM)
            let slowResult = try await slow.wait()
            #expect(slowResult.status == 143 && !slowResult.wasSignalled, "\(slowResult)")
            let slowRecord = try await sandbox.exportedRecords().first { $0.id == slowFetch.id }
            #expect(slowRecord?.outcome == "cancelled", "\(String(describing: slowRecord))")

            Reliability.summary(
                "killed processes: \(checks) SIGKILLs after 0–\(maximumPrinted) printed fetches and 0–500 executor turns (seed \(Reliability.seed)) in \(seconds(elapsed)): "
                    + "\(killedInFlight) mid-fetch → interrupted, \(killedBetween) between fetches, \(unprintedEnded) ended but unprinted; "
                    + "\(printedTotal) printed fetches, \(printedTotal - lostPrinted) recorded as printed, \(strayRunning) left running, "
                    + "integrity failures \(integrityFailures), live fetch shown interrupted in \(slowShownInterrupted) of \(checks) checks"
            )
        }

        /// A kill while the database is being created (its file made, its
        /// schema written) leaves either nothing, or a file the next command
        /// opens and completes.
        @Test func sigkillWhileCreatingTheDatabaseLeavesAUsableFile() async throws {
            let rounds = Reliability.setting("RELIABILITY_CREATION_KILLS", default: 12)
            var random = Reliability.random(for: "creation kills")
            let sandbox = try Sandbox()
            var outcomes: [String: Int] = [:]
            for round in 1...rounds {
                let path = sandbox.path("new-\(round)/history.sqlite")
                // Killed a random number of the test executor's turns after
                // the file appears: while its schema is written, or later.
                let turns = Int.random(in: 0...2_000, using: &random)
                let child = try await sandbox.start("fetch", "--latency", "1ms", "--database", path)
                let appeared = ContinuousClock.now + .seconds(20)
                while !FileManager.default.fileExists(atPath: path), child.isRunning, ContinuousClock.now < appeared {
                    await Task.yield()
                }
                for _ in 0..<turns { await Task.yield() }
                child.send(SIGKILL)
                let result = try await child.wait(limit: .seconds(30))
                let context = "round \(round), killed after \(turns) turns (seed \(Reliability.seed))"

                guard FileManager.default.fileExists(atPath: path) else {
                    outcomes["before the file", default: 0] += 1
                    continue
                }
                // The next writer completes it, and it is sound
                let next = try await sandbox.run("fetch", "--latency", "0", "--database", path)
                #expect(next.status == 0 && next.standardError.isEmpty, "\(context): the next fetch: \(next)")
                let integrity = await SQLiteProbe.integrityCheck(path)
                #expect(integrity == "ok", "\(context)")
                let export = try await sandbox.run("export", "--format", "jsonl", "--database", path)
                #expect(export.status == 0, "\(context): \(export)")
                #expect(!export.lines.contains { jsonField("outcome", in: $0) == "running" }, "\(context): \(export)")
                let kind = result.wasSignalled ? (export.lines.count > 1 ? "mid-fetch" : "during creation") : "after exit"
                outcomes[kind, default: 0] += 1
            }
            Reliability.summary(
                "killed while creating: \(rounds) SIGKILLs 0–2,000 executor turns after the new database file appeared (seed \(Reliability.seed)): "
                    + outcomes.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
                    + "; every file left was completed by the next fetch, integrity ok"
            )
        }
    }
}
