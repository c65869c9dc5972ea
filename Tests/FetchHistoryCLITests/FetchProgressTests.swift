import Foundation
import Testing

/// `fetch`'s live progress line: on a terminal (a real pseudo-terminal
/// here), one line with the fetch's number and elapsed time, cleared before
/// every output line and on every way out; elsewhere, not one byte.
@Suite("fetch shows its progress on a terminal only, and never leaves it behind")
struct FetchProgressTests {
    /// Lines on the screen that still show the progress line.
    private func progressLeft(_ screen: TerminalScreen) -> [String] {
        screen.lines.filter { $0.contains("fetching…") || $0.contains("next fetch in") }
    }

    /// The elapsed times, in tenths, that `[1/1] fetching… 1.2s` lines showed.
    private func shownElapsed(in transcript: String) -> [Int] {
        transcript.components(separatedBy: "[1/1] fetching… ").dropFirst().compactMap { rest in
            let number = rest.prefix { $0.isNumber || $0 == "." }
            guard rest.dropFirst(number.count).first == "s", let value = Double(number) else { return nil }
            return Int((value * 10).rounded())
        }
    }

    @Test func aSlowFetchShowsItsNumberAndTheLineIsGoneOnceItsRowIsPrinted() async throws {
        // Given a terminal, and fetches that each take a while
        let sandbox = try Sandbox()
        let child = try await TerminalProcess.start(
            ["fetch", "--count", "3", "--interval", "0", "--latency", "300ms"],
            environment: sandbox.environment(), workingDirectory: sandbox.root
        )

        // When they run to the end
        let shown = await child.waitForTranscript { $0.contains("[1/3] fetching…") }
        let result = try await child.wait()

        // Then the first fetch was announced with its number while it ran
        #expect(shown, "\(result)")
        #expect(result.status == 0 && !result.wasSignalled, "\(result)")
        // And the screen holds the three rows, each on a line of its own, the run's summary, and nothing else
        let screen = TerminalScreen(result.transcript)
        let ids = try await sandbox.exportedRecords().map { String($0.id.prefix(8)) }
        #expect(ids.count == 3)
        #expect(screen.lines.count == 5, "\(screen.lines)")
        #expect(screen.lines.dropLast().last?.hasPrefix("3 fetches: 3 succeeded; p50 ") == true, "\(screen.lines)")
        for (line, id) in zip(screen.lines, ids.sorted()) {
            #expect(line.hasPrefix(id) && line.hasSuffix("random"), "\(screen.lines)")
        }
        #expect(screen.lines.last == "", "the cursor's line still shows \(screen.lines.last ?? "")")
        #expect(progressLeft(screen).isEmpty, "\(screen.lines)")
    }

    @Test func theElapsedTimeOfAFetchInFlightTicks() async throws {
        // Given a terminal and a fetch that takes 30 s
        let sandbox = try Sandbox()
        let child = try await TerminalProcess.start(
            ["fetch", "--latency", "30s"], environment: sandbox.environment(), workingDirectory: sandbox.root
        )

        // When a tenth of a second of it has gone by, then SIGTERM arrives
        let ticked = await child.waitForTranscript { shownElapsed(in: $0).contains { $0 > 0 } }
        child.send(SIGTERM)
        let result = try await child.wait()

        // Then its elapsed time was shown, and the exit (143) left the
        // cancelled fetch's row on screen, the line after it empty
        #expect(ticked, "\(result)")
        // in seconds and tenths, every time
        let shownTimes = result.transcript.components(separatedBy: "[1/1] fetching… ").dropFirst()
        #expect(!shownTimes.isEmpty, "\(result)")
        for shown in shownTimes {
            #expect(shown.range(of: #"^[0-9]+\.[0-9]s"#, options: .regularExpression) != nil, "\(shown.prefix(12).debugDescription)")
        }
        #expect(result.status == 143 && !result.wasSignalled, "\(result)")
        let record = try #require(try await sandbox.exportedRecords().first)
        #expect(record.outcome == "cancelled", "\(record)")
        let screen = TerminalScreen(result.transcript)
        #expect(screen.lines.count == 2 && screen.lines[0].hasPrefix(String(record.id.prefix(8))), "\(screen.lines)")
        #expect(screen.lines.last == "", "\(screen.lines)")
        #expect(progressLeft(screen).isEmpty, "\(screen.lines)")
    }

