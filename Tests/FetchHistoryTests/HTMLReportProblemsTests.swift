@testable import FetchHistoryReport
import FetchHistoryModel
import FetchHistoryStore
import Foundation
import Testing

/// What `HTMLReport` collects as the history streams past, and how the page
/// shows it: problems, the slowest fetches, sources worst first, lanes, and
/// what a slice's details name.
@Suite("HTMLReport's problems, slowest fetches, sources and lanes")
struct HTMLReportProblemsTests {
    static let start: Int64 = 1_764_000_000_000

    static func id(_ number: Int) -> UUID {
        UUID(uuidString: String(format: "00000000-0000-4000-8000-%012x", number))!
    }

    /// A fetch `seconds` after `start`; its number is its id.
    static func fetch(
        _ number: Int, _ outcome: FetchOutcome?, at seconds: Int64, duration: Int64? = 100, source: String = "random",
        host: String = "ci-1", session: Int = 1, status: Int? = nil
    ) -> Fetch {
        let started = Timestamp(millisecondsSince1970: start + seconds * 1_000)
        let ended = outcome == nil || outcome == .interrupted ? nil : duration
        return Fetch(
            id: id(number), sessionID: id(900_000 + session), source: source, startedAt: started,
            endedAt: ended.map { started.advanced(by: .milliseconds($0)) }, durationMilliseconds: ended, outcome: outcome,
            response: status.map { SourceResponse(status: $0, bytes: 10) }, host: host
        )
    }

    static func report(_ fetches: [Fetch], lanes: HTMLReport.Lanes = .session) -> HTMLReport {
        var report = HTMLReport(
            newestStart: fetches.map(\.startedAt).max(), generatedAt: Timestamp(millisecondsSince1970: start), scope: "", lanes: lanes
        )
        for fetch in fetches { report.add(fetch) }
        return report
    }

    /// The text of the section `id`, from its tag to its end.
    static func section(_ id: String, of page: String) throws -> String {
        let from = try #require(page.range(of: "<section id=\"\(id)\">"), "no section \(id)")
        return page[from.lowerBound...].components(separatedBy: "</section>")[0]
    }

    /// Some of every kind of problem, in time order: three HTTP 503s from two sources and two hosts,
    /// a user not found twice with different numbers, a timeout, a cancel, and successes between.
    static let mixed: [Fetch] = [
        fetch(1, .succeeded(1), at: 0),
        fetch(2, .failed("user 17 not found"), at: 5),
        fetch(3, .failed("HTTP 503"), at: 10, source: "https://api.example/a", status: 503),
        fetch(4, .succeeded(2), at: 15, duration: 900),
        fetch(5, .failed("HTTP 503"), at: 20, source: "https://api.example/b", status: 503),
        fetch(6, .timedOut, at: 25, duration: 5_000),
        fetch(7, .failed("HTTP 503"), at: 30, source: "https://api.example/a", host: "ci-2", session: 2, status: 503),
        fetch(8, .cancelled(.user), at: 35),
        fetch(9, .failed("user 42 not found"), at: 40),
        fetch(10, .succeeded(3), at: 45),
    ]

