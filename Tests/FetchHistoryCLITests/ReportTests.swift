import Foundation
import Testing

/// `report`: the HTML page's content, its escaping, where it is written and
/// what happens when it cannot be. What a browser shows of it is
/// `ReportBrowserTests`'.
@Suite("report")
struct ReportTests {
    static let hostile = "<script>window.__pwned='script'</script>\"><img src=x onerror=\"window.__pwned='img'\">&amp; \u{1B}[2J \u{202E}gnp.exe"

    /// The standard history, plus a failure and a value holding markup, and a 100 KB error.
    static func history() async throws -> Sandbox {
        let sandbox = try Sandbox()
        try await sandbox.importRecords(Fixtures.standard + [
            .make("failed", id: Ids.fetch(11), session: Ids.session(3), source: "https://h.example/<b>?q=\"'", at: Fixtures.day0 + 3 * Fixtures.day, error: hostile, host: "ci-<1>"),
            .make("failed", id: Ids.fetch(12), session: Ids.session(3), at: Fixtures.day0 + 3 * Fixtures.day + 1000, error: String(repeating: "x", count: 100_000)),
        ])
        return sandbox
    }

    static func page(_ sandbox: Sandbox, _ arguments: String..., sourceLocation: SourceLocation = #_sourceLocation) async throws -> String {
        let result = try await sandbox.run(["report", "--output", "-"] + arguments)
        #expect(result.status == 0, "\(result)", sourceLocation: sourceLocation)
        return result.standardOutput
    }

    @Test func thePageHoldsTheSummaryABarPerFetchTheSourcesAndTheFailures() async throws {
        // Given twelve fetches in three sessions with every outcome
        let sandbox = try await Self.history()

        // When reported
        let page = try await Self.page(sandbox)

        // Then the summary counts them as stats does, with the success rate and percentiles
        let stats = try await sandbox.succeed("stats", "--format", "json").standardOutput
        let json = try #require(try JSONSerialization.jsonObject(with: Data(stats.utf8)) as? [String: Any])
        #expect(page.contains("<div class=\"big\">12</div>"), "\(page.prefix(3000))")
        let rate = try #require(json["successRate"] as? Double)
        #expect(page.contains(String(format: "%.1f%%", rate * 100)), "success rate \(rate)")
        // And the timeline has a bar per fetch, each linking to its row in the fetch table
        let timeline = try #require(page.components(separatedBy: "<svg class=\"timeline\"").last?.components(separatedBy: "</svg>").first)
        for index in 1...12 {
            let id = Ids.fetch(index)
            #expect(timeline.components(separatedBy: "href=\"#f-\(id)\"").count == 2, "the bar of \(id)")
            #expect(page.contains("<tr id=\"f-\(id)\">"), "the row of \(id)")
        }
        #expect(page.components(separatedBy: "<a class=\"fetch\"").count - 1 == 12)
        // And a lane per session, a row per source, every failure and timeout listed with its error
        #expect(page.components(separatedBy: "<g class=\"lane\">").count - 1 == 3)
        let sources = try #require(page.range(of: "<section id=\"sources\">")).upperBound
        let sourceTable = String(page[sources...]).components(separatedBy: "</section>")[0]
        #expect(sourceTable.components(separatedBy: "<td class=\"source\">").count - 1 == 3, "\(sourceTable)")
        let failures = try #require(page.components(separatedBy: "<section id=\"failures\">").last?.components(separatedBy: "</section>").first)
        #expect(failures.components(separatedBy: "<tr id=\"failure-").count - 1 == 5, "3 failed, 1 timed out, and the two added: \(failures.prefix(2000))")
        #expect(failures.contains("HTTP 503: &quot;busy&quot;/retry"))
        // And the cancel, the interrupted end and the tap are marked
        #expect(page.contains("class=\"mark cancel\"") && page.contains("class=\"mark jagged\""))
        #expect(page.contains("prefers-color-scheme: dark"))
    }