    @Test func ctrlCDuringTheIntervalLeavesNoProgressBehind() async throws {
        // Given a terminal, a first fetch done and printed, and a long wait before the second
        let sandbox = try Sandbox()
        let child = try await TerminalProcess.start(
            ["fetch", "--count", "3", "--interval", "30s", "--latency", "50ms"],
            environment: sandbox.environment(), workingDirectory: sandbox.root
        )
        let waiting = await child.waitForTranscript { $0.contains("[2/3] next fetch in") }

        // When Ctrl-C arrives
        child.send(SIGINT)
        let result = try await child.wait()

        // Then it exits 130 with the first row on screen and the line it was on empty
        #expect(waiting, "\(result)")
        #expect(result.status == 130 && !result.wasSignalled, "\(result)")
        let screen = TerminalScreen(result.transcript)
        #expect(screen.lines.count == 2 && screen.lines[0].hasSuffix("random"), "\(screen.lines)")
        #expect(screen.lines.last == "", "\(screen.lines)")
        #expect(progressLeft(screen).isEmpty, "\(screen.lines)")
    }

    @Test func aSecondCtrlCThatEndsTheProcessAtOnceStillErasesTheLine() async throws {
        // Given a terminal and a slow fetch in flight, its progress shown
        let sandbox = try Sandbox()
        let child = try await TerminalProcess.start(
            ["fetch", "--latency", "30s"], environment: sandbox.environment(), workingDirectory: sandbox.root
        )
        let shown = await child.waitForTranscript { shownElapsed(in: $0).contains { $0 > 0 } }

        // When Ctrl-C arrives twice, back to back
        child.send(SIGINT)
        child.send(SIGINT)
        let result = try await child.wait()

        // Then, whether the first ended it (130) or the second killed it, no progress is left
        #expect(shown, "\(result)")
        #expect((result.status == 130 && !result.wasSignalled) || (result.wasSignalled && result.status == SIGINT), "\(result)")
        let screen = TerminalScreen(result.transcript)
        #expect(screen.lines.last == "", "\(screen.lines)")
        #expect(progressLeft(screen).isEmpty, "\(screen.lines)")
    }

    @Test func aFailingRunClearsTheLineBeforeItsRowsAndAtExit() async throws {
        // Given a terminal and fetches that time out
        let sandbox = try Sandbox()
        let child = try await TerminalProcess.start(
            ["fetch", "--count", "2", "--interval", "0", "--latency", "30s", "--timeout", "200ms"],
            environment: sandbox.environment(), workingDirectory: sandbox.root
        )

        // When they run to the end
        let result = try await child.wait()

        // Then it exits 1, with two timed-out rows, the summary, and no progress left anywhere
        #expect(result.status == 1, "\(result)")
        #expect(result.transcript.contains("[1/2] fetching…"), "\(result)")
        let screen = TerminalScreen(result.transcript)
        #expect(screen.lines.count == 4 && screen.lines.prefix(2).allSatisfy { $0.contains("timed-out") }, "\(screen.lines)")
        #expect(screen.lines[2] == "2 fetches: 2 timed-out; p50 -, p95 -; top problem: timed out (2)", "\(screen.lines)")
        #expect(screen.lines.last == "", "\(screen.lines)")
        #expect(progressLeft(screen).isEmpty, "\(screen.lines)")
    }