    @Test func problemsAreCountedByKeyMostFirstWithTheirSourcesHostsAndTimes() throws {
        // Given the mixed fetches, counted as the report counts them
        var tallies = ProblemTallies()
        var sources: [String] = [], hosts: [String] = []
        for fetch in Self.mixed {
            if !sources.contains(fetch.source) { sources.append(fetch.source) }
            if !hosts.contains(fetch.host) { hosts.append(fetch.host) }
            _ = tallies.add(fetch, source: sources.firstIndex(of: fetch.source)!, host: hosts.firstIndex(of: fetch.host)!, step: 0)
        }

        // Then the problems are the keys, most fetches first, ties by who came first
        let ranked = tallies.ranked.map { tallies.tallies[$0] }
        #expect(ranked.map(\.key) == ["HTTP 503", "user <n> not found", "timed out", "cancelled"])
        #expect(ranked.map(\.total) == [3, 2, 1, 1])
        // And each knows its sources and hosts with their counts, its first and last fetch, its failures
        let http = ranked[0]
        #expect(http.sources == [sources.firstIndex(of: "https://api.example/a")!: 2, sources.firstIndex(of: "https://api.example/b")!: 1])
        #expect(http.hosts == [hosts.firstIndex(of: "ci-1")!: 2, hosts.firstIndex(of: "ci-2")!: 1])
        #expect(http.first.id == Self.id(3) && http.last.id == Self.id(7))
        #expect(http.latestFailures.map(\.id) == [Self.id(3), Self.id(5), Self.id(7)])
        #expect(ranked[1].first.id == Self.id(2) && ranked[1].last.id == Self.id(9))
        // And a cancel is a problem, but not a failure to list
        #expect(ranked[3].latestFailures.isEmpty && ranked[2].latestFailures.count == 1)
        #expect(ranked.map(\.mainStatus) == [.failed, .failed, .timedOut, .cancelled])
    }

    @Test func theProblemsTableComesAfterTheSummaryMostFirstWithExamplesThatLead() throws {
        // Given the mixed fetches
        let page = Self.report(Self.mixed).html(nonce: "0")

        // Then Problems comes right after the summary, before the timeline
        let order = ["summary", "problems", "timeline", "latency", "slowest", "sources", "failures", "fetches"].map {
            page.range(of: "<section id=\"\($0)\">")?.lowerBound
        }
        #expect(order.allSatisfy { $0 != nil } && order.compactMap { $0 } == order.compactMap { $0 }.sorted(), "sections out of order")
        // And each problem is a row, most first, with its count, share, sources, hosts and first and last seen
        let problems = try Self.section("problems", of: page)
        let rows = problems.components(separatedBy: "<tr><td class=\"text\">").dropFirst()
        #expect(rows.count == 4)
        let first = try #require(rows.first)
        #expect(first.contains("<code>HTTP 503</code>") && first.contains("<td>3 <span class=\"muted small\">42.9%</span></td>"), "\(first)")
        #expect(first.contains("<code>https://api.example/a</code> (2), <code>https://api.example/b</code> (1)"), "\(first)")
        #expect(first.contains("<code>ci-1</code> (2), <code>ci-2</code> (1)"), "\(first)")
        #expect(first.contains("<td class=\"when\">2025-11-24 16:00:10.000</td><td class=\"when\">2025-11-24 16:00:30.000</td>"), "\(first)")
        #expect(rows.dropFirst().first?.contains("<code>user &lt;n&gt; not found</code>") == true)
        // And its key links to its group in the failures list, its examples to their rows there
        #expect(first.contains("<a href=\"#problem-1\"><code>HTTP 503</code></a>"), "\(first)")
        #expect(first.contains("href=\"#failure-\(Self.id(3).uuidString.lowercased())\"") && first.contains("href=\"#failure-\(Self.id(7).uuidString.lowercased())\""))
        // And a cancel, not in the failures list, links to its row in the table of every fetch
        #expect(rows.last?.contains("href=\"#f-\(Self.id(8).uuidString.lowercased())\"") == true, "\(rows.last ?? "")")
        // And every link on the page leads to an element of the page
        try Self.expectLinksLead(page)
        // And a sparkline draws when each happened
        #expect(first.contains("<svg class=\"spark\"") && first.contains("role=\"img\" aria-label=\"When, in 40 equal steps"))
    }

    /// Every `href="#…"` names an `id` on the page.
    static func expectLinksLead(_ page: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let targets = page.components(separatedBy: "href=\"#").dropFirst().map { String($0.prefix { $0 != "\"" }) }
        #expect(!targets.isEmpty, sourceLocation: sourceLocation)
        for target in Set(targets) {
            #expect(page.contains("id=\"\(target)\""), "a link to #\(target), which is not on the page", sourceLocation: sourceLocation)
        }
    }

