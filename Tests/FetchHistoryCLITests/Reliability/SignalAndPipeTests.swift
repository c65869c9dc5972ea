import Foundation
import Testing

extension ReliabilityTests {
    @Suite("Repeated signals and closed pipes")
    struct SignalsAndPipes {
        /// The first Ctrl-C cancels and records; the second exits at once.
        /// The first alone already ends the process within milliseconds, so
        /// here the second cannot be shown to matter (`SignalTests` shows it
        /// does, with the first held up by a lock); what must hold whichever
        /// wins: exit 130 (or death by SIGINT), and no fetch left running.
        @Test func twoQuickSigintsNeverLeaveARunningFetch() async throws {
            let rounds = 6
            // Between the two signals: this many turns of the test's executor.
            let gaps = [0, 0, 1, 10, 100, 1_000]
            let sandbox = try Sandbox()
            var byExit = 0, bySignal = 0, cancelled = 0, interrupted = 0
            for round in 0..<rounds {
                // Given a slow fetch in flight
                let child = try await sandbox.start("fetch", "--count", "3", "--latency", "1d")
                let running = try await sandbox.waitForFetch(of: child)

                // When Ctrl-C arrives twice in quick succession
                child.send(SIGINT)
                for _ in 0..<gaps[round] { await Task.yield() }
                child.send(SIGINT)
                let result = try await child.wait()

                // Then it ended by 130 or by SIGINT itself, quietly, and its fetch is cancelled or interrupted, never running
                let context = "round \(round), gap \(gaps[round]): \(result)"
                if result.wasSignalled { bySignal += 1 } else { byExit += 1 }
                #expect((result.status == 130 && !result.wasSignalled) || (result.wasSignalled && result.status == SIGINT), "\(context)")
                #expect(!result.standardError.contains("error"), "\(context)")
                let record = try await sandbox.exportedRecords().first { $0.id == running.id }
                switch record?.outcome {
                case "cancelled": cancelled += 1
                case "interrupted": interrupted += 1
                default: Issue.record("\(context): the fetch reads as \(String(describing: record))")
                }
                #expect(try await sandbox.listedIDs(["--outcome", "running"]).isEmpty, "\(context)")
            }
            let integrity = await SQLiteProbe.integrityCheck(sandbox.database)
            #expect(integrity == "ok")
            Reliability.summary(
                "double SIGINT: \(rounds) rounds (gaps 0–10 ms): \(byExit) exited 130, \(bySignal) died by SIGINT; "
                    + "fetches \(cancelled) cancelled, \(interrupted) interrupted, 0 running, integrity \(integrity)"
            )
        }

        /// `export | head -1` and `list | head -1` on a history far bigger
        /// than a pipe's buffer: the writer sees EPIPE and ends quietly.
        @Test func closingTheReadingEndOfAPipeEndsExportAndListQuietly() async throws {
            let sandbox = try Sandbox()
            try await sandbox.importRecords(Fixtures.succeeded(5_000))
            let commands: [[String]] = [
                ["export"], ["export", "--format", "jsonl"], ["list", "--limit", "0"], ["list", "--limit", "0", "--format", "json"],
                ["list", "--limit", "0", "--format", "jsonl"],
            ]
            var quiet = 0
            for arguments in commands {
                let child = try await FetchHistoryProcess.start(
                    arguments: arguments, environment: sandbox.environment(), workingDirectory: sandbox.root, standardOutput: .manual
                )
                let first = await readFirstLineAndClose(try #require(child.standardOutputHandle))
                let result = try await child.wait(limit: .seconds(30))
                let context = "\(arguments.joined(separator: " ")) | head -1: \(result)"
                if result.status == 0, !result.wasSignalled, result.standardError.isEmpty { quiet += 1 }
                #expect(!first.isEmpty, "\(context)")
                #expect(result.status == 0 && !result.wasSignalled, "\(context)")
                #expect(result.standardError.isEmpty, "\(context)")
            }
            Reliability.summary("SIGPIPE: \(quiet)/\(commands.count) of export/list (json, jsonl, table) on 5,000 fetches ended quietly with exit 0 when the reader left")
        }
    }

    @Suite("The history is private")
    struct Privacy {
        /// While a fetch is in flight (the database open, its -wal and -shm
        /// in use), all three are 0600 — with the test's own umask, and with
        /// umask 000, which would otherwise make them world-writable.
        @Test func theDatabaseAndItsWalAndShmAre0600WhileInUse() async throws {
            let sandbox = try Sandbox()
            let path = sandbox.path("private/history.sqlite")
            let child = try await sandbox.start("fetch", "--latency", "1d", "--database", path)
            _ = try await sandbox.waitForFetch(in: path, of: child)
            var modes: [String: Int] = [:]
            for suffix in ["", "-wal", "-shm"] {
                modes[suffix] = try? permissions(path + suffix)
                #expect(modes[suffix] == 0o600, "\(suffix.isEmpty ? "database" : suffix) is \(modes[suffix].map { String($0, radix: 8) } ?? "missing")")
            }
            let folder = try permissions(sandbox.path("private"))
            #expect(folder == 0o700)
            child.send(SIGTERM)
            _ = try await child.wait()

            // Under umask 000, through a shell (the only way to give a child its own umask)
            let open = sandbox.path("open/history.sqlite")
            let script = """
                umask 000
                "$0" fetch --latency 30s --database "$1" >/dev/null 2>&1 &
                child=$!
                i=0
                while { [ ! -e "$1-wal" ] || [ ! -e "$1-shm" ]; } && [ $i -lt 1200 ]; do sleep 0.05; i=$((i+1)); done
                stat -c '%a %n' "$1" "$1-wal" "$1-shm" "$(dirname "$1")"
                kill -TERM $child
                wait $child
                """
            let shell = try await ExternalCommand.run("/bin/sh", ["-c", script, FetchHistoryProcess.binary.path, open])
            let lines = shell.standardOutput.split(separator: "\n").map { $0.split(separator: " ", maxSplits: 1) }
            let openModes = Dictionary(lines.compactMap { $0.count == 2 ? (String($0[1]), String($0[0])) : nil }) { $1 }
            #expect(openModes[open] == "600" && openModes[open + "-wal"] == "600" && openModes[open + "-shm"] == "600", "\(shell)")
            #expect(openModes[sandbox.path("open")] == "700", "\(shell)")
            Reliability.summary(
                "privacy: during a fetch database/-wal/-shm are \(["", "-wal", "-shm"].map { modes[$0].map { String($0, radix: 8) } ?? "missing" }.joined(separator: "/")) "
                    + "(folder \(String(folder, radix: 8))); under umask 000: \([open, open + "-wal", open + "-shm"].map { openModes[$0] ?? "missing" }.joined(separator: "/")) "
                    + "(folder \(openModes[sandbox.path("open")] ?? "missing"))"
            )
        }
    }
}