    @Test func theLineStaysAwayATenthOfASecondAfterEachRow() async throws {
        // Given a terminal, and fetches that end at once with 199 ms between them: a line drawn a
        // tenth of a second after a row has at most 99 ms of the pause left ("next fetch in
        // 0.0s"), where one drawn sooner, by the next tick, would most often show 0.1s
        let sandbox = try Sandbox()
        let child = try await TerminalProcess.start(
            ["fetch", "--count", "8", "--interval", "199ms", "--latency", "0"],
            environment: sandbox.environment(), workingDirectory: sandbox.root
        )

        // When they run to the end
        let result = try await child.wait()

        // Then every countdown the line showed read 0.0s: it never came back within the tenth
        #expect(result.status == 0 && !result.wasSignalled, "\(result)")
        let countdowns = result.transcript.components(separatedBy: " next fetch in ").dropFirst().map { $0.prefix { $0 != "\r" } }
        #expect(countdowns.allSatisfy { $0 == "0.0s" }, "\(countdowns)")
    }

    /// `fetch` run by a shell on a pseudo-terminal (script(1)), `redirection`
    /// applied to it, e.g. `2>file`; what the terminal received.
    private func fetchOnATerminal(_ sandbox: Sandbox, _ arguments: String, _ redirection: String) async throws -> CLIResult {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "script(1) from util-linux is needed")
        let command = "'\(FetchHistoryProcess.binary.path)' fetch \(arguments) \(redirection)"
        return try await sandbox.run(["-qec", command, "/dev/null"], executable: URL(fileURLWithPath: "/usr/bin/script"))
    }

    @Test func theLineFollowsStandardErrorNotStandardOutput() async throws {
        // Given a terminal
        let sandbox = try Sandbox()

        // When a slow fetch writes its row to the terminal and its standard error to a file, then
        // its row to a pipe and its standard error to the terminal
        let errors = sandbox.path("errors.txt")
        let toFile = try await fetchOnATerminal(sandbox, "--latency 300ms", "2>'\(errors)'")
        let toPipe = try await fetchOnATerminal(sandbox, "--latency 300ms", "| cat")

        // Then the file got nothing, while the terminal showed the row; and the terminal showed the
        // progress line while the row went through the pipe
        #expect(toFile.status == 0, "\(toFile)")
        #expect(FileManager.default.contents(atPath: errors) == Data(), "\(String(describing: FileManager.default.contents(atPath: errors)))")
        #expect(toFile.standardOutput.contains("succeeded") && !toFile.standardOutput.contains("fetching…"), "\(toFile)")
        #expect(toPipe.status == 0, "\(toPipe)")
        #expect(toPipe.standardOutput.contains("[1/1] fetching…") && toPipe.standardOutput.contains("succeeded"), "\(toPipe)")
    }

    @Test func notATerminalGetsNoProgressBytesAtAll() async throws {
        // Given standard error and output that are pipes
        let sandbox = try Sandbox()

        // When several slow fetches run, as text and as JSON
        let text = try await sandbox.run("fetch", "--count", "2", "--interval", "200ms", "--latency", "300ms")
        let json = try await sandbox.run("fetch", "--count", "2", "--interval", "0", "--latency", "300ms", "--format", "jsonl")

        // Then standard error holds the run's summary alone, and standard output only the rows
        for result in [text, json] {
            #expect(result.status == 0, "\(result)")
            #expect(result.standardError.hasPrefix("2 fetches: 2 succeeded; p50 ") && result.standardError.count { $0 == "\n" } == 1, "\(result)")
            #expect(!result.standardError.contains("\r") && !result.standardError.contains("\u{1B}"), "\(result)")
            #expect(result.lines.count == 2, "\(result)")
            #expect(!result.standardOutput.contains("\r") && !result.standardOutput.contains("\u{1B}"), "\(result)")
        }
        #expect(json.lines.allSatisfy { $0.hasPrefix("{\"id\":") && $0.hasSuffix("}") }, "\(json)")
    }
}