    @Test func aLargeHistorysExamplesNotOnThePageAreGivenByTheirWholeId() throws {
        // Given 2,100 fetches, a failure every 20th, so the page has no table of every fetch
        let fetches = (0..<2_100).map { index in
            Self.fetch(index + 1, index % 20 == 0 ? .failed("HTTP 503") : .succeeded(1), at: Int64(index), status: index % 20 == 0 ? 503 : nil)
        }

        // When written
        let page = Self.report(fetches).html(nonce: "0")

        // Then the problem's first fetch, not among the latest listed, is given by its whole id, and the page says what for
        let problems = try Self.section("problems", of: page)
        #expect(problems.contains("<code class=\"fetch-id\">\(Self.id(1).uuidString.lowercased())</code> first"), "\(problems)")
        #expect(problems.contains("an example not on this page is given by its id, for <code>fetch-history show ID</code>"))
        // And the latest links to its row in the failures list, which holds the latest ten, newest first
        #expect(problems.contains("href=\"#failure-\(Self.id(2_081).uuidString.lowercased())\""))
        let failures = try Self.section("failures", of: page)
        let listed = failures.components(separatedBy: "<tr id=\"failure-").dropFirst().map { String($0.prefix(36)) }
        #expect(listed == (0..<10).map { Self.id(2_081 - 20 * $0).uuidString.lowercased() })
        #expect(failures.contains("<code>HTTP 503</code> <span class=\"muted\">· 105 fetches, the latest 10</span></h3>"), "\(failures.prefix(800))")
        try Self.expectLinksLead(page)
    }

    @Test func theFailuresListIsGroupedByProblemMostFirst() throws {
        // Given the mixed fetches
        let failures = try Self.section("failures", of: Self.report(Self.mixed).html(nonce: "0"))

        // Then each problem of failures and timeouts is a heading with its count, then its fetches, newest first
        let headings = failures.components(separatedBy: "<h3 id=\"").dropFirst().map { String($0.prefix { $0 != "<" }) }
        #expect(headings.map { $0.components(separatedBy: "\"")[0] } == ["problem-1", "problem-2", "problem-3"], "\(headings)")
        let groups = failures.components(separatedBy: "<h3 id=\"").dropFirst()
        let rows = groups.map { $0.components(separatedBy: "<tr id=\"failure-").dropFirst().map { String($0.prefix(36)) } }
        #expect(rows == [[7, 5, 3], [9, 2], [6]].map { $0.map { Self.id($0).uuidString.lowercased() } })
        #expect(groups.first?.contains("<code>HTTP 503</code> <span class=\"muted\">· 3 fetches</span></h3>") == true)
        #expect(!failures.contains("cancelled"), "a cancel is not a failure")
    }

    @Test func aProblemKeepsItsLatestFailuresAndProblemsPastTheLimitShareOneTally() {
        // Given 25 failures of one problem, then a thousand and five others, each its own
        var tallies = ProblemTallies()
        for index in 0..<25 { _ = tallies.add(Self.fetch(index, .failed("HTTP 500"), at: Int64(index), status: 500), source: 0, host: 0, step: 0) }
        func letters(_ number: Int) -> String { String(String(number).unicodeScalars.map { Character(Unicode.Scalar($0.value + 49)!) }) }
        for index in 0..<(ProblemTallies.limit + 5) {
            _ = tallies.add(Self.fetch(100 + index, .failed("no such thing: \(letters(index))"), at: 30), source: 0, host: 0, step: 0)
        }

        // Then the first keeps its latest ten failures, in order
        #expect(tallies.tallies[0].total == 25 && tallies.tallies[0].latestFailures.map(\.id) == (15..<25).map(Self.id))
        // And past the limit, the rest are one tally, marked as such, counting all six
        #expect(tallies.tallies.count == ProblemTallies.limit + 1)
        let others = tallies.tallies[ProblemTallies.limit]
        #expect(others.isOthers && others.total == 6 && others.key.hasPrefix("Other problems"), "\(others.key) \(others.total)")
        #expect(tallies.tallies.dropLast().allSatisfy { !$0.isOthers })
    }

