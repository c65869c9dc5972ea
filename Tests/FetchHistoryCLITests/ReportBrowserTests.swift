import Foundation
import LoopbackServers
import Testing

/// The report opened in a real headless browser (Debian's chromium, driven
/// through WebDriver by `Browser/open-report.py`), checked for what a person
/// would see: it loads with no console error and no request leaving the
/// file, a bar per fetch (slices for a large history), details on hover and
/// on keyboard focus, dark mode, a screenshot that is not blank, and no
/// recorded text that runs.
@Suite("report in a browser", .serialized)
struct ReportBrowserTests {
    static let script = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "Browser/open-report.py").path

    struct Seen: Decodable {
        struct Screenshot: Decodable {
            var width: Int
            var height: Int
            var distinctColours: Int
            var nonBackgroundShare: Double
            var background: [Int]
        }

        var title: String
        var bars: Int
        var slices: Int
        var aggregatedNote: String?
        var empty: String?
        var images: Int
        var scripts: Int
        var pwned: String?
        var background: String
        var textColour: String
        var hoverDetails: String?
        var hoverExpected: String?
        var focusDetails: String?
        var focusExpected: String?
        var screenshot: Screenshot
        var consoleErrors: [String]
        var requests: [String]
        var contrast: Contrast
        var text: String
        var links: Int
        var rows: Int
        var axisLabels: [AxisLabel]
        /// Per class of bar or slice (`slice o-failed`), how the first of them is drawn.
        var shapes: [String: Shape]
        /// The stop Tab reaches just before the timeline's first.
        var beforeTimeline: FirstTab?
        /// The ids of the page's sections in order, and where the problems start in the first screen.
        var sections: [String]
        var problemsTop: Double?
        /// The rows of the problems, sources and slowest tables, as a reader sees them.
        var problemRows: [String]
        var sourceRows: [SourceRow]
        var slowestRows: [String]
        var laneLabels: [String]
        /// Links within the page whose target is not on it.
        var brokenLinks: [String]
        /// The panel after pointing at a slice where fetches failed, and what that slice carries.
        var failedSlice: Hover?

        struct SourceRow: Decodable {
            var text: String
            /// The width of its first cell's left border (`4px` for the worst).
            var border: String
        }

        struct Hover: Decodable {
            var details: String
            var expected: String
        }

        struct Shape: Decodable {
            var fill: String
            var dash: String
            var height: Double
        }

        /// A stop Tab reaches.
        struct FirstTab: Decodable {
            var text: String
            var href: String?
            var shown: Bool
        }

        /// A label of the timeline's time axis, where the browser drew it.
        struct AxisLabel: Decodable {
            var text: String
            var left: Double
            var right: Double
        }

        /// The text with the lowest contrast against its background.
        struct Contrast: Decodable {
            var ratio: Double
            var text: String?
            var colour: String?
            var background: String?
        }
    }

    /// Writes the report of `sandbox`'s history and opens it.
    static func open(_ sandbox: Sandbox, scheme: String = "light", _ arguments: String..., sourceLocation: SourceLocation = #_sourceLocation) async throws -> Seen {
        let page = sandbox.path("report-\(scheme).html"), picture = sandbox.path("report-\(scheme).png")
        let written = try await sandbox.run(["report", "--output", page] + arguments)
        #expect(written.status == 0, "\(written)", sourceLocation: sourceLocation)
        var ports = FreePorts()
        let free = ports.next()
        let port = try #require(free, "no free port for ChromeDriver", sourceLocation: sourceLocation)
        let browser = try await FetchHistoryProcess.start(
            arguments: [script, page, picture, scheme],
            environment: ["PATH": "/usr/bin:/bin", "HOME": sandbox.root.path, "TMPDIR": sandbox.root.path, "CHROMEDRIVER_PORT": String(port)],
            workingDirectory: sandbox.root, executable: URL(fileURLWithPath: "/usr/bin/python3")
        ).wait(limit: .seconds(120))
        try #require(browser.status == 0, "open-report.py: \(browser.standardError)", sourceLocation: sourceLocation)
        return try JSONDecoder().decode(Seen.self, from: browser.standardOutputData)
    }

    @Test func aRecordedSessionOpensWithABarPerFetchAndDetailsOnHoverAndFocus() async throws {
        // Given twelve fetches with every outcome, one error holding markup and script
        let sandbox = try await ReportTests.history()

        // When the report is opened in the browser
        let seen = try await Self.open(sandbox)

        // Then it loaded with no console error and asked for nothing outside the file
        #expect(seen.consoleErrors == [], "\(seen.consoleErrors)")
        #expect(seen.requests == [], "\(seen.requests)")
        #expect(seen.title == "Fetch history report")
        // And there is one bar per fetch
        #expect(seen.bars == 12 && seen.slices == 0 && seen.aggregatedNote == nil)
        // And the details panel, hidden until the page's script runs, is offered
        #expect(seen.text.contains("Point at or focus a fetch to see its details."))
        // And pointing at a bar, then reaching one with Tab, shows that fetch's details
        #expect(seen.hoverExpected?.hasPrefix("fetch \(Ids.fetch(1))") == true, "\(seen.hoverExpected ?? "")")
        #expect(seen.hoverDetails == seen.hoverExpected)
        #expect(seen.focusExpected != nil && seen.focusDetails == seen.focusExpected, "\(seen.focusDetails ?? "") vs \(seen.focusExpected ?? "")")
        #expect(seen.focusExpected != seen.hoverExpected, "the bar reached with Tab is another than the one pointed at")
        // And nothing recorded ran or became an element
        #expect(seen.pwned == nil && seen.images == 0 && seen.scripts == 1)
        // And the screenshot at 1280×900 has the page on it, light
        #expect(seen.screenshot.width == 1280 && seen.screenshot.height == 900)
        #expect(seen.screenshot.distinctColours > 8 && seen.screenshot.nonBackgroundShare > 0.02, "\(seen.screenshot)")
        #expect(seen.screenshot.background == [255, 255, 255] && seen.background == "rgb(255, 255, 255)")
        // And every text passes WCAG AA: 4.5:1 against what it is drawn on
        #expect(seen.contrast.ratio >= 4.5, "\(seen.contrast)")
    }

    @Test func theTimeAxisMarksRoundTimesThatNeverRunIntoEachOther() async throws {
        // Given the docs' history: a night of probes from 22:00 with a quiet stretch folded before 04:00,
        // then a burst of taps the next evening from 19:15:10
        let sandbox = try Sandbox()
        try await sandbox.succeed("import", ReadmeExampleTests.fixture.path)

        // When opened
        let seen = try await Self.open(sandbox)

        // Then each stretch starts with its date, and the hours between are marked on the hour
        #expect(seen.axisLabels.map(\.text).sorted() == ["05:00", "2025-11-24 22:00", "2025-11-25 04:00", "2025-11-25 19:15:10", "23:00"], "\(seen.axisLabels)")
        // And no two labels overlap as drawn, and each is on the page
        let drawn = seen.axisLabels.sorted { $0.left < $1.left }
        for (label, next) in zip(drawn, drawn.dropFirst()) {
            #expect(label.right <= next.left, "\(label.text) runs into \(next.text)")
        }
        #expect(drawn.allSatisfy { $0.left >= 0 && $0.right <= 1280 }, "\(drawn)")
    }

    @Test func slicesTellOutcomesApartByShapeAsWellAsColour() async throws {
        // Given 2,500 fetches in runs of 500 of each ended outcome
        let sandbox = try Sandbox()
        let outcomes = ["succeeded", "failed", "cancelled", "timed-out", "interrupted"]
        try await sandbox.importRecords((0..<2_500).map { index in
            .make(outcomes[index / 500], id: Ids.fetch(70_000 + index), at: Fixtures.day0 + Int64(index) * 1_000)
        })

        // When opened
        let seen = try await Self.open(sandbox)

        // Then slices most of whose fetches failed are hatched, cancelled ones hollow, timed-out ones
        // dashed, interrupted ones half as tall, as the bars and the legend draw them
        let shapes = seen.shapes
        #expect(shapes["slice o-succeeded"]?.fill.hasPrefix("rgb") == true, "\(shapes)")
        #expect(shapes["slice o-failed"]?.fill.contains("#hatch") == true, "\(shapes)")
        #expect(shapes["slice o-cancelled"]?.fill == "none", "\(shapes)")
        #expect(shapes["slice o-timed-out"].map { $0.dash != "none" } == true, "\(shapes)")
        let full = try #require(shapes["slice o-succeeded"]?.height), short = try #require(shapes["slice o-interrupted"]?.height)
        #expect(short * 2 <= full, "\(shapes)")
        // And the stop Tab reaches just before the timeline's thousands is the way past them, and shows
        #expect(seen.beforeTimeline?.href == "#latency" && seen.beforeTimeline?.shown == true, "\(String(describing: seen.beforeTimeline))")
    }

    @Test func darkModeFollowsTheReadersSetting() async throws {
        let sandbox = try await ReportTests.history()
        let seen = try await Self.open(sandbox, scheme: "dark")
        #expect(seen.background == "rgb(13, 17, 23)" && seen.textColour == "rgb(230, 237, 243)", "\(seen.background) \(seen.textColour)")
        #expect(seen.screenshot.background == [13, 17, 23], "\(seen.screenshot)")
        #expect(seen.consoleErrors == [] && seen.bars == 12)
        #expect(seen.contrast.ratio >= 4.5, "\(seen.contrast)")
    }

    @Test func aLargeHistoryIsDrawnInSlicesThatShowTheirCounts() async throws {
        // Given 2,500 fetches
        let sandbox = try Sandbox()
        try await sandbox.importRecords(Fixtures.succeeded(2_500))

        // When opened
        let seen = try await Self.open(sandbox)

        // Then the timeline is slices, says so, and a slice's counts show on hover
        #expect(seen.bars == 0 && seen.slices > 100, "\(seen.slices)")
        #expect(seen.aggregatedNote?.contains("2,500 fetches are more bars than a screen can show") == true)
        #expect(seen.hoverDetails?.contains("fetches: ") == true && seen.hoverDetails == seen.hoverExpected, "\(seen.hoverDetails ?? "")")
        #expect(seen.consoleErrors == [] && seen.requests == [])
    }

    @Test func withScriptsOffEverythingButTheDetailsPanelIsThere() async throws {
        // Given the twelve fetches
        let sandbox = try await ReportTests.history()

        // When opened with JavaScript turned off
        let seen = try await Self.open(sandbox, scheme: "no-script")

        // Then the summary, a bar per fetch and each bar's link to its row are all there
        #expect(seen.bars == 12 && seen.links == 12 && seen.rows == 12, "\(seen.bars) \(seen.links) \(seen.rows)")
        #expect(seen.text.contains("Summary") && seen.text.contains("Failures and timeouts") && seen.text.contains("Every fetch"))
        #expect(seen.text.contains("Problems") && seen.text.contains("Slowest fetches") && seen.problemRows.count == 7, "\(seen.problemRows)")
        #expect(seen.sourceRows.first?.text.contains("worst") == true && seen.brokenLinks == [])
        // And the details panel, which only a script can fill, is not offered: hidden, no text shown
        #expect(seen.hoverDetails == "", "\(seen.hoverDetails ?? "nil")")
        #expect(!seen.text.contains("Point at or focus a fetch"))
        #expect(seen.consoleErrors == [] && seen.requests == [])
    }

    @Test func valuesAndErrorsHoldingMarkupShowAsTextAndRunNothing() async throws {
        // Given a fetch whose value is a string of markup and script, and one whose error is
        let markup = "<script>window.__pwned='value'</script>\\\"><img src=x onerror=\\\"window.__pwned='img'\\\">"
        let lines = [
            #"{"id":"\#(Ids.fetch(1))","session":"\#(Ids.session(1))","source":"random","outcome":"succeeded","cancelReason":null,"value":"\#(markup)","error":null,"startedAt":"2026-11-20T10:00:00.000Z","endedAt":"2026-11-20T10:00:00.100Z","durationMs":100,"status":null,"bytes":null}"#,
            #"{"id":"\#(Ids.fetch(2))","session":"\#(Ids.session(1))","source":"random","outcome":"failed","cancelReason":null,"value":null,"error":"\#(markup)","startedAt":"2026-11-20T10:00:01.000Z","endedAt":"2026-11-20T10:00:01.100Z","durationMs":100,"status":null,"bytes":null}"#,
        ]
        let sandbox = try Sandbox()
        try await sandbox.succeed("import", "-", stdin: Data((lines.joined(separator: "\n") + "\n").utf8))

        // When opened, pointed at and tabbed through
        let seen = try await Self.open(sandbox)

        // Then nothing ran and nothing became an element; the reader sees the markup as text
        #expect(seen.pwned == nil && seen.images == 0 && seen.scripts == 1)
        #expect(seen.text.contains("<script>window.__pwned='value'</script>"), "\(seen.text.suffix(600))")
        #expect(seen.hoverDetails?.contains("<img src=x onerror=") == true, "\(seen.hoverDetails ?? "")")
        #expect(seen.consoleErrors == [] && seen.requests == [])
    }

    @Test func anEmptyReportSaysSoInTheBrowserToo() async throws {
        let sandbox = try Sandbox()
        try await sandbox.importRecords([.make("succeeded", id: Ids.fetch(1), at: Fixtures.day0)])
        let seen = try await Self.open(sandbox, "--outcome", "failed")
        #expect(seen.empty?.contains("No fetches match the filters") == true && seen.bars == 0 && seen.consoleErrors == [])
    }

    @Test func problemsComeFirstTheWorstSourceIsMarkedAndTheSlowestListed() async throws {
        // Given the docs' history: HTTP 503 and timeouts three times each, several other failures
        let sandbox = try Sandbox()
        try await sandbox.succeed("import", ReadmeExampleTests.fixture.path)

        // When opened
        let seen = try await Self.open(sandbox)

        // Then the problems come right after the summary, on the first screen
        #expect(seen.sections.prefix(3) == ["summary", "problems", "timeline"], "\(seen.sections)")
        let top = try #require(seen.problemsTop)
        #expect(top > 0 && top < 900, "the problems start \(top) px down")
        // And the most frequent problem leads, with its count, hosts and first and latest fetch
        let first = try #require(seen.problemRows.first).trimmingCharacters(in: .whitespaces)
        #expect(first.hasPrefix("HTTP 503") && first.contains("3 23.1%") && first.contains("probe-1 (2), vm (1)"), "\(first)")
        #expect(first.contains("0e8a1ff0 first, 142217f2 latest"), "\(first)")
        #expect(seen.problemRows.count == 9)
        // And the sources go worst first; the worst says so in words and has a border, not a colour alone
        let worst = try #require(seen.sourceRows.first)
        #expect(worst.text.hasPrefix("⚠ worst") && worst.border == "4px", "\(worst)")
        #expect(seen.sourceRows.last.map { !$0.text.contains("worst") && $0.border != "4px" } == true, "\(seen.sourceRows)")
        // And twenty slowest fetches are listed, the timeout of a second first
        #expect(seen.slowestRows.count == 20 && seen.slowestRows.first?.hasPrefix("1.00 s") == true, "\(seen.slowestRows.first ?? "")")
        // And every link within the page leads to something on it; the text still passes WCAG AA
        #expect(seen.brokenLinks == [], "\(seen.brokenLinks)")
        #expect(seen.contrast.ratio >= 4.5, "\(seen.contrast)")
        #expect(seen.consoleErrors == [] && seen.requests == [])
        // And the way past the timeline's stops still comes just before them
        #expect(seen.beforeTimeline?.href == "#latency" && seen.beforeTimeline?.shown == true, "\(String(describing: seen.beforeTimeline))")
    }

    @Test func aFailingSourceHasItsOwnLaneAndItsSlicesNameTheProblem() async throws {
        // Given 2,500 fetches: an HTTP source answering 503 one time in four, beside one that always succeeds
        let sandbox = try Sandbox()
        try await sandbox.importRecords((0..<2_500).map { index in
            let api = index % 2 == 0
            let failed = api && index % 8 == 0
            return .make(
                failed ? "failed" : "succeeded", id: Ids.fetch(90_000 + index), source: api ? "https://api.example/n" : "random",
                at: Fixtures.day0 + Int64(index) * 1_000, error: "HTTP 503", status: api ? (failed ? 503 : 200) : nil, bytes: api ? 4 : nil
            )
        })

        // When opened with a lane per source
        let seen = try await Self.open(sandbox, "--lanes", "source")

        // Then each source is a lane
        #expect(seen.laneLabels == ["https://api.example/n", "random"], "\(seen.laneLabels)")
        // And pointing at a slice where fetches failed names, after its outcomes, its problem and source
        let slice = try #require(seen.failedSlice)
        #expect(slice.details == slice.expected, "\(slice)")
        #expect(slice.details.contains(" failed\nproblem: HTTP 503 (") && slice.details.contains("\nsource: https://api.example/n ("), "\(slice.details)")
        #expect(seen.consoleErrors == [] && seen.requests == [] && seen.brokenLinks == [])
        #expect(seen.contrast.ratio >= 4.5, "\(seen.contrast)")
    }
}