    @Test func realRecordingsMarkEveryTapCancelDeadlineAndInterruptedEnd() async throws {
        // Given the docs' history of real recordings, each with its script (tap, timeout, how it ended)
        let fixture = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "Fixtures/readme-history.jsonl")
        let records = try String(contentsOf: fixture, encoding: .utf8).split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        let sandbox = try Sandbox()
        try await sandbox.succeed("import", fixture.path)

        // When reported
        let page = try await Self.page(sandbox)

        // Then every fetch's bar has its tap marked, each timed-out fetch its deadline, each cancel its ×,
        // each interrupted fetch its jagged end: as many marks as the recordings say
        func marks(_ kind: String) -> Int { page.components(separatedBy: "class=\"mark \(kind)\"").count - 1 }
        #expect(marks("tap") == records.filter { $0["tappedAt"] is String }.count)
        #expect(marks("deadline") == records.filter { $0["outcome"] as? String == "timed-out" && $0["timeoutMs"] is Int }.count)
        #expect(marks("cancel") == records.filter { $0["outcome"] as? String == "cancelled" }.count)
        #expect(marks("jagged") == records.filter { ["interrupted", "running"].contains($0["outcome"] as? String) }.count)
        #expect(marks("tap") > 0 && marks("deadline") > 0 && marks("cancel") > 0 && marks("jagged") > 0)
        // And a bar's details name its cancel reason and its timeout
        #expect(page.contains("cancelled (user) · random"))
        #expect(page.contains("timeout 100 ms") || page.contains("timeout 1.00 s"), "a timed-out fetch's details give its timeout")
    }

    @Test func recordedTextIsEscapedShortenedAndCannotAddMarkupOrScript() async throws {
        // Given values, errors, a source and a host holding markup, control and bidi characters, and a 100 KB error
        let sandbox = try await Self.history()

        // When reported
        let page = try await Self.page(sandbox)

        // Then no recorded text became markup: the only script is the page's own, no image, no handler
        #expect(page.components(separatedBy: "<script").count == 2, "one script element")
        #expect(!page.contains("<img") && !page.contains("<b>") && !page.contains("onerror=\""))
        #expect(page.contains("&lt;script&gt;window.__pwned=&#39;script&#39;&lt;/script&gt;&quot;&gt;&lt;img src=x onerror=&quot;"))
        #expect(page.contains("&amp;amp;"), "an entity in recorded text is shown, not decoded")
        // And control and bidi characters are shown as escapes, never written raw
        #expect(!page.contains("\u{1B}") && !page.contains("\u{202E}"))
        #expect(page.contains("\\x1b[2J") && page.contains("\\u{202e}gnp.exe"))
        // And the 100 KB error is cut, the rest counted
        #expect(!page.contains(String(repeating: "x", count: 301)))
        #expect(page.contains(String(repeating: "x", count: 300) + "… (99700 more characters)"))
        // And the page allows no request and only its own script
        let policy = try #require(page.components(separatedBy: "Content-Security-Policy\" content=\"").dropFirst().first?.components(separatedBy: "\"").first)
        #expect(policy.hasPrefix("default-src 'none';") && policy.contains("script-src 'nonce-"), "\(policy)")
        let nonce = try #require(policy.components(separatedBy: "'nonce-").last?.components(separatedBy: "'").first)
        #expect(nonce.count == 32 && page.contains("<script nonce=\"\(nonce)\">"))
        let again = try await Self.page(sandbox)
        #expect(!again.contains(nonce), "a new nonce for every page")
    }

    @Test func aBarsDetailsKeepRecordedTextToItsOwnLineAndCutALongSource() async throws {
        // Given a failure whose error holds a line break that reads like a details line, from a 5,000-character URL
        let sandbox = try Sandbox()
        let source = "https://h.example/" + String(repeating: "p", count: 5_000)
        let host = "build-agent-" + String(repeating: "h", count: 188)
        try await sandbox.importRecords([.make("failed", id: Ids.fetch(1), source: source, at: Fixtures.day0, error: "boom\nHTTP 200 · 5 bytes", host: host)])

        // When reported
        let page = try await Self.page(sandbox)

        // Then the bar's details show the break as \n, on the error's own line, and the source cut at 120 characters
        let details = try #require(page.components(separatedBy: "data-details=\"").dropFirst().first?.prefix { $0 != "\"" })
        #expect(details.contains("error boom\\nHTTP 200 · 5 bytes"), "\(details)")
        #expect(!details.contains("\nHTTP 200"), "no line of its own")
        #expect(details.contains("failed · https://h.example/" + String(repeating: "p", count: 102) + "… (4898 more characters)"), "\(details)")
        #expect(page.count < 20_000, "the URL is not repeated whole: \(page.count) characters")
        // And the host is cut as the source is; the lane's label, id first, is cut at 34 characters and whole in its tooltip
        #expect(details.contains("host " + String(host.prefix(120)) + "… (80 more characters)"), "\(details)")
        let label = "\(Ids.session(1).prefix(8)) · \(host)"
        #expect(page.contains("<title>\(label)</title>\(label.prefix(34))</text>"), "\(page.components(separatedBy: "lane-label").last?.prefix(300) ?? "")")
    }

    @Test func filtersChooseTheFetchesAndAnEmptyResultSaysSo() async throws {
        // Given the history
        let sandbox = try await Self.history()

        // When only failures are reported, and then nothing matches, and then on an empty history
        let failed = try await Self.page(sandbox, "--outcome", "failed")
        let none = try await Self.page(sandbox, "--grep", "nothing like this")
        let empty = try Sandbox()
        // An import of nothing makes the history's file, empty.
        _ = try await empty.run("import", "-", stdin: Data())
        let nothing = try await Self.page(empty)

        // Then the filtered page has the four failures only and names its filter
        #expect(failed.components(separatedBy: "<a class=\"fetch\"").count - 1 == 4)
        #expect(failed.contains("Fetches matching --outcome failed"))
        // And an empty page says why it is empty
        #expect(none.contains("<p id=\"empty\">No fetches match the filters (--grep nothing like this).</p>"), "\(none)")
        #expect(nothing.contains("<p id=\"empty\">No fetches recorded yet.</p>"), "\(nothing)")
        #expect(!none.contains("<section id=\"timeline\">"))
    }

    @Test func pastTwoThousandFetchesTheTimelineIsDrawnInSlicesAndSaysSo() async throws {
        // Given 2,500 fetches, one a failure
        let sandbox = try Sandbox()
        var records = Fixtures.succeeded(2_499)
        records.append(.make("failed", id: Ids.fetch(9_999), at: Fixtures.day0 + 30_000, error: "one failure"))
        try await sandbox.importRecords(records)

        // When reported
        let page = try await Self.page(sandbox)

        // Then there are no bars but slices, no fetch table, and the page says why
        #expect(!page.contains("<a class=\"fetch\""))
        let slices = page.components(separatedBy: "<g data-fetch=\"\"").count - 1
        #expect(slices > 100 && slices <= 400, "\(slices) slices")
        #expect(page.contains("2,500 fetches are more bars than a screen can show"))
        #expect(!page.contains("<section id=\"fetches\">"))
        #expect(page.contains("class=\"mark some-failed\""), "the failure under a busier slice still shows")
        #expect(page.contains("one failure"))
        // And where every fetch failed, every slice has the mark too, not only where another outcome is busier
        let allFailed = try Sandbox()
        try await allFailed.importRecords((0..<2_500).map { .make("failed", id: Ids.fetch(40_000 + $0), at: Fixtures.day0 + Int64($0) * 1_000) })
        let failedPage = try await Self.page(allFailed)
        let failedSlices = failedPage.components(separatedBy: "<g data-fetch=\"\"").count - 1
        #expect(failedSlices > 100 && failedPage.components(separatedBy: "class=\"mark some-failed\"").count - 1 == failedSlices)
        // And the histogram counts as the rest of the page does: durations of 1,000 to 2,499 ms are 1,500
        #expect(page.contains("<title>1.00 s–2.50 s: 1,500</title>") && page.contains(">1,500</text>"))
        // And a reader who cannot see the histogram is told its buckets: the picture's label lists them
        #expect(page.contains("aria-label=\"Latency histogram of succeeded fetches: 10 ms–25 ms: 15; 25 ms–50 ms: 25; "), "\(page.components(separatedBy: "Latency histogram").last?.prefix(300) ?? "")")
    }

    @Test func aLongQuietStretchIsFoldedIntoABandThatSaysHowLongItWas() async throws {
        // Given two bursts of fetches a day apart, and a history of one burst
        let sandbox = try Sandbox()
        try await sandbox.importRecords(Fixtures.succeeded(3, from: Fixtures.day0) + Fixtures.succeeded(3, from: Fixtures.day0 + Fixtures.day, firstID: 2000))
        let oneBurst = try Sandbox()
        try await oneBurst.importRecords(Fixtures.succeeded(3))

        // When reported
        let page = try await Self.page(sandbox)
        let single = try await Self.page(oneBurst)

        // Then the day between is one band, titled with its length, and the second burst starts after it
        let bands = page.components(separatedBy: "<g class=\"gap\"><title>").dropFirst()
        #expect(bands.count == 1)
        #expect(bands.first?.hasPrefix("23 h 5") == true && bands.first?.contains(" without fetches</title>") == true, "\(bands.first?.prefix(80) ?? "")")
        #expect(!single.contains("<g class=\"gap\">"))
        // And so is it with only two pauses, a minute and then a day: the day folds
        let three = try Sandbox()
        try await three.importRecords(Fixtures.succeeded(2) + Fixtures.succeeded(1, from: Fixtures.day0 + Fixtures.day, firstID: 2000))
        #expect(try await Self.page(three).components(separatedBy: "<g class=\"gap\"><title>").count - 1 == 1)
        // And each burst is wide enough to read: its bars spread over at least a third of the plot
        func barX(_ id: String) throws -> Double {
            let bar = try #require(page.components(separatedBy: "href=\"#f-\(id)\"").dropFirst().first)
            let x = try #require(bar.components(separatedBy: "<rect class=\"bar o-succeeded\" x=\"").dropFirst().first?.prefix { $0 != "\"" })
            return try #require(Double(String(x)))
        }
        let firstBurst = try barX(Ids.fetch(1002)) - barX(Ids.fetch(1000))
        let secondBurst = try barX(Ids.fetch(2002)) - barX(Ids.fetch(2000))
        #expect(firstBurst > 250 && secondBurst > 250, "\(firstBurst) \(secondBurst)")
        #expect(try barX(Ids.fetch(2000)) > barX(Ids.fetch(1002)) + 28)
    }

    @Test func slicesFoldALongQuietStretchAsBarsDo() async throws {
        // Given 2,500 fetches in two runs of 1,250, ten days apart
        let sandbox = try Sandbox()
        try await sandbox.importRecords(
            Fixtures.succeeded(1_250) + Fixtures.succeeded(1_250, from: Fixtures.day0 + 10 * Fixtures.day, firstID: 5_000)
        )

        // When reported
        let page = try await Self.page(sandbox)

        // Then the slices of both runs are drawn, with one band between them saying how long the quiet was
        let bands = page.components(separatedBy: "<g class=\"gap\"><title>").dropFirst()
        // (ten days less the first run's 21 hours, less the room either side of each run)
        #expect(bands.count == 1 && bands.first?.hasPrefix("9 d ") == true && bands.first?.contains(" without fetches</title>") == true, "\(bands.first?.prefix(60) ?? "")")
        let slices = page.components(separatedBy: "<g data-fetch=\"\"").count - 1
        #expect(slices > 100, "\(slices) slices: both runs readable")
        #expect(!page.contains("<a class=\"fetch\""))
    }

    @Test func failuresAreListedByProblemTheLatestOfEachNewestFirst() async throws {
        // Given 600 failures whose errors differ only by a number, then three timeouts
        let sandbox = try Sandbox()
        try await sandbox.importRecords((0..<600).map { index in
            .make("failed", id: Ids.fetch(20_000 + index), at: Fixtures.day0 + Int64(index) * 1_000, error: "failure \(index)")
        } + (0..<3).map { index in
            .make("timed-out", id: Ids.fetch(21_000 + index), at: Fixtures.day0 + 700_000 + Int64(index) * 1_000)
        })

        // When reported
        let page = try await Self.page(sandbox)

        // Then the failures are two problems, the bigger first: the 600 as one, "failure <n>", then the timeouts
        let failures = try #require(page.components(separatedBy: "<section id=\"failures\">").last?.components(separatedBy: "</section>").first)
        let groups = failures.components(separatedBy: "<h3 id=\"problem-").dropFirst()
        #expect(groups.count == 2)
        #expect(groups.first?.contains("<code>failure &lt;n&gt;</code> <span class=\"muted\">· 600 fetches, the latest 10</span></h3>") == true, "\(groups.first?.prefix(500) ?? "")")
        #expect(groups.last?.contains("<code>timed out</code> <span class=\"muted\">· 3 fetches</span></h3>") == true)
        // And each lists its latest, newest first: the last ten of the 600, each with its own error
        let rows = try #require(groups.first).components(separatedBy: "<tr id=\"failure-").dropFirst()
        #expect(rows.map { String($0.prefix(36)) } == (590..<600).reversed().map { Ids.fetch(20_000 + $0) })
        #expect(rows.first?.contains(">failure 599<") == true && !failures.contains(">failure 589<"))
        #expect(failures.contains("603 fetches by problem, most first, the latest 10 of each; <code>fetch-history list --outcome failed,timed-out</code> lists them all."))
        // And a report of part of the history says the command needs the same filters
        let since = try await Self.page(sandbox, "--grep", "failure")
        #expect(since.contains("<code>fetch-history list --outcome failed,timed-out</code> with this report's other filters (<code>--grep failure</code>) lists them all."))
    }

    @Test func pastSixtyHostsTheRestShareOneLane() async throws {
        // Given 70 sessions, each on a host of its own
        let sandbox = try Sandbox()
        try await sandbox.importRecords((0..<70).map { index in
            .make("succeeded", id: Ids.fetch(30_000 + index), session: Ids.session(100 + index), at: Fixtures.day0 + Int64(index) * 1_000, host: "host-\(index)")
        })

        // When reported
        let page = try await Self.page(sandbox)

        // Then there are 60 lanes: 59 hosts, then the other eleven together
        #expect(page.components(separatedBy: "<g class=\"lane\">").count - 1 == 60)
        #expect(page.contains(">host-58</text>") && !page.contains(">host-59</text>"))
        #expect(page.contains(">other hosts (11 sessions)</text>"))
    }

    @Test func pastSixtySessionsALaneIsAHostsSessionsMerged() async throws {
        // Given 2,400 fetches in 80 sessions on two hosts
        let sandbox = try Sandbox()
        let records = (0..<2_400).map { index in
            ExportRecord.make(
                "succeeded", id: Ids.fetch(10_000 + index), session: Ids.session(1 + index / 30), at: Fixtures.day0 + Int64(index) * 1_000,
                host: index / 30 % 2 == 0 ? "ci-1" : "ci-2"
            )
        }
        try await sandbox.importRecords(records)

        // When reported
        let page = try await Self.page(sandbox)

        // Then there is a lane per host, saying how many sessions it merged, and the page says why
        #expect(page.components(separatedBy: "<g class=\"lane\">").count - 1 == 2)
        #expect(page.contains(">ci-1 (40 sessions)</text>") && page.contains(">ci-2 (40 sessions)</text>"))
        #expect(page.contains("80 sessions are more lanes than a screen can show: each lane is a host, its sessions merged."))
    }

    @Test func slicedLanesGroupedByHostEachShowTheirOwnSessionsFetches() async throws {
        // Given 2,400 fetches in three sessions that came host a, host b, host a: 1,000, 600 and 800
        let sandbox = try Sandbox()
        let sessions = [(Ids.session(41), "host-a", 1_000), (Ids.session(42), "host-b", 600), (Ids.session(43), "host-a", 800)]
        var records: [ExportRecord] = []
        for (session, host, count) in sessions {
            for _ in 0..<count {
                records.append(.make("succeeded", id: Ids.fetch(50_000 + records.count), session: session, at: Fixtures.day0 + Int64(records.count) * 1_000, host: host))
            }
        }
        try await sandbox.importRecords(records)

        // When reported: lanes grouped under their hosts, a's two sessions first, drawn in slices
        let page = try await Self.page(sandbox)

        // Then each session's lane holds its own fetches: the counts of its slices add up to its fetches
        let lanes = page.components(separatedBy: "<g class=\"lane\">").dropFirst()
        #expect(lanes.count == 3)
        for (session, _, count) in sessions {
            let short = String(session.prefix(8))
            let lane = try #require(lanes.first { $0.contains(">session \(short)</text>") }, "no lane for \(short)")
            // Each slice's details: "FROM to TO UTC · N fetches: …"
            let details = lane.components(separatedBy: "data-details=\"").dropFirst().map { $0.prefix { $0 != "\"" } }
            let counted = details.compactMap { Int($0.components(separatedBy: " · ").last?.split(separator: " ").first ?? "") }.reduce(0, +)
            #expect(details.count > 10, "\(short): \(details.count) slices")
            #expect(counted == count, "session \(short): \(counted) fetches in its slices, \(count) recorded")
        }
    }

    /// A timed-out fetch's record with its script: tapped at its start, `timeout` ms, ended after `duration` ms.
    static func timedOutLine(_ index: Int, at seconds: Int, duration: Int, timeout: String) -> String {
        func time(_ milliseconds: Int) -> String {
            "2025-11-25T06:\(String(format: "%02d:%02d.%03d", milliseconds / 60_000, milliseconds / 1000 % 60, milliseconds % 1000))Z"
        }
        let start = seconds * 1000
        return #"{"id":"\#(Ids.fetch(index))","session":"\#(Ids.session(1))","source":"random","outcome":"timed-out","cancelReason":null,"value":null,"error":null,"#
            + #""startedAt":"\#(time(start))","endedAt":"\#(time(start + duration))","durationMs":\#(duration),"status":null,"bytes":null,"#
            + #""tappedAt":"\#(time(start))","timeoutMs":\#(timeout),"endedBy":"timeout","endedByAt":"\#(time(start + duration))","answerValue":null,"answerError":null,"host":"h"}"#
    }

    @Test func aTimeoutsDeadlineIsDrawnWhereItFell() async throws {
        // Given two timed-out fetches a minute apart, the first given 20 s and timed out after 20 s
        let sandbox = try Sandbox()
        let lines = [Self.timedOutLine(1, at: 0, duration: 20_000, timeout: "20000"), Self.timedOutLine(2, at: 60, duration: 100, timeout: "100")]
        try lines.joined(separator: "\n").write(toFile: sandbox.path("timeouts.jsonl"), atomically: true, encoding: .utf8)
        try await sandbox.succeed("import", sandbox.path("timeouts.jsonl"))

        // When reported
        let page = try await Self.page(sandbox)

        // Then the first bar's deadline is at its end, 20 s after its start, not at its start
        func number(_ name: String, in text: Substring) throws -> Double {
            let value = try #require(text.components(separatedBy: "\(name)=\"").dropFirst().first?.prefix { $0 != "\"" })
            return try #require(Double(value))
        }
        let timeline = try #require(page.components(separatedBy: "<svg class=\"timeline\"").last)
        let bar = try #require(timeline.components(separatedBy: "<rect class=\"bar o-timed-out\"").dropFirst().first?.prefix(200))
        let deadline = try #require(page.components(separatedBy: "class=\"mark deadline\"").dropFirst().first?.prefix(100))
        let (x, width, deadlineX) = (try number("x", in: bar), try number("width", in: bar), try number("x1", in: deadline))
        #expect(width > 100, "a 20 s bar of a minute's timeline is wide: \(width)")
        #expect(abs(deadlineX - (x + width)) <= 1, "deadline at \(deadlineX), bar from \(x) to \(x + width)")
    }

    @Test func aTimeoutAsLongAsInt64HoldsIsDrawnAtTheEnd() async throws {
        // Given a timed-out fetch whose recorded timeout is the largest Int64
        let sandbox = try Sandbox()
        try Self.timedOutLine(1, at: 0, duration: 1000, timeout: "9223372036854775807").write(toFile: sandbox.path("huge.jsonl"), atomically: true, encoding: .utf8)
        try await sandbox.succeed("import", sandbox.path("huge.jsonl"))

        // When reported
        let page = try await Self.page(sandbox)

        // Then the page is written, its deadline marked at the right end of the plot (x = 1150 of 1160)
        #expect(page.contains("class=\"mark deadline\" x1=\"1150\""), "\(page.components(separatedBy: "mark deadline").last?.prefix(80) ?? "")")
    }

    @Test func theFileIsWhereOutputSaysAndAFailedWriteLeavesNothing() async throws {
        // Given the history, and a folder where the report is asked to go
        let sandbox = try await Self.history()
        let folder = sandbox.path("folder")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)

        // When reported with no --output, then into a folder that does not exist, then onto the folder's name
        let written = try await sandbox.succeed("report")
        #expect(written.standardError == "wrote report.html: 12 fetches\n" && written.standardOutput.isEmpty, "\(written)")
        let missing = try await sandbox.run("report", "--output", sandbox.path("no-such-folder/report.html"))
        let ontoFolder = try await sandbox.run("report", "--output", folder)
        // (an unknown session is found out once the file is open: the half-made file must go)
        let unknownSession = try await sandbox.run("report", "--session", "ffffffff", "--output", sandbox.path("unknown.html"))

        // Then report.html is in the working folder, a whole page
        let page = try String(contentsOfFile: sandbox.path("report.html"), encoding: .utf8)
        #expect(page.hasPrefix("<!DOCTYPE html>") && page.hasSuffix("</html>\n"))
        // And a write that cannot happen is one sentence, exit 1
        for result in [missing, ontoFolder, unknownSession] {
            #expect(result.status == 1 && result.standardError.hasPrefix("error: ") && result.standardError.split(separator: "\n").count == 1, "\(result)")
        }
        // And leaves no file behind, whole or half: the folder is untouched, no temporary file remains
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == [])
        let left = try FileManager.default.contentsOfDirectory(atPath: sandbox.root.path)
            .filter { $0.hasPrefix(".folder") || $0.hasPrefix(".report") || $0.contains("unknown") }
        #expect(left == [], "\(left)")
    }

    @Test func junitIsTheSameReportExportWrites() async throws {
        let sandbox = try await Self.history()
        let report = try await sandbox.run("report", "--format", "junit", "--by", "source", "--output", "-")
        let export = try await sandbox.run("export", "--format", "junit", "--by", "source")
        #expect(report.status == 0 && report.standardOutput == export.standardOutput && report.standardOutput.contains("<testsuites"), "\(report)")
        // Without --output, JUnit goes to report.xml, and says so
        let toDefault = try await sandbox.succeed("report", "--format", "junit")
        #expect(toDefault.standardError == "wrote report.xml: 12 fetches\n", "\(toDefault)")
        let bySession = try await sandbox.succeed("export", "--format", "junit")
        #expect(try String(contentsOfFile: sandbox.path("report.xml"), encoding: .utf8) == bySession.standardOutput)
        let by = try await sandbox.run("report", "--by", "source")
        #expect(by.status == 64 && by.standardError.contains("--by applies to --format junit only, not html"), "\(by)")
    }
}