    @Test func aSparklinesStepsCutTheReportsSpanInFortyEqualParts() {
        // The first and the last moment of the span, and its middle
        #expect(HTMLReport.step(of: 1_000, from: 1_000, to: 40_999) == 0)
        #expect(HTMLReport.step(of: 40_999, from: 1_000, to: 40_999) == 39)
        #expect(HTMLReport.step(of: 21_000, from: 1_000, to: 40_999) == 20)
        // A span of one instant, and one as wide as Int64 holds, give a step without trapping
        #expect(HTMLReport.step(of: 5, from: 5, to: 5) == 0)
        #expect(HTMLReport.step(of: .max, from: .min, to: .max) == 39)
        // Drawn: a bar per step that holds fetches, the busiest full height, and the peak in words
        var steps = Array(repeating: 0, count: 40)
        steps[3] = 1
        steps[39] = 4
        let svg = Sparkline.svg(steps, from: Timestamp(millisecondsSince1970: 0), to: Timestamp(millisecondsSince1970: 39_999))
        #expect(svg.components(separatedBy: "M").count - 1 == 2 && svg.contains("M117 20v-18h2v18z") && svg.contains("M9 20v-5h2v5z"), "\(svg)")
        #expect(svg.contains("most (4) from 1970-01-01 00:00:39.000 to 1970-01-01 00:00:40.000 UTC"), "\(svg)")
    }

    @Test func aFetchsStepIsAskedOnlyWhenItHasAProblemAndCountedThere() throws {
        // Given the tallies, and a step that notes each time it is asked
        var tallies = ProblemTallies()
        var asked = 0
        func step(_ value: Int) -> Int {
            asked += 1
            return value
        }

        // When a succeeded fetch, then one that failed, are counted at step 7
        let succeeded = tallies.add(Self.fetch(1, .succeeded(1), at: 0), source: 0, host: 0, step: step(7))
        #expect(succeeded == nil && asked == 0, "a fetch without a problem has no step worked out")
        let failed = tallies.add(Self.fetch(2, .failed("HTTP 503"), at: 0, status: 503), source: 0, host: 0, step: step(7))

        // Then only the failure asked for its step, and its sparkline counts it there
        #expect(asked == 1)
        let problem = try #require(failed)
        #expect(tallies.tallies[problem].steps[7] == 1)
    }

    @Test func sourcesAreRankedByFailureRateWorstFirstAndTheWorstMarked() throws {
        // Given sources failing 10%, 50% (twice: one with more fetches), and one of cancels only
        var fetches: [Fetch] = []
        func add(_ source: String, failed: Int, succeeded: Int, cancelled: Int = 0) {
            for _ in 0..<failed { fetches.append(Self.fetch(fetches.count, .failed("x"), at: Int64(fetches.count), source: source)) }
            for _ in 0..<succeeded { fetches.append(Self.fetch(fetches.count, .succeeded(1), at: Int64(fetches.count), source: source)) }
            for _ in 0..<cancelled { fetches.append(Self.fetch(fetches.count, .cancelled(.user), at: Int64(fetches.count), source: source)) }
        }
        add("cancels", failed: 0, succeeded: 0, cancelled: 3)
        add("tenth", failed: 1, succeeded: 9)
        add("half-small", failed: 1, succeeded: 1)
        add("half-big", failed: 4, succeeded: 4)

        // When written
        let sources = try Self.section("sources", of: Self.report(fetches).html(nonce: "0"))

        // Then the rows go worst first, more fetches first among equals, the undecided last
        let names = sources.components(separatedBy: "<td class=\"source\">").dropFirst().map {
            $0.components(separatedBy: "<code>")[1].components(separatedBy: "</code>")[0]
        }
        #expect(names == ["half-big", "half-small", "tenth", "cancels"])
        // And the worst are marked in words and by a border, not by colour alone
        #expect(sources.components(separatedBy: "<tr class=\"worst\"><td class=\"source\"><strong class=\"flag\">⚠ worst</strong> ").count - 1 == 2, "\(sources)")
        #expect(sources.contains("<td>50.0%</td><td>50.0%</td>") && sources.contains("<td>10.0%</td><td>90.0%</td>"))
        // And a single source, or none failing, marks nothing
        let alone = try Self.section("sources", of: Self.report(Array(fetches.prefix(13))).html(nonce: "0"))
        #expect(alone.contains("class=\"worst\"") == true, "cancels and tenth: tenth is the worse")
        let healthy = try Self.section("sources", of: Self.report([Self.fetch(1, .succeeded(1), at: 0), Self.fetch(2, .succeeded(1), at: 1, source: "b")]).html(nonce: "0"))
        #expect(!healthy.contains("class=\"worst\""))
    }

    @Test func theSlowestAreKeptLongestFirstAndOfEqualOnesTheFirstToCome() {
        // Given 40 fetches whose durations repeat, and one that never ended
        var slowest = SlowestFetches()
        let durations: [Int64] = (0..<40).map { Int64($0 % 25) * 10 }
        for (index, duration) in durations.enumerated() { slowest.add(Self.fetch(index, .succeeded(1), at: Int64(index), duration: duration)) }
        slowest.add(Self.fetch(99, nil, at: 50, duration: nil))

        // Then twenty are kept, longest first; of two as long, the one that came first
        #expect(slowest.fetches.count == SlowestFetches.limit)
        #expect(slowest.fetches.map(\.durationMilliseconds!) == Array(durations.sorted(by: >).prefix(20)))
        let expected = durations.indices.sorted { durations[$0] != durations[$1] ? durations[$0] > durations[$1] : $0 < $1 }.prefix(20)
        #expect(slowest.fetches.map(\.id) == expected.map(Self.id))
        // (140 ms twice, the fifteenth and the fortieth: the fifteenth is kept first)
        #expect(slowest.fetches[10].id == Self.id(14) && slowest.fetches[11].id == Self.id(39))
    }

    @Test func aSlicesDetailsNameItsOutcomesTopProblemsAndSources() throws {
        // Given 2,100 fetches a second apart: "api" fails one in three with HTTP 503, "random" times out one in ten
        let fetches = (0..<2_100).map { index -> Fetch in
            if index % 2 == 0 {
                return Self.fetch(index, index % 3 == 0 ? .failed("HTTP 503") : .succeeded(1), at: Int64(index), source: "api", status: index % 3 == 0 ? 503 : 200)
            }
            return Self.fetch(index, index % 10 == 1 ? .timedOut : .succeeded(1), at: Int64(index), source: "random")
        }

        // When written, a lane per host: one lane, both sources in each slice
        let page = Self.report(fetches, lanes: .host).html(nonce: "0")

        // Then a slice's details name its outcomes, then its problems, then its sources, most first
        let details = page.components(separatedBy: "<g data-fetch=\"\" tabindex=\"0\" data-details=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
        #expect(details.count > 100)
        let first = try #require(details.first)
        let lines = first.components(separatedBy: "\n")
        #expect(lines.count == 3, "\(first)")
        #expect(lines[0].contains(" fetches: ") && lines[0].contains(" succeeded, ") && lines[0].contains(" failed"), "\(first)")
        #expect(lines[1].hasPrefix("problems: HTTP 503 (") && lines[1].contains("), timed out ("), "\(first)")
        #expect(lines[2].hasPrefix("sources: api (") && lines[2].contains("), random ("), "\(first)")
        // And the counts add up: every slice's problems are its failed and timed-out fetches
        for slice in details {
            let counted = slice.components(separatedBy: "\n")[0]
            let failed = Int(counted.components(separatedBy: " failed")[0].components(separatedBy: " ").last ?? "") ?? 0
            let timedOut = Int(counted.components(separatedBy: " timed out")[0].components(separatedBy: " ").last ?? "") ?? 0
            let problemLine = slice.components(separatedBy: "\n").first { $0.hasPrefix("problem") } ?? ""
            let inProblems = problemLine.components(separatedBy: "(").dropFirst().compactMap { Int($0.prefix { $0 != ")" }) }.reduce(0, +)
            #expect(inProblems == failed + timedOut, "\(slice)")
        }
    }

    @Test func theSummarysFiguresAreTheStoresOwnForTheSameFetches() throws {
        // Given 3,000 fetches of every outcome and many durations, in a history
        let outcomes: [FetchOutcome] = [.succeeded(1), .failed("HTTP 503"), .timedOut, .cancelled(.user), .interrupted]
        let fetches = (0..<3_000).map { index in
            Self.fetch(index + 1, index % 7 < 3 ? .succeeded(1) : outcomes[index % 5], at: Int64(index), duration: Int64(index * 7_919 % 40_000))
        }
        let store = try HistoryStore.inMemory()
        try store.write { db in try db.importFetches { insert in try fetches.forEach(insert) } }

        // When the report reads them as `report` does
        var report = HTMLReport(newestStart: fetches.last?.startedAt, generatedAt: Timestamp(millisecondsSince1970: Self.start), scope: "")
        try store.read { db in try db.forEachFetch { report.add($0) } }

        // Then its counts, percentiles and histogram are what the history itself answers
        let stored = try store.read { db in try db.statistics() }
        #expect(report.total == 3_000)
        #expect(report.statistics == stored)
        #expect(stored.latency != nil && stored.counts.count == 5, "\(stored)")
    }

    @Test func pastTheDetailLimitEveryFetchIsCountedInSlicesNoneDrawnAlone() throws {
        // Given as many fetches as the page draws one by one, then one more
        let fetches = (0...HTMLReport.detailLimit).map { index in
            Self.fetch(index + 1, index % 4 == 0 ? .failed("HTTP 500") : .succeeded(1), at: Int64(index), status: index % 4 == 0 ? 500 : nil)
        }
        var report = Self.report(Array(fetches.dropLast()))
        #expect(report.detailed)
        let drawn = report.html(nonce: "0")

        // When the one more is added
        report.add(fetches.last!)
        let page = report.html(nonce: "0")

        // Then the first page drew a bar per fetch and listed them all; the second draws slices
        // that count every fetch, the first ones too, and lists none
        let slice = "<g data-fetch=\"\" tabindex=\"0\" data-details=\""
        #expect(drawn.contains("<section id=\"fetches\">") && !drawn.contains(slice))
        #expect(drawn.components(separatedBy: "<a class=\"fetch\" href=").count - 1 == HTMLReport.detailLimit)
        #expect(!report.detailed && !page.contains("<section id=\"fetches\">") && !page.contains("<a class=\"fetch\" href="))
        // (a slice's details: "FROM to TO UTC · N fetches: …")
        let counts = page.components(separatedBy: slice).dropFirst().map { details in
            details.components(separatedBy: " UTC · ").dropFirst().first?.prefix { $0 != " " }.filter { $0 != "," } ?? ""
        }
        #expect(!counts.isEmpty && counts.compactMap { Int($0) }.count == counts.count, "\(counts.prefix(5))")
        #expect(counts.compactMap { Int($0) }.reduce(0, +) == fetches.count, "\(counts.prefix(5))")
    }

    @Test func lanesAreSessionsHostsOrSourcesAsAsked() throws {
        // Given fetches of two sessions on two hosts, from three sources
        let fetches = [
            Self.fetch(1, .succeeded(1), at: 0, source: "a", host: "ci-1", session: 1),
            Self.fetch(2, .failed("x"), at: 1, source: "b", host: "ci-1", session: 1),
            Self.fetch(3, .succeeded(1), at: 2, source: "a", host: "ci-2", session: 2),
            Self.fetch(4, .succeeded(1), at: 3, source: "c", host: "ci-2", session: 2),
        ]
        func labels(_ lanes: HTMLReport.Lanes) -> [String] {
            let page = Self.report(fetches, lanes: lanes).html(nonce: "0")
            return page.components(separatedBy: "<text class=\"lane-label\"").dropFirst().map {
                let text = $0.components(separatedBy: "</title>")[1].components(separatedBy: "</text>")[0]
                return text
            }
        }

        // Then by session, a lane each under its host; by host, a lane per host; by source, one per source
        #expect(labels(.session) == ["\(Self.id(900_001).shortText) · ci-1", "\(Self.id(900_002).shortText) · ci-2"])
        #expect(labels(.host) == ["ci-1", "ci-2"])
        #expect(labels(.source) == ["a (2 sessions)", "b", "c"])
        let bySource = Self.report(fetches, lanes: .source).html(nonce: "0")
        #expect(bySource.contains("fetches in 3 lanes (a lane per source)\""))
        #expect(Timeline.label(of: Timeline.Lane(kind: .source, name: "", group: nil, count: 1, bars: [], columns: [:]), underHeading: false) == "(source not known)")
    }

    @Test func pastSixtySourcesTheRestShareALane() {
        // Given 70 sources, a fetch each
        let fetches = (0..<70).map { Self.fetch($0, .succeeded(1), at: Int64($0), source: "source-\($0)", session: $0) }

        // When a lane per source is asked for
        let page = Self.report(fetches, lanes: .source).html(nonce: "0")

        // Then 59 sources have their own, and the other eleven share one
        #expect(page.components(separatedBy: "<g class=\"lane\">").count - 1 == 60)
        #expect(page.contains(">source-58</text>") && !page.contains(">source-59</text>") && page.contains(">other sources (11 sessions)</text>"))
    }

    @Test func indexCountsGiveTheMostCountedFirst() {
        var counts = IndexCounts()
        for index in [3, 3, 1, 2, 2, 2, 5, 4] { counts.add(index) }
        let (top, others) = counts.top(2)
        #expect(top.map(\.index) == [2, 3] && top.map(\.count) == [3, 2] && others == 3)
        var merged = IndexCounts()
        merged.add(counts)
        merged.add(1, count: 5)
        #expect(merged.top(1).top.map(\.index) == [1] && merged.top(1).top.map(\.count) == [6])
    }

    @Test func aLanesColumnsCountEveryFetchEvenWhenItComesBackToAnEarlierColumn() {
        // Given fetches in columns 7, 7, 3, 7, 9, 9, 3 (the one counted last is kept aside)
        var columns = LaneColumns()
        let counted: [(column: Int, status: FetchStatus)] = [(7, .succeeded), (7, .failed), (3, .succeeded), (7, .timedOut), (9, .failed), (9, .failed), (3, .failed)]
        var expected: [Int: ColumnTally] = [:]
        for (index, fetch) in counted.enumerated() {
            let problem = fetch.status == .succeeded ? nil : index % 2
            columns.add(fetch.status, problem: problem, source: index % 3, in: fetch.column)
            expected[fetch.column, default: ColumnTally()].add(fetch.status, problem: problem, source: index % 3)

            // Then after each, every column holds what was counted in it, the latest too
            let all = columns.all
            #expect(all.keys.sorted() == expected.keys.sorted(), "after \(index + 1)")
            for (column, tally) in expected {
                #expect(all[column]?.counts.dictionary == tally.counts.dictionary, "column \(column) after \(index + 1)")
                #expect(all[column]?.problems.top(9).top.map(\.count) == tally.problems.top(9).top.map(\.count))
                #expect(all[column]?.sources.top(9).top.map(\.index) == tally.sources.top(9).top.map(\.index))
            }
        }
        #expect(LaneColumns().all.isEmpty)
    }

    @Test func recordedTextIsEscapedByteForByteWhateverItsScript() {
        // Printable ASCII without markup comes back as it is
        #expect(HTMLText.escaped("HTTP 503 from api.example") == "HTTP 503 from api.example")
        // Markup beside letters of more than one byte, a control character and a line break
        #expect(
            HTMLText.escaped("é<b>\"x\" & 'y'\u{1B}[2J\n日本 \u{202E}") == "é&lt;b&gt;&quot;x&quot; &amp; &#39;y&#39;\\x1b[2J\n日本 \\u{202e}"
        )
    }
}
